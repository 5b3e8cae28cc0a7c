/**
 * The KeyValue port: the document store for accounts, keys, batch jobs, sign-ups and cached
 * responses, with per-value lifetimes.
 * @module
 */

/** Options for {@link KeyValue.set}. */
export interface SetOptions {
  /** Lifetime in milliseconds; after it the value MUST no longer be returned. */
  ttlMs?: number;
  /**
   * `JSON.stringify(value)`, when the caller has made it already: a store that keeps JSON may
   * keep this instead of serialising the value again (a 3-hour transcript takes 14 ms).
   */
  json?: string;
}

/**
 * A document store for accounts, key records, jobs, sign-ups and cached responses.
 *
 * It offers no atomic read-modify-write: anything that must be atomic goes through the Ledger.
 * - `set` MUST be durable for the backend's kind once it resolves (fs: written to disk; redis:
 *   acknowledged by the server).
 * - A value whose `ttlMs` has elapsed according to the injected Clock MUST NOT be returned by
 *   `get`, whether or not the backend has physically removed it yet.
 * - Values are JSON-serialisable; `get` returns a structurally equal copy, never a shared reference.
 * - A backend failure MUST reject (never resolve to `undefined`), so callers can tell
 *   "absent" from "unknown".
 */
export interface KeyValue {
  get<T>(key: string): Promise<T | undefined>;
  set<T>(key: string, value: T, options?: SetOptions): Promise<void>;
  delete(key: string): Promise<void>;
  /** Keys that start with `prefix` (order unspecified). Expired keys MAY be listed. */
  list(prefix: string): Promise<string[]>;
  /** Releases connections and timers. */
  close?(): Promise<void>;
}
