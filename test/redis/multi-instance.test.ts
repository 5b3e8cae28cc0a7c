/**
 * Multi-instance proofs (issue 5): four tubescribe instances on one real Redis behave as one.
 * Each instance has its own Redis connections, L1 cache and upstream; requests are spread over
 * them round robin, all in flight at once. `multi-process.test.ts` proves it over separate processes.
 */
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../fakes/clock.ts';
import { PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import { ADMIN } from '../helpers/app.ts';
import { type Cluster, countStatuses, startCluster, upstreamCalls } from '../helpers/cluster.ts';
import { describeRedis } from '../helpers/redis.ts';

/** Rules that never refuse in these tests, so credits alone decide. */
const PLANS = {
  bulk: [{ limit: 1_000_000, window: 1 }],
  burst: [{ limit: 10, window: 1 }],
  daily: [{ limit: 5, window: 'utc-day' as const }],
};

const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}&format=text`;

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describeRedis('4 instances on one Redis (in one process, separate connections)', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('1,000 concurrent charged requests against a balance of 100: exactly 100 × 200 and 900 × 402', async () => {
    cluster = await startCluster({ app: { plans: PLANS } });
    const { account_id, api_key } = await cluster.key(100, 'bulk');
    const c = cluster;
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => c.at(i).call(TRANSCRIPT, { key: api_key })),
    );
    const statuses = countStatuses(responses);
    expect(statuses).toEqual({ 200: 100, 402: 900 });
    const bodies = await Promise.all(responses.map((res) => res.text()));
    expect(bodies.filter((b) => b === 'Hello world.\nSecond line here.\n')).toHaveLength(100);
    for (const res of responses.filter((r) => r.status === 200))
      expect(res.headers.get('X-Credits-To-Deduct')).toBe('1');
    // Every instance served its share: 250 requests each, round robin.
    const perInstance = c.instances.map((_, n) => responses.filter((_r, i) => i % 4 === n).length);
    expect(perInstance).toEqual([250, 250, 250, 250]);
    // Exact totals, read through another instance's ledger than any that charged first.
    const credits = await c.at(3).ledger.credits(account_id);
    expect(credits).toEqual({ balance: 0, reserved: 0, spent: 100, granted: 100 });
    expect(credits.granted).toBe(credits.balance + credits.reserved + credits.spent);
    // No upstream work for the refused: each instance loaded the player at most once (L1, then L2 shared).
    expect(upstreamCalls(c.instances, 'player')).toBeGreaterThanOrEqual(1);
    expect(upstreamCalls(c.instances, 'player')).toBeLessThanOrEqual(4);
    // Nothing left reserved anywhere.
    expect(await c.redis.hlen(`{${c.prefix}c}:holds`)).toBe(0);
    const me = await c.at(1).call('/v1/account', { key: api_key });
    expect(((await me.json()) as { credits: number }).credits).toBe(0);
  });

  it('a per-second limit of 10: 100 concurrent requests over 4 instances → exactly 10 admitted', async () => {
    // The ledger clock is injected and frozen, so the whole burst falls into one 1-second
    // window: with Redis TIME a burst could straddle a second boundary and rightly admit up to 20.
    const clock = new ManualClock('2026-03-01T10:00:00.250Z');
    cluster = await startCluster({ ledgerClock: clock, app: { plans: PLANS } });
    const c = cluster;
    const { account_id, api_key } = await c.key(1000, 'burst');
    const burst = () =>
      Promise.all(Array.from({ length: 100 }, (_, i) => c.at(i).call(TRANSCRIPT, { key: api_key })));
    const first = await burst();
    expect(countStatuses(first)).toEqual({ 200: 10, 429: 90 });
    const refused = first.filter((r) => r.status === 429);
    expect(new Set(await Promise.all(refused.map(errorCode)))).toEqual(new Set(['rate_limited']));
    for (const res of refused) expect(res.headers.get('Retry-After')).toBe('1');
    expect(first.find((r) => r.status === 200)?.headers.get('X-RateLimit-Limit')).toBe('10');
    // The next second admits exactly 10 more.
    clock.advance(1000);
    expect(countStatuses(await burst())).toEqual({ 200: 10, 429: 90 });
    expect(await c.at(2).ledger.credits(account_id)).toEqual({
      balance: 980,
      reserved: 0,
      spent: 20,
      granted: 1000,
    });
  });

  it('a daily limit of 5 crossing 00:00 UTC: 5 before midnight, 5 more right after', async () => {
    const clock = new ManualClock('2026-03-01T23:59:59.400Z');
    cluster = await startCluster({ ledgerClock: clock, app: { plans: PLANS } });
    const c = cluster;
    const { account_id, api_key } = await c.key(100, 'daily');
    const wave = () =>
      Promise.all(Array.from({ length: 20 }, (_, i) => c.at(i).call(TRANSCRIPT, { key: api_key })));
    const before = await wave();
    expect(countStatuses(before)).toEqual({ 200: 5, 429: 15 });
    const refused = before.filter((r) => r.status === 429);
    expect(new Set(await Promise.all(refused.map(errorCode)))).toEqual(new Set(['daily_limit_exceeded']));
    // 0.6 s to midnight: Retry-After rounds up to 1 second.
    for (const res of refused) expect(res.headers.get('Retry-After')).toBe('1');
    clock.advance(500); // 23:59:59.900, still the same day
    expect(countStatuses(await wave())).toEqual({ 429: 20 });
    clock.set('2026-03-02T00:00:00.000Z');
    expect(countStatuses(await wave())).toEqual({ 200: 5, 429: 15 });
    expect(await c.at(1).ledger.credits(account_id)).toEqual({
      balance: 90,
      reserved: 0,
      spent: 10,
      granted: 100,
    });
  });

  it('a key revoked on one instance answers 401 on every instance immediately (keys are never cached)', async () => {
    cluster = await startCluster({ app: { plans: PLANS } });
    const c = cluster;
    const { api_key, key_id, account_id } = await c.key(100, 'bulk');
    // Warm every instance: each has authenticated the key and cached the transcript in L1.
    for (const instance of c.instances)
      expect((await instance.call(TRANSCRIPT, { key: api_key })).status).toBe(200);
    const revoked = await c.at(1).call(`/admin/keys/${key_id}`, { method: 'DELETE', key: ADMIN });
    expect(revoked.status).toBe(204);
    // The very next request on each instance, with no wait at all: the bound is zero.
    const after = await Promise.all(
      c.instances.map((instance) => instance.call(TRANSCRIPT, { key: api_key })),
    );
    expect(after.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(new Set(await Promise.all(after.map(errorCode)))).toEqual(new Set(['invalid_api_key']));
    expect((await c.at(3).ledger.credits(account_id)).spent).toBe(4);
  });

  it('consume-once claims of one key from different instances: exactly one winner of 2, and of 50', async () => {
    cluster = await startCluster();
    const c = cluster;
    const claims = (key: string, n: number) =>
      Promise.all(Array.from({ length: n }, (_, i) => c.at(i).ledger.consumeOnce(key, 60_000)));
    const two = await claims('signup:verify:alice@example.com', 2);
    expect(two.filter(Boolean)).toHaveLength(1);
    const fifty = await claims('batch:job_1:task_7', 50);
    expect(fifty.filter(Boolean)).toHaveLength(1);
    // Still consumed for everyone within the lifetime.
    expect(await claims('batch:job_1:task_7', 4)).toEqual([false, false, false, false]);
  });

  it('instances started together agree on one secret: a cursor from one instance pages on another', async () => {
    cluster = await startCluster({ app: { plans: PLANS } });
    const c = cluster;
    const secrets = await Promise.all(
      c.instances.map(async (instance) => {
        await instance.ts.start();
        return Buffer.from(instance.ts.secret.bytes).toString('hex');
      }),
    );
    expect(new Set(secrets).size).toBe(1);
    const { api_key } = await c.key(10, 'bulk');
    const page1 = (await (await c.at(0).call(`/v1/playlists/${PLAYLIST}`, { key: api_key })).json()) as {
      next_cursor: string;
    };
    const page2 = await c
      .at(1)
      .call(`/v1/playlists/${PLAYLIST}?cursor=${page1.next_cursor}`, { key: api_key });
    expect(page2.status).toBe(200);
  });
});
