/**
 * Comparing secrets (tokens, signatures) without leaking where they differ through timing.
 * @module
 */

/** True when `a` equals `b`, in time that does not depend on where they differ. */
export function constantTimeEquals(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
