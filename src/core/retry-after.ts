/**
 * Retry-After arithmetic, in one place: the whole seconds until a moment, the Retry-After seconds
 * to send for it, and the seconds a received `Retry-After` header asks for. Pure: `now` (epoch ms)
 * is always an argument.
 * @module
 */

/** Whole seconds from `now` until `at` (both epoch ms), rounded up; 0 once `at` has passed. */
export function secondsUntil(at: number, now: number): number {
  return Math.max(0, Math.ceil((at - now) / 1000));
}

/**
 * The Retry-After seconds of waiting until `at` (epoch ms): {@link secondsUntil}, at least 1, so a
 * client told to wait never retries at once.
 */
export function retryAfterSeconds(at: number, now: number): number {
  return Math.max(1, secondsUntil(at, now));
}

/**
 * The seconds a received `Retry-After` header value asks for: delta-seconds (`120`) or an HTTP
 * date (0 once it has passed). Undefined when the value is absent or neither.
 */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : secondsUntil(at, now);
}
