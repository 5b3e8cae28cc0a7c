import { describe, expect, it } from 'vitest';
import { dayMemo, emptyDay, fillDays, lastDays, operationsUsed, sumDays, utcDay } from './usage.ts';

const NOW = Date.parse('2026-03-01T23:59:59.999Z');

describe('usage days', () => {
  it('counts UTC days ending today, oldest first, across a month end', () => {
    expect(lastDays(NOW, 3)).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(lastDays(Date.parse('2026-03-02T00:00:00Z'), 1)).toEqual(['2026-03-02']);
    expect(utcDay(NOW)).toBe('2026-03-01');
  });

  it('fills missing days with zeros and drops days outside the range', () => {
    const recorded = [
      { date: '2026-02-28', requests: 2, credits: 3, by_operation: { transcript: 2 } },
      { date: '2026-01-01', requests: 9, credits: 9, by_operation: { search: 9 } },
    ];
    expect(fillDays(lastDays(NOW, 2), recorded)).toEqual([recorded[0], emptyDay('2026-03-01')]);
  });

  it('sums days and orders operations by use', () => {
    const days = [
      { date: 'a', requests: 1, credits: 1, by_operation: { search: 1 } },
      { date: 'b', requests: 3, credits: 4, by_operation: { transcript: 2, search: 1 } },
    ];
    expect(sumDays('x', days)).toEqual({
      date: 'x',
      requests: 4,
      credits: 5,
      by_operation: { search: 2, transcript: 2 },
    });
    expect(operationsUsed(days)).toEqual(['search', 'transcript']);
    expect(operationsUsed([{ ...emptyDay('c'), by_operation: { video_info: 5 } }, ...days])).toEqual([
      'video_info',
      'search',
      'transcript',
    ]);
  });
});

describe('dayMemo', () => {
  it.each([
    '2026-03-01T00:00:00.000Z',
    '2026-03-01T23:59:59.999Z',
    '2026-03-02T00:00:00.000Z',
    '2026-02-28T12:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
  ])('names the day of %s as utcDay does, in any order', (iso) => {
    const memo = dayMemo();
    memo(Date.parse('2026-03-01T12:00:00Z'));
    expect(memo(Date.parse(iso))).toBe(utcDay(Date.parse(iso)));
  });
});
