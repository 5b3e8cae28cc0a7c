/**
 * ApiError: a client's mistake (4xx) is made without collecting a stack (nothing reads it, and
 * collecting one cost a 401 about a quarter of its CPU); a fault (5xx) keeps its stack for the log;
 * and making either leaves the process's `Error.stackTraceLimit` as it was.
 */
import { describe, expect, it } from 'vitest';
import { ApiError, toEnvelope } from './errors.ts';

describe('ApiError', () => {
  it('carries no stack frames for a client error, and its envelope is unchanged', () => {
    const e = new ApiError('missing_api_key', 'No key.', { challenge: 'Bearer realm="metrics"' });
    expect(e).toBeInstanceOf(Error);
    expect(e.status).toBe(401);
    expect(e.challenge).toBe('Bearer realm="metrics"');
    expect(e.stack?.split('\n').filter((line) => line.trim().startsWith('at '))).toEqual([]);
    expect(toEnvelope(e)).toEqual({
      error: { code: 'missing_api_key', message: 'No key.', retryable: false },
    });
  });

  it('keeps the stack of a server fault', () => {
    const e = new ApiError('internal_error', 'Broken.', { cause: new Error('disk') });
    expect(e.status).toBe(500);
    expect(e.stack).toContain('errors.test.ts');
  });

  it('leaves Error.stackTraceLimit as it found it', () => {
    const before = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 7;
      new ApiError('rate_limited', 'Slow down.');
      expect(Error.stackTraceLimit).toBe(7);
      new ApiError('upstream_timeout', 'Late.');
      expect(Error.stackTraceLimit).toBe(7);
      expect(new Error('plain').stack).toContain('errors.test.ts');
    } finally {
      Error.stackTraceLimit = before;
    }
  });
});
