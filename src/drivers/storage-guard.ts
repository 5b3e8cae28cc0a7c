/**
 * Storage failures as the API reports them: any error of a KeyValue or Ledger backend (Redis
 * unreachable, a disk error) becomes `503 storage_unavailable` (retryable, Retry-After 1), so
 * callers never answer 500 for it, and a charged call is refused before any upstream work.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';

function unavailable(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError('storage_unavailable', 'Storage is unavailable; retry shortly.', {
    cause: error,
    retryAfter: 1,
  });
}

/** Wraps every method of `target` so that a rejection becomes `storage_unavailable`. */
function guard<T extends object>(target: T): T {
  const out: Record<string, unknown> = {};
  for (const name of Object.keys(target) as (keyof T & string)[]) {
    const member = target[name];
    out[name] =
      typeof member === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await (member as (...a: unknown[]) => Promise<unknown>).apply(target, args);
            } catch (error) {
              throw unavailable(error);
            }
          }
        : member;
  }
  return out as T;
}

/** The KeyValue with storage errors mapped. */
export function guardKv(kv: KeyValue): KeyValue {
  return guard(kv);
}

/** The Ledger with storage errors mapped. */
export function guardLedger(ledger: Ledger): Ledger {
  return guard(ledger);
}
