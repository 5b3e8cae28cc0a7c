import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/fakes/clock.ts';
import { ledgerUsageReader, parseUsageDays, Usage, type UsageReader } from './usage.ts';

const clock = new ManualClock('2026-03-01T10:00:00.000Z');

describe('Usage', () => {
  it('asks the reader for the calendar and fills the days it does not know', async () => {
    const asked: string[][] = [];
    const reader: UsageReader = {
      days: async (_account, dates) => {
        asked.push([...dates]);
        return [{ date: '2026-02-28', requests: 3, credits: 4, by_operation: { transcript: 3 } }];
      },
      totals: async () => [],
      lastUsed: async () => ({ key_a: Date.parse('2026-03-01T09:59:00Z') }),
    };
    const usage = new Usage(reader, clock);
    const report = await usage.report('acc_1', 3);
    expect(asked).toEqual([['2026-02-27', '2026-02-28', '2026-03-01']]);
    expect(report.days.map((d) => d.requests)).toEqual([0, 3, 0]);
    expect(await usage.lastUsed(['key_a', 'key_b'])).toEqual({ key_a: '2026-03-01T09:59:00.000Z' });
    expect(await usage.lastUsed([])).toEqual({});
  });

  it('reads a ledger that records usage, and zeros from one that does not', async () => {
    const metered = ledgerUsageReader({
      usage: async () => [{ date: '2026-03-01', requests: 1, credits: 1, by_operation: { search: 1 } }],
      usageTotals: async () => [{ date: '2026-03-01', requests: 5, credits: 6, by_operation: { search: 5 } }],
    });
    expect((await new Usage(metered, clock).report('acc_1', 1)).days[0]!.requests).toBe(1);
    expect((await new Usage(metered, clock).totals(1))[0]!.requests).toBe(5);
    const plain = new Usage(ledgerUsageReader({}), clock);
    expect((await plain.report('acc_1', 2)).days).toEqual([
      { date: '2026-02-28', requests: 0, credits: 0, by_operation: {} },
      { date: '2026-03-01', requests: 0, credits: 0, by_operation: {} },
    ]);
  });

  it.each([
    [undefined, 30],
    ['', 30],
    ['1', 1],
    ['90', 90],
  ])('parses days=%s as %d', (value, days) => {
    expect(parseUsageDays(value)).toBe(days);
  });

  it.each(['0', '91', '-1', '1e1', ' 5', '007x'])('refuses days=%s', (value) => {
    expect(() => parseUsageDays(value)).toThrow(/days must be/);
  });
});
