/**
 * The server-rendered usage chart: stacked bars per operation with a legend, a round axis, and the
 * numbers in a table.
 */
import { describe, expect, it } from 'vitest';
import { emptyDay, lastDays } from '../../src/core/usage.ts';
import { niceCeiling, UsageCharts } from '../../src/http/dashboard/chart.tsx';

describe('usage chart', () => {
  it.each([
    [0, 1],
    [1, 1],
    [3, 5],
    [7, 10],
    [11, 20],
    [250, 500],
  ])('rounds an axis of %d up to %d', (n, nice) => {
    expect(niceCeiling(n)).toBe(nice);
  });

  it('draws one segment per operation used and lists the numbers', async () => {
    const days = lastDays(Date.parse('2026-03-01T12:00:00Z'), 30).map(emptyDay);
    days[29] = {
      date: days[29]!.date,
      requests: 3,
      credits: 5,
      by_operation: { transcript: 2, video_full: 1 },
    };
    const html = String(await UsageCharts({ days, idPrefix: 't' }));
    expect(html).toContain('<strong>3</strong> requests and <strong>5</strong> credits');
    expect(html.match(/<rect /g)).toHaveLength(3); // two operations + one credits bar
    expect(html).toContain('<title>2026-03-01: 2 transcript</title>');
    expect(html.indexOf('transcript')).toBeLessThan(html.indexOf('video_full'));
    expect(html).toContain('<td>2026-03-01</td><td>3</td><td>5</td><td>transcript: 2, video_full: 1</td>');
  });

  it('says so when nothing was used', async () => {
    const days = lastDays(Date.parse('2026-03-01T12:00:00Z'), 7).map(emptyDay);
    const html = String(await UsageCharts({ days, idPrefix: 't' }));
    expect(html).toContain('No requests yet.');
    expect(html).not.toContain('<rect');
  });
});
