/**
 * The Clock port: where the current time comes from, injected so tests control it.
 * @module
 */

/**
 * The source of time. Everything that depends on "now" (expiry, rate-limit windows, the UTC day,
 * sign-up code lifetimes) asks a Clock, so tests can move time by hand.
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. MUST never go backwards within one process. */
  now(): number;
}
