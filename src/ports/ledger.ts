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
   * be idempotent per `reservationId` (a repeat returns the first result and reserves nothing more).
   * A reservation not committed or released within `ttlMs` MUST be returned to the balance by
   * {@link Ledger.reconcile} (crash safety).
   */
  reserve(account: string, cost: number, reservationId: string, ttlMs: number): Promise<ReserveResult>;

  /**
   * Spends a reservation. MUST be idempotent; committing a released or unknown reservation
   * MUST change nothing and return false.
   */
  commit(reservationId: string): Promise<boolean>;

  /**
   * Returns a reservation's credits to the balance. MUST be idempotent; releasing a committed
   * or unknown reservation MUST change nothing and return false.
   */
  release(reservationId: string): Promise<boolean>;

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
