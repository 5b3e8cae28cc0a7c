import { describe, expect, it } from 'vitest';
import { DEFAULT_PRICES } from '../core/pricing.ts';
import { silentLogger } from '../drivers/system.ts';
import { ApiError } from '../errors.ts';
import type { AdmitPaidResult, AdmitPayment, Ledger, RateRule } from '../ports/ledger.ts';
import type { Principal } from './accounts.ts';
import { Billing } from './billing.ts';

const RULES: RateRule[] = [{ limit: 10, window: 60 }];
const principal = { accountId: 'a', plan: { name: 'paid', rules: RULES } } as unknown as Principal;
const allowed = (remaining: number) => ({
  allowed: true,
  rules: [{ limit: 10, remaining, resetAt: 60 }],
  now: 0,
});

/** A ledger with only the one-step payment, scripted per test; records what it was asked. */
function fakeLedger(admitPaid: (payment: AdmitPayment) => Promise<AdmitPaidResult>, voidFailures = 0) {
  const voided: string[] = [];
  let failures = voidFailures;
  const ledger = {
    admitPaid: (_bucket: string, _rules: readonly RateRule[], payment: AdmitPayment) => admitPaid(payment),
    async voidPayment(payment: AdmitPayment) {
      if (failures-- > 0) throw new Error('link down');
      voided.push(payment.paymentId);
    },
  } as unknown as Ledger;
  return { ledger, voided };
}

function billingOver(ledger: Ledger, credits: [string, number][] = [], chargeCacheHits = true) {
  return new Billing({
    ledger,
    pricing: DEFAULT_PRICES,
    billing: { chargeCacheHits },
    logger: silentLogger,
    reservationTtlMs: 60_000,
    voidRetryDelaysMs: [1, 1, 1],
    metrics: { credits: (op, n) => credits.push([op, n]), storageError: () => {} },
  });
}

describe('Billing.payReady (an answer made from memory, paid in one step)', () => {
  it('pays the price of a charged answer and counts the credits; a free cache hit costs nothing', async () => {
    const asked: AdmitPayment[] = [];
    const { ledger } = fakeLedger(async (payment) => {
      asked.push(payment);
      return { decision: allowed(9), paid: { ok: true, balance: 5 - payment.cost } };
    });
    const credits: [string, number][] = [];
    const billing = billingOver(ledger, credits);
    expect(billing.paysReadyAnswers).toBe(true);
    const paid = await billing.payReady(principal, 'transcript', 'r1', 'HIT');
    expect(paid).toMatchObject({ paid: true, price: 1, charged: 1, balance: 4 });
    expect(asked[0]).toEqual({
      account: 'a',
      price: 1,
      cost: 1,
      paymentId: 'r1',
      usage: { operation: 'transcript' },
    });
    expect(credits).toEqual([['transcript', 1]]);

    const free = billingOver(ledger, credits, false);
    const answer = await free.payReady(principal, 'transcript', 'r2', 'HIT');
    expect(answer).toMatchObject({ paid: true, price: 1, charged: 0 });
    expect(asked[1]).toMatchObject({ price: 1, cost: 0 });
    expect(credits).toEqual([['transcript', 1]]);
  });

  it('returns refusals (rate limit, short balance) without charging', async () => {
    const refused = billingOver(
      fakeLedger(async () => ({ decision: { ...allowed(0), allowed: false, blockedBy: 0 } })).ledger,
    );
    expect(await refused.payReady(principal, 'transcript', 'r', 'HIT')).toMatchObject({
      paid: false,
      charged: 0,
    });
    const short = billingOver(
      fakeLedger(async () => ({ decision: allowed(9), paid: { ok: false, balance: 0 } })).ledger,
    );
    expect(await short.payReady(principal, 'transcript', 'r', 'HIT')).toMatchObject({
      paid: false,
      price: 1,
      balance: 0,
      charged: 0,
    });
  });

  it('a payment whose reply is lost: storage_unavailable, and the payment voided, retried while the ledger is away', async () => {
    const { ledger, voided } = fakeLedger(async () => {
      throw new Error('Connection is closed.');
    }, 2);
    const billing = billingOver(ledger);
    const failed = billing.payReady(principal, 'transcript', 'lost', 'HIT');
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    await expect(failed).rejects.toMatchObject({ code: 'storage_unavailable', retryable: true });
    // Voided in the background: two failed attempts, then one that gets through.
    for (let i = 0; i < 100 && voided.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
    expect(voided).toEqual(['lost']);
  });
});

describe('Billing.commit (recording the charge of an answer made under a reservation)', () => {
  /** A ledger whose commit fails `failures` times, then answers `committed`; counts the attempts. */
  function committing(failures: number, committed = true) {
    let left = failures;
    const attempts: string[] = [];
    const ledger = {
      async commit(reservationId: string) {
        attempts.push(reservationId);
        if (left-- > 0) throw new Error('Connection is closed.');
        return committed;
      },
    } as unknown as Ledger;
    const credits: [string, number][] = [];
    let storageErrors = 0;
    const billing = new Billing({
      ledger,
      pricing: DEFAULT_PRICES,
      billing: { chargeCacheHits: true },
      logger: silentLogger,
      reservationTtlMs: 60_000,
      commitRetryDelaysMs: [1, 1],
      metrics: { credits: (op, n) => credits.push([op, n]), storageError: () => storageErrors++ },
    });
    return { billing, attempts, credits, storageErrors: () => storageErrors };
  }
  const charge = { op: 'transcript', credits: 1 } as const;

  it('tries again while the ledger is away; the credits are counted once, when the commit took effect', async () => {
    const { billing, attempts, credits, storageErrors } = committing(2);
    await billing.commit('r1', charge);
    expect(attempts).toEqual(['r1', 'r1', 'r1']);
    expect(credits).toEqual([['transcript', 1]]);
    expect(storageErrors()).toBe(2);
  });

  it('every attempt failed: storage_unavailable, retryable after 1 s, and no credits counted', async () => {
    const { billing, attempts, credits, storageErrors } = committing(3);
    const failed = billing.commit('r2', charge);
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    await expect(failed).rejects.toMatchObject({
      code: 'storage_unavailable',
      retryable: true,
      retryAfter: 1,
    });
    expect(attempts).toHaveLength(3);
    expect(credits).toEqual([]);
    expect(storageErrors()).toBe(3);
  });

  it('a reservation that expired before its commit charges nothing and is not retried', async () => {
    const { billing, attempts, credits } = committing(0, false);
    await billing.commit('r3', charge);
    expect(attempts).toEqual(['r3']);
    expect(credits).toEqual([]);
  });
});
