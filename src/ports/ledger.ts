/**
 * The Ledger port: everything that must stay exact across instances and processes, namely credit
 * reservations and grants, rate-limit windows, one-time claims and counters.
 * @module
 */

/** One rate-limit rule: at most `limit` hits per window. */
export interface RateRule {
  limit: number;
  /** Window length in seconds (fixed windows aligned to the Unix epoch), or the UTC calendar day. */
  window: number | 'utc-day';
}

/** The state of one rule after a {@link Ledger.hit}. */
export interface RuleState {
  limit: number;
  /** Hits left in the current window after this call (never negative). */
  remaining: number;
  /** Epoch milliseconds when the current window ends. */
  resetAt: number;
}

/** The outcome of a {@link Ledger.hit}. */
export interface RateDecision {
  /** True when every rule admitted the hit (and each was counted). */
  allowed: boolean;
  /** One entry per rule, in the order given. */
  rules: RuleState[];
  /** Index of the first rule that refused the hit, when `allowed` is false. */
  blockedBy?: number;
  /** The ledger's own "now" (epoch ms) used for the decision. */
  now: number;
}

/** The outcome of a {@link Ledger.reserve}. */
export interface ReserveResult {
  /** False when the balance was below the cost; nothing was reserved then. */
  ok: boolean;
  /** The balance after the call (reserved credits are not part of it). */
  balance: number;
}

/** An account's credits. `granted` always equals `balance + reserved + spent`. */
export interface AccountCredits {
  balance: number;
  reserved: number;
  spent: number;
  granted: number;
}

/** A reservation made together with an admission ({@link Ledger.admit}). */
export interface AdmitReservation {
  account: string;
  cost: number;
  reservationId: string;
  ttlMs: number;
}

/** The outcome of a {@link Ledger.admit}. */
export interface AdmitResult {
  decision: RateDecision;
  /** The reservation's outcome; absent when the hit was refused (nothing was reserved then). */
  reserved?: ReserveResult;
}

/** A payment made together with an admission ({@link Ledger.admitPaid}). */
export interface AdmitPayment {
  account: string;
  /** The operation's price: the balance must hold it, as a reservation of it would need. */
  price: number;
  /** What moves from the balance to spent: the price, or 0 for an answer that is free. */
  cost: number;
  /** Names the payment: a repeat, and {@link Ledger.voidPayment}, refer to it. */
  paymentId: string;
  /** The request metered with it, with `cost` credits. */
  usage: UsageTag;
}

/** The outcome of a {@link Ledger.admitPaid}. */
export interface AdmitPaidResult {
  decision: RateDecision;
  /** The payment's outcome; absent when the hit was refused (nothing was paid then). */
  paid?: ReserveResult;
}

/** What a commit is recorded as, for usage metering ({@link Ledger.usage}). */
export interface UsageTag {
  /** The priced operation (`transcript`, `search`, …). */
  operation: string;
}

/** One day of recorded use. */
export interface UsageDayRecord {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  requests: number;
  credits: number;
  by_operation: Record<string, number>;
}

/**
 * Everything that must be atomic: credits, rate limits, one-time tokens and counters.
 *
 * Every method MUST be atomic with respect to every other call on the same ledger, including
 * calls from other processes sharing the backend. Callers never read-modify-write through it.
 */
export interface Ledger {
  /** The account's credits (all zero for an unknown account). */
  credits(account: string): Promise<AccountCredits>;

  /**
   * Moves `cost` credits from the balance into a reservation named `reservationId`.
   * MUST succeed only if balance ≥ cost at that instant (balances never go negative), and MUST
   * be idempotent per `reservationId` while the reservation is open (a repeat returns the first
   * result and reserves nothing more). Callers never reuse an id once it is committed or
   * released (ids are made per call, per batch task attempt), so a ledger need not remember
   * settled ids: keeping one per call for the reservation's lifetime would cost every call.
   * A reservation not committed or released within `ttlMs` MUST be returned to the balance by
   * {@link Ledger.reconcile} (crash safety).
   */
  reserve(account: string, cost: number, reservationId: string, ttlMs: number): Promise<ReserveResult>;

  /**
   * Spends a reservation. MUST be idempotent; committing a released or unknown reservation
   * MUST change nothing and return false.
   */
  commit(reservationId: string, usage?: UsageTag): Promise<boolean>;

  /**
   * Optional usage metering: one account's recorded use on each of `dates` (`YYYY-MM-DD`, UTC);
   * days without use may be absent. A ledger with this method MUST record, in the same atomic
   * step as a commit or release that took effect and carried a {@link UsageTag}, one request and
   * one count of the tag's operation on the account's day of the settlement, with the hold's
   * credits for a commit and none for a release; and MUST implement {@link Ledger.meter}.
   */
  usage?(account: string, dates: readonly string[]): Promise<UsageDayRecord[]>;

  /** Optional, with {@link Ledger.usage}: every account's use summed per day. */
  usageTotals?(dates: readonly string[]): Promise<UsageDayRecord[]>;

  /**
   * Optional, with {@link Ledger.usage}: records one free request (no credits) of the tag's
   * operation on the account's day, atomically, in one step (a free call has no reservation).
   */
  meter?(account: string, usage: UsageTag): Promise<void>;

  /**
   * Optional: records the ledger's "now" as the last use of API key `keyId`, unless the recorded
   * one is less than `minGapMs` old (then nothing is written). MUST be atomic (of concurrent
   * touches from any instance within the gap, at most one writes); returns whether it wrote.
   */
  touchKey?(keyId: string, minGapMs: number): Promise<boolean>;

  /** Optional, with {@link Ledger.touchKey}: the recorded last use (epoch ms) of each key touched. */
  keysLastUsed?(keyIds: readonly string[]): Promise<Record<string, number>>;

  /**
   * Returns a reservation's credits to the balance. MUST be idempotent; releasing a committed
   * or unknown reservation MUST change nothing and return false. With `usage` (a call that
   * succeeded but cost nothing, a free cache hit), a ledger that meters records it as a request
   * with no credits ({@link Ledger.usage}).
   */
  release(reservationId: string, usage?: UsageTag): Promise<boolean>;

  /**
   * Adds `amount` credits. MUST apply at most once per `idempotencyKey`: a repeat changes nothing
   * and returns `applied: false` with the current balance.
   */
  grant(
    account: string,
    amount: number,
    idempotencyKey: string,
  ): Promise<{ applied: boolean; balance: number }>;

  /**
   * Counts one hit in `bucket` against every rule. MUST be all-or-nothing: the hit is counted in
   * every rule's window if all admit it, and in none otherwise.
   */
  hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision>;

  /**
   * Optional fusion of {@link Ledger.hit} and {@link Ledger.reserve} (one round trip instead of
   * two): counts the hit, and only when it is allowed, makes the reservation. MUST behave exactly
   * as `hit(bucket, rules)` followed, when allowed, by `reserve(...)`.
   */
  admit?(bucket: string, rules: readonly RateRule[], reservation: AdmitReservation): Promise<AdmitResult>;

  /**
   * Optional, with {@link Ledger.voidPayment}: admission and payment in one step, for an answer
   * already made (from memory, with nothing upstream to pay for in advance). Counts the hit as
   * {@link Ledger.hit} does; only when it is allowed and the balance holds `price`, moves `cost`
   * from the balance to spent and meters the request with `cost` credits ({@link Ledger.usage}),
   * as a reservation committed at once would. A ledger reached over a connection MUST be
   * idempotent per `paymentId` for at least a minute: a repeat (a command its driver sends again
   * after reconnecting) answers the first outcome and changes nothing. An in-process ledger, whose
   * calls nothing can send twice, need not remember payments (callers never repeat one: a failed
   * call is voided, not retried).
   */
  admitPaid?(bucket: string, rules: readonly RateRule[], payment: AdmitPayment): Promise<AdmitPaidResult>;

  /**
   * Optional, with {@link Ledger.admitPaid}: undoes a payment whose outcome its caller never
   * learned (the call failed: the reply may have been lost after it took effect). A payment that
   * took effect gives its cost back and its metering; one that did not is made void, so that a
   * late repeat of it (a command a driver sends again after reconnecting) pays nothing. MUST be
   * idempotent; throws while the ledger is unreachable (the caller tries again). An in-process
   * ledger whose failed payments change nothing has nothing to undo.
   */
  voidPayment?(payment: AdmitPayment): Promise<void>;

  /**
   * Optional: tells every instance sharing this ledger (this one included) about a change that
   * invalidates what they keep in memory (a revoked key, an account's new plan). Resolves once the
   * message has reached every listener that was listening when it was sent. A ledger shared
   * between processes that cannot broadcast must not have this method (nothing is then cached).
   */
  broadcast?(message: string): Promise<void>;

  /** Optional, with {@link Ledger.broadcast}: calls `listener` with every broadcast message. */
  onBroadcast?(listener: (message: string) => void): void;

  /**
   * Optional, with {@link Ledger.broadcast}: resolves once every broadcast that already reached
   * this process has been handed to the listeners (none is left waiting in a socket buffer).
   */
  caughtUp?(): Promise<void>;

  /** Returns true for exactly one caller per `key` within `ttlMs`; every other caller gets false. */
  consumeOnce(key: string, ttlMs: number): Promise<boolean>;

  /**
   * Adds `by` to the counter `key` and returns the new value. The counter starts at 0 and
   * disappears `ttlMs` after its first increment (a fixed window). `by = 0` reads the current
   * value without creating the counter.
   */
  counter(key: string, by: number, ttlMs: number): Promise<number>;

  /** Releases every reservation whose lifetime has passed; returns how many it released. */
  reconcile(): Promise<number>;

  /** Releases connections and timers. */
  close?(): Promise<void>;
}
