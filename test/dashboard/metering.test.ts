/**
 * Usage metering on the embedded ledger: a charged call is recorded with its commit (one request,
 * its credits, its operation, on the UTC day), a free call or free cache hit as a request with no
 * credits, read back by GET /v1/usage and the dashboard, kept across a restart on the same
 * storage; a failed call records nothing. Keys' last uses are written at most once a minute.
 */
import { describe, expect, it } from 'vitest';
import { utcDay } from '../../src/core/usage.ts';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { createRedisLedger } from '../../src/drivers/redis/ledger.ts';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { ADMIN, testApp } from '../helpers/app.ts';
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
    // The usage call itself is a free request, metered once it has answered.
    expect((await t.ts.services.usage.totals(1))[0]).toEqual({
      date: utcDay(t.clock.now()),
      requests: 2,
      credits: 1,
      by_operation: { transcript: 1, account: 1 },
    });
  });

  it('counts free calls and free cache hits as requests of their operation with no credits', async () => {
    const t = await testApp({ billing: { chargeCacheHits: false } });
    const { api_key, account_id } = await t.key(10, { plan: 'paid' });
    const ok = async (path: string) => expect((await t.call(path, { key: api_key })).status).toBe(200);
    await ok('/v1/account');
    await ok(`/v1/transcripts/${VIDEO}/languages`);
    await ok(`/v1/transcripts?video_id=${VIDEO}`); // a miss: 1 credit
    await ok(`/v1/transcripts?video_id=${VIDEO}`); // a hit, free here: released, metered free
    // Failures are not requests: a free call refused by validation, an unknown video.
    expect((await t.call('/v1/transcripts/x/languages', { key: api_key })).status).toBe(400);
    expect((await t.call('/v1/transcripts?video_id=nope_nope_0', { key: api_key })).status).not.toBe(200);
    const [today] = await t.ts.services.usage.report(account_id, 1).then((r) => r.days);
    expect(today).toEqual({
      date: utcDay(t.clock.now()),
      requests: 4,
      credits: 1,
      by_operation: { account: 1, transcript_languages: 1, transcript: 2 },
    });
    expect(await t.balance(account_id)).toBe(9);
  });

  it('answers a free call even when its metering fails', async () => {
    const t = await testApp();
    const { api_key } = await t.key(10);
    t.ts.ports.ledger.meter = async () => {
      throw new Error('ledger away');
    };
    const res = await t.call('/v1/account', { key: api_key });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { credits: number }).credits).toBe(10);
  });

  it("records a key's last use at most once a minute, in the background, without failing a call", async () => {
    const t = await testApp();
    const { api_key, key_id, account_id } = await t.key(10);
    const { ledger } = t.ts.ports;
    const writes: number[] = [];
    const touchKey = ledger.touchKey!.bind(ledger);
    ledger.touchKey = async (id, gap) => {
      writes.push(t.clock.now());
      return touchKey(id, gap);
    };
    const t0 = t.clock.now();
    const auth = t.ts.services.auth;
    for (let i = 0; i < 3; i++) expect((await t.call('/v1/account', { key: api_key })).status).toBe(200);
    await auth.touches.settled();
    expect(writes).toEqual([t0]); // the other two were skipped in this process
    expect(await t.ts.services.usage.lastUsed([key_id])).toEqual({ [key_id]: new Date(t0).toISOString() });
    const view = (await (await t.call(`/admin/accounts/${account_id}`, { key: ADMIN })).json()) as {
      keys: { key_id: string; last_used_at?: string }[];
    };
    expect(view.keys).toEqual([
      expect.objectContaining({ key_id, last_used_at: new Date(t0).toISOString() }),
    ]);
    t.clock.advance(59_000);
    await t.call('/v1/account', { key: api_key });
    t.clock.advance(1_000);
    ledger.touchKey = async () => {
      writes.push(t.clock.now());
      throw new Error('ledger away');
    };
    expect((await t.call('/v1/account', { key: api_key })).status).toBe(200);
    await auth.touches.settled();
    expect(writes).toEqual([t0, t0 + 60_000]);
    expect(await t.ts.services.usage.lastUsed([key_id])).toEqual({ [key_id]: new Date(t0).toISOString() });
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
