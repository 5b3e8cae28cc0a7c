import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRetryAfter, retryAfterSeconds, secondsUntil } from './retry-after.ts';

const NOW = Date.parse('2024-03-01T18:00:00.400Z');

describe('secondsUntil and retryAfterSeconds', () => {
  it.each<[string, number, number, number]>([
    ['a moment in the past', NOW - 5000, 0, 1],
    ['now itself', NOW, 0, 1],
    ['1 ms ahead rounds up', NOW + 1, 1, 1],
    ['exactly 1 s', NOW + 1000, 1, 1],
    ['1.001 s rounds up', NOW + 1001, 2, 2],
    ['a minute', NOW + 60_000, 60, 60],
    ['the next UTC midnight', Date.parse('2024-03-02T00:00:00.000Z'), 6 * 3600, 6 * 3600],
  ])('%s', (_name, at, until, retry) => {
    expect(secondsUntil(at, NOW)).toBe(until);
    expect(retryAfterSeconds(at, NOW)).toBe(retry);
  });

  it('waiting the Retry-After always reaches the moment, and never a whole second more than needed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 42 }), fc.integer({ min: -1e9, max: 1e9 }), (now, delta) => {
        const seconds = retryAfterSeconds(now + delta, now);
        expect(Number.isInteger(seconds)).toBe(true);
        expect(seconds).toBeGreaterThanOrEqual(1);
        expect(now + seconds * 1000).toBeGreaterThanOrEqual(now + delta);
        if (delta > 1000) expect(now + (seconds - 1) * 1000).toBeLessThan(now + delta);
      }),
    );
  });
});

describe('parseRetryAfter', () => {
  it.each<[string, string | null | undefined, number | undefined]>([
    ['absent', null, undefined],
    ['undefined', undefined, undefined],
    ['empty', '', undefined],
    ['blank', '   ', undefined],
    ['delta-seconds', '120', 120],
    ['delta-seconds with spaces', ' 7 ', 7],
    ['zero', '0', 0],
    ['an HTTP date ahead', 'Fri, 01 Mar 2024 18:00:30 GMT', 30],
    ['an HTTP date ahead, rounded up', 'Fri, 01 Mar 2024 18:00:01 GMT', 1],
    ['an HTTP date passed', 'Fri, 01 Mar 2024 17:00:00 GMT', 0],
    ['garbage', 'soon', undefined],
  ])('%s', (_name, value, seconds) => {
    expect(parseRetryAfter(value, NOW)).toBe(seconds);
  });
});
