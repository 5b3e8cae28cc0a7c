/**
 * What every service call carries: the caller's abort signal (client gone, deadline passed) and
 * the locale hints. Plus the one place where aborts and timeouts become API errors.
 * @module
 */
import { ApiError } from '../errors.ts';

/** Per-call context. */
export interface CallContext {
  /** Aborts when the client disconnects or the call's deadline passes. */
  signal?: AbortSignal;
  /** Interface language hint (YouTube `hl`). */
  hl?: string;
  /** Country hint (YouTube `gl`; `country` is its alias at the edge). */
  gl?: string;
}

/** The signal of a call: the client's, bounded by a deadline. */
export function deadlineSignal(client: AbortSignal | undefined, deadlineMs: number): AbortSignal {
  const timeout = AbortSignal.timeout(deadlineMs);
  return client ? AbortSignal.any([client, timeout]) : timeout;
}

/** True for the error an aborted signal rejects with because its deadline passed. */
export function isTimeout(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'TimeoutError';
}

/**
 * Any failure as an ApiError: timeouts become `upstream_timeout`, anything unexpected
 * `internal_error` (its cause kept for the log, never shown).
 */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (isTimeout(error)) {
    return new ApiError('upstream_timeout', 'The upstream work did not finish in time; retry later.', {
      cause: error,
    });
  }
  return new ApiError('internal_error', 'Internal server error.', { cause: error });
}

/** Upstream options from a call context (only the fields that are set). */
export function upstreamOptions(
  ctx: CallContext,
  signal?: AbortSignal,
): { signal?: AbortSignal; hl?: string; gl?: string } {
  const out: { signal?: AbortSignal; hl?: string; gl?: string } = {};
  if (signal) out.signal = signal;
  if (ctx.hl) out.hl = ctx.hl;
  if (ctx.gl) out.gl = ctx.gl;
  return out;
}
