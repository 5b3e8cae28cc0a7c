/** The bench prints each judged figure on the same side of its goal as the figure itself. */
import { describe, expect, it } from 'vitest';
import { fixedAgainst } from '../../bench/measure.ts';

const atLeastHalf = (x: number) => x >= 0.5;
const atMostTwelve = (x: number) => x <= 12;

describe('fixedAgainst', () => {
  it('keeps the asked decimals when rounding leaves the verdict alone', () => {
    expect(fixedAgainst(0.512, 3, atLeastHalf)).toBe('0.512');
    expect(fixedAgainst(0.4971, 3, atLeastHalf)).toBe('0.497');
    expect(fixedAgainst(11.96, 1, atMostTwelve)).toBe('12.0');
    expect(fixedAgainst(13.14, 1, atMostTwelve)).toBe('13.1');
  });

  it('adds decimals until a miss no longer reads as met', () => {
    // 0.49978 pairs per INCRBY was once printed "0.500 … MISSED".
    expect(fixedAgainst(0.49978, 3, atLeastHalf)).toBe('0.4998');
    expect(fixedAgainst(12.04, 1, atMostTwelve)).toBe('12.04');
    expect(fixedAgainst(12.0004, 1, atMostTwelve)).toBe('12.0004');
  });
});
