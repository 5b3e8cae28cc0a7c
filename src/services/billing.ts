/**
 * Charging and rate limiting, shared by REST, MCP and batch: admit the call against the plan's
 * rules, reserve its price before the work, commit on success, release on anything else. An
 * answer made from memory alone (nothing upstream ran) is admitted and paid in one step after it
 * is made ({@link Billing.payReady}), where the ledger can.
 * @module
 */
import { type BillingSettings, chargeFor, type Operation, type Pricing } from '../core/pricing.ts';
import { rateLimitApiError } from '../core/ratelimit.ts';
import { ApiError } from '../errors.ts';
import type {
  AdmitPaidResult,
  AdmitPayment,
  Ledger,
  RateDecision,
  RateRule,
  ReserveResult,
} from '../ports/ledger.ts';
import type { Logger } from '../ports/logger.ts';
import type { Principal } from './accounts.ts';
import type { CacheStatus } from './cache.ts';
import type { Metrics } from './metrics.ts';

/** Dependencies of {@link Billing}. */
export interface BillingDeps {
  ledger: Ledger;
  pricing: Pricing;
  billing: Readonly<BillingSettings>;
  logger: Logger;
  reservationTtlMs: number;
  /**
   * Pauses (ms) between attempts to record a charge whose commit failed (storage away, or the
   * connection dropped with the answer in flight). Default {@link COMMIT_RETRY_DELAYS_MS}.
   */
  commitRetryDelaysMs?: readonly number[];
  /** Pauses between attempts to void a payment whose outcome was lost. Default {@link VOID_RETRY_DELAYS_MS}. */
  voidRetryDelaysMs?: readonly number[];
  /** Hears the credits each commit charges and every ledger call that fails. */
  metrics?: Pick<Metrics, 'credits' | 'storageError'>;
}

/** What a commit charges, for the metrics: the operation and its credits. */
export interface ChargeRecord {
  op: Operation;
  credits: number;
}

/**
 * Pauses between commit attempts: about 5.5 s in all, longer than the Redis driver's longest
 * pause between reconnections (2 s), so a commit whose reply a dropped link lost is repeated on
 * the new link and not reported as failed (the call was charged: its answer must be the 200);
 * still far inside a reservation's lifetime, so a retry cannot race the reconciler.
 */
export const COMMIT_RETRY_DELAYS_MS: readonly number[] = [50, 150, 300, 500, 1000, 1500, 2000];

/**
 * Pauses between attempts to void a payment whose outcome was lost ({@link Billing.payReady}):
 * about 31 s in all, inside the minute a ledger keeps payments (a void must find its payment).
 */
export const VOID_RETRY_DELAYS_MS: readonly number[] = [200, 500, 1000, 2000, 4000, 8000, 15000];

/** The 402 of a call whose price the balance does not hold. */
export function insufficientCredits(price: number, balance: number): ApiError {
  return new ApiError(
    'insufficient_credits',
    `This call costs ${price} credit${price === 1 ? '' : 's'}; the balance is ${balance}.`,
    { details: { required: price, balance } },
  );
}

/** What {@link Billing.payReady} decided. */
export interface ReadyPayment {
  /** The rate-limit decision: the call is refused when `allowed` is false. */
  decision: RateDecision;
  /** False when the balance does not hold the price (the call is refused with 402 then). */
  paid: boolean;
  /** The operation's price, which the balance had to hold. */
  price: number;
  /** The balance after the payment (or, when not paid, the balance that fell short). */
  balance: number;
  /** The credits charged (0 when refused, or for a free answer). */
  charged: number;
}

/** Throws the refusal of a ready payment: 429 past the plan's `rules`, 402 short of the price. */
export function ensurePaid(payment: ReadyPayment, rules: readonly RateRule[]): void {
  if (!payment.decision.allowed) throw rateLimitApiError(payment.decision, rules);
  if (!payment.paid) throw insufficientCredits(payment.price, payment.balance);
}

/** A ledger failure: the call cannot be accounted for, so it is refused before any work. */
function storageDown(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('storage_unavailable', 'The credit ledger is unavailable; retry shortly.', {
    cause: error,
    retryAfter: 1,
  });
}

/** Rate limits and credits. */
export class Billing {
  /** Reservations made by {@link Billing.admit} for the {@link Billing.charge} that follows it. */
  private readonly admitted = new Map<string, ReserveResult>();

  constructor(private readonly deps: BillingDeps) {}

  /**
   * Counts the call against the caller's plan and returns the decision. The call is refused when
   * `allowed` is false: the caller answers core's `rateLimitApiError` then, with the decision's
   * rate-limit headers (a refused hit is not counted).
   *
   * With `next` (the operation and reservation id the caller is about to {@link Billing.charge}),
   * an allowed call's price is reserved in the same ledger step when the ledger can fuse them
   * (one Redis round trip instead of two); the charge then uses that reservation.
   */
  async admit(principal: Principal, next?: { op: Operation; reservationId: string }): Promise<RateDecision> {
    const bucket = `acct:${principal.accountId}`;
    const price = next ? this.deps.pricing[next.op] : 0;
    const { ledger } = this.deps;
    if (!next || price <= 0 || !ledger.admit) {
      try {
        return await ledger.hit(bucket, principal.plan.rules);
      } catch (error) {
        this.deps.metrics?.storageError('ledger');
        throw storageDown(error);
      }
    }
    try {
      const { decision, reserved } = await ledger.admit(bucket, principal.plan.rules, {
        account: principal.accountId,
        cost: price,
        reservationId: next.reservationId,
        ttlMs: this.deps.reservationTtlMs,
      });
      // Only saves the charge a round trip: reserve() is idempotent per id, so a forgotten entry
      // (cleared, or a charge that never came) costs nothing but that round trip.
      if (this.admitted.size >= 10_000) this.admitted.clear();
      if (reserved) this.admitted.set(next.reservationId, reserved);
      return decision;
    } catch (error) {
      this.deps.metrics?.storageError('ledger');
      // As in hold(): a reservation that may have been made is returned (idempotent).
      await ledger.release(next.reservationId).catch(() => false);
      throw storageDown(error);
    }
  }

  /**
   * Reserves `price` credits of `accountId` as `reservationId` (idempotent per id). Throws
   * `insufficient_credits` (402) when the balance is short, `storage_unavailable` when the ledger
   * is away (a reservation that may have been made is returned at once, or by the reconciler).
   */
  async hold(accountId: string, price: number, reservationId: string): Promise<void> {
    let reserved = this.admitted.get(reservationId);
    this.admitted.delete(reservationId);
    if (!reserved) reserved = await this.reserve(accountId, price, reservationId);
    if (!reserved.ok) throw insufficientCredits(price, reserved.balance);
  }

  private async reserve(accountId: string, price: number, reservationId: string): Promise<ReserveResult> {
    try {
      return await this.deps.ledger.reserve(accountId, price, reservationId, this.deps.reservationTtlMs);
    } catch (error) {
      this.deps.metrics?.storageError('ledger');
      // The reservation may have been made before the failure (a reply lost with the connection):
      // return it now if so (idempotent); if storage is still away, the reconciler returns it.
      await this.deps.ledger.release(reservationId).catch(() => false);
      throw storageDown(error);
    }
  }

  /** The credits a successful `op` costs, given whether it was answered from the cache. */
  chargeOf(op: Operation, cacheStatus: CacheStatus | undefined): number {
    return chargeFor(this.deps.pricing, op, cacheStatus === 'HIT' || cacheStatus === 'L2', this.deps.billing);
  }

  /**
   * Runs `work` under a reservation of the operation's price. Commits when it succeeds (the
   * caller answers 200), releases when it throws or `signal` aborts (a function is asked once the
   * work is done, so a signal nobody needed is never made). `cacheStatus` tells whether
   * the result was a cache hit, which is free when `chargeCacheHits` is off.
   * Returns the result and the credits charged.
   */
  async charge<T>(
    principal: Principal,
    op: Operation,
    reservationId: string,
    work: () => Promise<T>,
    cacheStatus: (result: T) => CacheStatus | undefined,
    signal?: AbortSignal | (() => AbortSignal | undefined),
  ): Promise<{ result: T; charged: number }> {
    const price = this.deps.pricing[op];
    if (price > 0) await this.hold(principal.accountId, price, reservationId);
    let result: T;
    try {
      result = await work();
      (typeof signal === 'function' ? signal() : signal)?.throwIfAborted();
    } catch (error) {
      if (price > 0) await this.release(reservationId);
      throw error;
    }
    const charged = this.chargeOf(op, cacheStatus(result));
    // Every success is metered as a request: with its credits, or free (a released hold or,
    // for a free operation, one metering step of its own).
    if (price > 0 && charged > 0) await this.commit(reservationId, { op, credits: charged });
    else if (price > 0) await this.release(reservationId, op);
    else await this.meter(principal.accountId, op);
    return { result, charged };
  }

  /** Whether the ledger can admit and pay in one step ({@link Billing.payReady}). */
  get paysReadyAnswers(): boolean {
    return this.deps.ledger.admitPaid !== undefined && this.deps.ledger.voidPayment !== undefined;
  }

  /**
   * Admits and pays for an answer already made, in one ledger step (only when
   * {@link paysReadyAnswers}): the hit against the plan's rules and, when allowed and the balance
   * holds the operation's price, the credits the answer costs (the price, or nothing for a free
   * cache hit), metered like a commit. Refusals are returned, not thrown: the caller answers 429
   * or 402 with the decision's headers. A failure throws `storage_unavailable`, and the payment,
   * which may have taken effect with its reply lost, is voided in the background (retried while
   * the ledger is away), so the refused call costs nothing.
   */
  async payReady(
    principal: Principal,
    op: Operation,
    paymentId: string,
    cacheStatus: CacheStatus | undefined,
  ): Promise<ReadyPayment> {
    const payment: AdmitPayment = {
      account: principal.accountId,
      price: this.deps.pricing[op],
      cost: this.chargeOf(op, cacheStatus),
      paymentId,
      usage: { operation: op },
    };
    let outcome: AdmitPaidResult;
    try {
      outcome = await this.deps.ledger.admitPaid!(
        `acct:${principal.accountId}`,
        principal.plan.rules,
        payment,
      );
    } catch (error) {
      this.deps.metrics?.storageError('ledger');
      void this.voidPayment(payment);
      throw storageDown(error);
    }
    const { decision, paid } = outcome;
    const charged = paid?.ok ? payment.cost : 0;
    if (charged > 0) this.deps.metrics?.credits(op, charged);
    return { decision, paid: paid?.ok ?? false, price: payment.price, balance: paid?.balance ?? 0, charged };
  }

  /** Voids `payment`, trying again while the ledger is away (see {@link payReady}). */
  private async voidPayment(payment: AdmitPayment): Promise<void> {
    // Off the failed call's turn: the void is background work.
    await new Promise((resolve) => setTimeout(resolve, 0));
    try {
      await this.retried(this.deps.voidRetryDelaysMs ?? VOID_RETRY_DELAYS_MS, () =>
        this.deps.ledger.voidPayment!(payment),
      );
    } catch (error) {
      this.deps.logger.log('error', 'a failed call may have been paid: its payment could not be voided', {
        payment: payment.paymentId,
        account: payment.account,
        error: String(error),
      });
    }
  }

  /**
   * Runs a ledger step until it gets through, pausing `delays[i]` before attempt `i + 2` (the step
   * is given its attempt's index, from 0). Each failure counts as a storage error and is handed to
   * `onFailure`; the last one is thrown.
   */
  private async retried<T>(
    delays: readonly number[],
    step: (attempt: number) => Promise<T>,
    onFailure?: (error: unknown, attempt: number) => void,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, delays[attempt - 1]));
      try {
        return await step(attempt);
      } catch (error) {
        this.deps.metrics?.storageError('ledger');
        onFailure?.(error, attempt);
        if (attempt === delays.length) throw error;
      }
    }
  }

  /**
   * Records the charge of a successful call, or throws `storage_unavailable` so the answer is not
   * a 200 that was never paid for. A commit is idempotent, so a failed attempt (whose effect is
   * unknown: the connection may have dropped after Redis ran it) is simply repeated; a repeat
   * that finds the reservation gone means the earlier attempt took effect. If no attempt gets
   * through, the hold stays and the reconciler returns it after its lifetime: the call is free.
   * `charge` (the operation and its credits) is counted in the metrics once the commit took effect.
   */
  async commit(reservationId: string, charge?: ChargeRecord): Promise<void> {
    try {
      await this.retried(
        this.deps.commitRetryDelaysMs ?? COMMIT_RETRY_DELAYS_MS,
        async (attempt) => {
          const committed = await this.deps.ledger.commit(reservationId, charge && { operation: charge.op });
          if (!committed && attempt === 0) {
            // Only the reconciler removes a hold before its commit: the call outlived its reservation.
            this.deps.logger.log('warn', 'reservation expired before its commit; the call was not charged', {
              reservation: reservationId,
            });
          } else if (charge) this.deps.metrics?.credits(charge.op, charge.credits);
        },
        (error, attempt) =>
          this.deps.logger.log('warn', 'commit failed', {
            reservation: reservationId,
            attempt: attempt + 1,
            error: String(error),
          }),
      );
    } catch (failure) {
      throw new ApiError(
        'storage_unavailable',
        'The charge for this call could not be recorded; retry shortly.',
        {
          cause: failure,
          retryAfter: 1,
        },
      );
    }
  }

  /**
   * Returns a reservation; a failure is logged (the reconciler returns the hold later). With `op`
   * (the call succeeded but cost nothing), the ledger meters it as a free request of `op`.
   */
  async release(reservationId: string, op?: Operation): Promise<void> {
    try {
      await this.deps.ledger.release(reservationId, op && { operation: op });
    } catch (error) {
      this.deps.metrics?.storageError('ledger');
      this.deps.logger.log('error', 'release failed', { reservation: reservationId, error: String(error) });
    }
  }

  /**
   * Meters a successful free call of `op` (one ledger step). Metering is bookkeeping: a failure
   * is logged and counted, and the call is answered all the same.
   */
  private async meter(accountId: string, op: Operation): Promise<void> {
    const { ledger } = this.deps;
    if (!ledger.meter) return;
    try {
      await ledger.meter(accountId, { operation: op });
    } catch (error) {
      this.deps.metrics?.storageError('ledger');
      this.deps.logger.log('warn', 'usage metering failed', { account: accountId, op, error: String(error) });
    }
  }
}
