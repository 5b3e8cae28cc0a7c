/**
 * Usage metering on the embedded ledger: a charged call is recorded with its commit (one request,
 * its credits, its operation, on the UTC day), read back by GET /v1/usage and the dashboard, kept
 * across a restart on the same storage, and a released (failed) call records nothing.
 */
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../src/core/usage.ts';
import { createMemoryKv } from '../../src/drivers/kv-unstorage.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { createRedisLedger } from '../../src/drivers/redis/ledger.ts';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { testApp } from '../helpers/app.ts';
import { connect, deleteKeys, describeRedis, uniquePrefix } from '../helpers/redis.ts';

interface Usage {
  days: { date: string; requests: number; credits: number; by_operation: Record<string, number> }[];
}

describe('usage metering (embedded ledger)', () => {
  it('records a charged call with its commit and shows it in GET /v1/usage', async () => {
    const t = await testApp();
    const { api_key } = await t.key(10, { plan: 'paid' });
    expect((await t.call(`/v1/transcripts?video_id=${VIDEO}`, { key: api_key })).status).toBe(200);
    expect((await t.call('/v1/transcripts?video_id=nope_nope_0', { key: api_key })).status).not.toBe(200);
    const usage = (await (await t.call('/v1/usage?days=2', { key: api_key })).json()) as Usage;
    expect(usage.days[1]).toEqual({
      date: utcDay(t.clock.now()),
      requests: 1,
      credits: 1,
      by_operation: { transcript: 1 },
    });
    expect(usage.days[0]!.requests).toBe(0);
    expect((await t.ts.services.usage.totals(1))[0]!.requests).toBe(1);
  });

  it('keeps the recorded days across a restart on the same storage', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const kv = createMemoryKv(clock);
    const first = createEmbeddedLedger({ clock, kv });
    await first.grant('acc_1', 5, 'g');
    await first.reserve('acc_1', 2, 'r1', 60_000);
    await first.commit('r1', { operation: 'video_full' });
    await first.reserve('acc_1', 1, 'r2', 60_000);
    await first.release('r2');
    const again = createEmbeddedLedger({ clock, kv });
    expect(await again.usage!('acc_1', ['2026-03-01'])).toEqual([
      { date: '2026-03-01', requests: 1, credits: 2, by_operation: { video_full: 1 } },
    ]);
    expect(await again.usage!('acc_2', ['2026-03-01'])).toEqual([]);
  });
});

describeRedis('usage metering (Redis ledger, two instances)', () => {
  it('counts every commit of two instances exactly, per account and in the totals', async () => {
    const prefix = uniquePrefix('use');
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const [a, b] = [await connect(), await connect()];
    const one = createRedisLedger({ client: a, prefix, clock });
    const two = createRedisLedger({ client: b, prefix, clock });
    try {
      await one.grant('acc_r', 1000, 'g');
      await Promise.all(
        Array.from({ length: 40 }, async (_, i) => {
          const ledger = i % 2 === 0 ? one : two;
          await ledger.reserve('acc_r', 2, `r${i}`, 60_000);
          await ledger.commit(`r${i}`, { operation: i % 4 === 0 ? 'search' : 'transcript' });
          await ledger.commit(`r${i}`, { operation: 'search' }); // a repeat records nothing
        }),
      );
      await one.reserve('acc_r', 2, 'released', 60_000);
      await one.release('released');
      const expected = {
        date: '2026-03-01',
        requests: 40,
        credits: 80,
        by_operation: { search: 10, transcript: 30 },
      };
      expect(await two.usage!('acc_r', ['2026-02-28', '2026-03-01'])).toEqual([expected]);
      expect(await one.usageTotals!(['2026-03-01'])).toEqual([expected]);
    } finally {
      await deleteKeys(a, prefix);
      a.disconnect();
      b.disconnect();
    }
  });
});
