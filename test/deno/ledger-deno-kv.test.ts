/**
 * The shared Ledger contract (test/contracts/ledger.ts, unchanged) against the Deno KV ledger on
 * a local KV: in memory, in a file, and as four instances on one file (each call goes to the next
 * instance, each instance has its own KV connection), which is what makes the versionstamp
 * checks and their retries do the work. Run (after `npm ci`):
 * `npx deno test -A --unstable-kv --no-check --config test/deno/deno.json test/deno/`.
 * `--no-check`: `npm run typecheck` checks these files (tsconfig.test.json includes test/), and
 * Deno's own check cannot find `@types/node` from a sub-folder config that resolves packages
 * from node_modules (the app's modules reach `node:` built-ins).
 */
import {
  createDenoKvLedger,
  type DenoKv,
  type DenoKvAtomicOperation,
} from '../../src/drivers/deno/ledger-kv.ts';
import type { Ledger } from '../../src/ports/ledger.ts';
import { ledgerContract, ledgerFigures } from '../contracts/ledger.ts';
import { ManualClock } from '../fakes/clock.ts';
import { deno } from './deno-api.ts';
import { describe, expect, it, testsRun } from './vitest-shim.ts';

/** The contract runs, by name; the last test checks that each of them ran. */
const VARIANTS = ['deno kv, in memory', 'deno kv, in a file', 'deno kv, 4 instances on one file'] as const;

/** One Ledger over several: each call goes to the next one in turn. */
function roundRobin(ledgers: readonly Ledger[]): Ledger {
  let turn = 0;
  const next = (): Ledger => ledgers[turn++ % ledgers.length]!;
  return {
    credits: (account) => next().credits(account),
    reserve: (account, cost, id, ttlMs) => next().reserve(account, cost, id, ttlMs),
    commit: (id, usage) => next().commit(id, usage),
    release: (id, usage) => next().release(id, usage),
    usage: (account, dates) => next().usage!(account, dates),
    usageTotals: (dates) => next().usageTotals!(dates),
    meter: (account, usage) => next().meter!(account, usage),
    touchKey: (keyId, minGapMs) => next().touchKey!(keyId, minGapMs),
    keysLastUsed: (keyIds) => next().keysLastUsed!(keyIds),
    grant: (account, amount, key) => next().grant(account, amount, key),
    hit: (bucket, rules) => next().hit(bucket, rules),
    admitPaid: (bucket, rules, payment) => next().admitPaid!(bucket, rules, payment),
    voidPayment: (payment) => next().voidPayment!(payment),
    consumeOnce: (key, ttlMs) => next().consumeOnce(key, ttlMs),
    counter: (key, by, ttlMs) => next().counter(key, by, ttlMs),
    reconcile: () => next().reconcile(),
    close: async () => {
      for (const ledger of ledgers) await ledger.close?.();
    },
  };
}

ledgerContract(VARIANTS[0], async (clock) => {
  const kv = await deno.openKv(':memory:');
  return {
    ledger: createDenoKvLedger({ kv, clock }),
    // A fresh ledger on the same KV: the ledger keeps no state of its own.
    restart: async () => createDenoKvLedger({ kv, clock }),
    cleanup: async () => kv.close(),
  };
});

ledgerContract(VARIANTS[1], async (clock) => {
  const dir = await deno.makeTempDir({ prefix: 'tubescribe-kv-' });
  const open = async () =>
    createDenoKvLedger({ kv: await deno.openKv(`${dir}/ledger.db`), clock, prefix: ['t', 1], owned: true });
  return { ledger: await open(), restart: open, cleanup: () => deno.remove(dir, { recursive: true }) };
});

ledgerContract(VARIANTS[2], async (clock) => {
  const dir = await deno.makeTempDir({ prefix: 'tubescribe-kv-' });
  const open = async () =>
    roundRobin(
      await Promise.all(
        [0, 1, 2, 3].map(async () =>
          createDenoKvLedger({ kv: await deno.openKv(`${dir}/ledger.db`), clock, owned: true }),
        ),
      ),
    );
  return { ledger: await open(), restart: open, cleanup: () => deno.remove(dir, { recursive: true }) };
});

describe('deno kv ledger, beyond the contract', () => {
  const day = '2026-03-01';
  const payment = (paymentId: string, price = 2, cost = price) => ({
    account: 'a',
    price,
    cost,
    paymentId,
    usage: { operation: 'transcript' },
  });
  /** Runs `test` on a ledger over a fresh in-memory KV whose clock starts at 10:00 on `day`. */
  const withLedger = async (
    test: (env: { kv: DenoKv; clock: ManualClock; ledger: Ledger }) => Promise<void>,
  ): Promise<void> => {
    const kv = await deno.openKv(':memory:');
    try {
      const clock = new ManualClock(`${day}T10:00:00.000Z`);
      await test({ kv, clock, ledger: createDenoKvLedger({ kv, clock }) });
    } finally {
      kv.close();
    }
  };

  it('answers a repeated payment with its first outcome, refusals included, and changes nothing', () =>
    withLedger(async ({ clock, ledger }) => {
      const rules = [{ limit: 1, window: 60 }];
      await ledger.grant('a', 10, 'g');
      const first = await ledger.admitPaid!('acct:a', rules, payment('p1'));
      expect(first.paid).toEqual({ ok: true, balance: 8 });
      expect(await ledger.admitPaid!('acct:a', rules, payment('p1'))).toEqual(first);
      const refused = await ledger.admitPaid!('acct:a', rules, payment('p2'));
      expect(refused.decision.allowed).toBe(false);
      clock.advance(60_000); // a new window: p2 would now be allowed, yet its repeat answers the refusal
      expect(await ledger.admitPaid!('acct:a', rules, payment('p2'))).toEqual(refused);
      expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
      expect(await ledger.usage!('a', [day])).toEqual([
        { date: day, requests: 1, credits: 2, by_operation: { transcript: 1 } },
      ]);
    }));

  it('voids a payment whose outcome was lost: its credits and metering come back, once', () =>
    withLedger(async ({ ledger }) => {
      await ledger.grant('a', 10, 'g');
      await ledger.admitPaid!('acct:a', [], payment('kept', 1));
      await ledger.admitPaid!('acct:a', [], payment('lost', 3));
      await ledger.voidPayment!(payment('lost', 3));
      await ledger.voidPayment!(payment('lost', 3)); // idempotent
      expect(await ledger.credits('a')).toEqual({ balance: 9, reserved: 0, spent: 1, granted: 10 });
      const once = [{ date: day, requests: 1, credits: 1, by_operation: { transcript: 1 } }];
      expect(await ledger.usage!('a', [day])).toEqual(once);
      expect(await ledger.usageTotals!([day])).toEqual(once);
      // A voided payment stays void: sent again, it pays nothing.
      await expect(ledger.admitPaid!('acct:a', [], payment('lost', 3))).rejects.toThrow(/voided/);
      expect((await ledger.credits('a')).balance).toBe(9);
    }));

  it('voids a payment that never ran: sent later, it pays nothing', () =>
    withLedger(async ({ ledger }) => {
      await ledger.grant('a', 10, 'g');
      await ledger.voidPayment!(payment('late'));
      await expect(ledger.admitPaid!('acct:a', [], payment('late'))).rejects.toThrow(/voided/);
      expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
      expect(await ledger.usage!('a', [day])).toEqual([]);
    }));

  it('counts a hit over more rules than one getMany reads (12) in all of them or in none', () =>
    withLedger(async ({ ledger }) => {
      const rules = Array.from({ length: 12 }, (_, i) => ({ limit: i === 11 ? 2 : 3, window: 60 * (i + 1) }));
      const decisions = await Promise.all(Array.from({ length: 10 }, () => ledger.hit('wide', rules)));
      expect(decisions.filter((d) => d.allowed)).toHaveLength(2);
      const refused = decisions.find((d) => !d.allowed)!;
      expect(refused.blockedBy).toBe(11);
      // Refused hits were counted nowhere: every other rule has exactly one hit left.
      expect(refused.rules.slice(0, 11).map((r) => r.remaining)).toEqual(Array(11).fill(1));
    }));

  it('deletes usage days older than 100 days on the first reconciliation of a day, and no others', () =>
    withLedger(async ({ kv, clock, ledger }) => {
      await ledger.meter!('a', { operation: 'account' });
      clock.set('2026-03-02T10:00:00.000Z');
      await ledger.meter!('a', { operation: 'account' });
      const days = ['2026-03-01', '2026-03-02'];
      // 101 days after the first day: that day is purged, the second (100 days old) is kept.
      clock.set('2026-06-10T10:00:00.000Z');
      await ledger.reconcile();
      expect((await ledger.usage!('a', days)).map((d) => d.date)).toEqual(['2026-03-02']);
      expect((await ledger.usageTotals!(days)).map((d) => d.date)).toEqual(['2026-03-02']);
      const left: unknown[] = [];
      for await (const entry of kv.list({ prefix: ['tubescribe', 'ledger'] })) left.push(entry.key);
      expect(left).toHaveLength(4); // requests and op:account, for the account and for everyone
    }));

  it('gives up after maxAttempts lost conflicts, and grants nothing', async () => {
    const kv = await deno.openKv(':memory:');
    let commits = 0;
    const losing: DenoKv = {
      getMany: (keys) => kv.getMany(keys),
      list: (selector) => kv.list(selector),
      close: () => kv.close(),
      atomic() {
        // Reads pass through; every commit loses its checks.
        const op: DenoKvAtomicOperation = {
          check: () => op,
          set: () => op,
          sum: () => op,
          delete: () => op,
          commit: async () => {
            commits++;
            return { ok: false };
          },
        };
        return op;
      },
    };
    const ledger = createDenoKvLedger({ kv: losing, clock: new ManualClock(), maxAttempts: 3 });
    try {
      await expect(ledger.grant('a', 5, 'g')).rejects.toThrow('lost 3 write conflicts');
      expect(commits).toBe(3);
      expect(await ledger.credits('a')).toEqual({ balance: 0, reserved: 0, spent: 0, granted: 0 });
    } finally {
      kv.close();
    }
  });
});

deno.test('the shared contract ran for every variant (figures)', () => {
  const ran = testsRun();
  for (const variant of VARIANTS) {
    const tests = ran.filter((t) => t.name.startsWith(`Ledger contract: ${variant} > `));
    const skipped = tests.filter((t) => t.skipped).length;
    console.log(`Ledger contract: ${variant}: ${tests.length - skipped} passed, ${skipped} skipped`);
    if (tests.length - skipped === 0) {
      throw new Error(
        `No contract test ran for '${variant}': is \`vitest\` mapped to test/deno/vitest-shim.ts?`,
      );
    }
  }
  for (const [name, figure] of Object.entries(ledgerFigures)) console.log(`${name}: ${figure}`);
});
