/**
 * Time helpers shared by the transcript renderers.
 *
 * Every renderer works on whole milliseconds: {@link toMs} turns a time in seconds into a
 * clamped integer, and the JSON renderers divide by 1000 again, which yields the shortest
 * decimal (`0.3`, never `0.30000000000000004`) with at most 3 decimals.
 * @module
 */

/** The largest time a renderer writes: 10^9 s (about 31 years), in ms. */
export const MAX_MS = 1_000_000_000_000;

/**
 * Seconds → whole milliseconds, clamped to `[0, MAX_MS]`. NaN, negative times and -Infinity
 * become 0; +Infinity and anything past the maximum become {@link MAX_MS}.
 */
export function toMs(seconds: number): number {
  if (!(seconds > 0)) return 0;
  const ms = Math.round(seconds * 1000);
  return Math.min(ms, MAX_MS);
}

/**
 * A human time from seconds (clamped like {@link toMs}, fractions dropped): `m:ss` below one
 * hour (`0:00`, `12:05`), `h:mm:ss` from one hour on (`1:02:03`), as YouTube shows chapters.
 */
export function humanTime(seconds: number): string {
  const total = Math.floor(toMs(seconds) / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const secs = total % 60;
  const ss = secs < 10 ? `0${secs}` : `${secs}`;
  if (hours === 0) return `${minutes}:${ss}`;
  return `${hours}:${minutes < 10 ? `0${minutes}` : minutes}:${ss}`;
}
