import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { humanTime, MAX_MS, toMs } from './time.ts';

describe('toMs', () => {
  it.each([
    [0, 0],
    [1.5, 1500],
    [0.1 + 0.2, 300],
    [2.0004, 2000],
    [2.0006, 2001],
    [-0, 0],
    [-3, 0],
    [Number.NaN, 0],
    [Number.NEGATIVE_INFINITY, 0],
    [Number.POSITIVE_INFINITY, MAX_MS],
    [1e300, MAX_MS],
  ])('%d s → %d ms', (seconds, ms) => {
    expect(toMs(seconds)).toBe(ms);
  });

  it('prints at most 3 decimals, never float noise', () => {
    fc.assert(
      fc.property(fc.double({ min: -10, max: 1e6, noNaN: true }), (seconds) => {
        expect(String(toMs(seconds) / 1000)).toMatch(/^\d+(\.\d{1,3})?$/);
      }),
    );
  });
});

describe('humanTime', () => {
  it.each([
    [0, '0:00'],
    [5.9, '0:05'],
    [65, '1:05'],
    [599, '9:59'],
    [3599.999, '59:59'],
    [3600, '1:00:00'],
    [3725.5, '1:02:05'],
    [36_000, '10:00:00'],
    [-4, '0:00'],
    [Number.NaN, '0:00'],
  ])('%d s → %s', (seconds, expected) => {
    expect(humanTime(seconds)).toBe(expected);
  });
});
