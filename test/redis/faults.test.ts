/**
 * Faults (issue 5): a TCP proxy on 127.0.0.1 between an instance and Redis, cut and restored by
 * the test. While Redis is away charged routes answer 503 `storage_unavailable` (retryable) at
 * once, no upstream work is done, no credit moves; when it returns, service resumes by itself.
 * Connections dropped with requests in flight lose no credit and charge none twice.
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createRedisLedger } from '../../src/drivers/redis/ledger.ts';
import type { Ledger } from '../../src/ports/ledger.ts';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { type Cluster, countStatuses, type Instance, startCluster, waitFor } from '../helpers/cluster.ts';
import { describeRedis, redisUrl } from '../helpers/redis.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const PLANS = { bulk: [{ limit: 1_000_000, window: 1 }] };
const COMMAND_TIMEOUT_MS = 300;
const TTL = 120_000;

interface ErrorBody {
  error: { code: string; retryable: boolean };
}

/** Charged routes that would each call the upstream on a cold cache (a fresh video id each time). */
function coldRequests(instance: Instance, key: string, tag: string, n: number): Promise<Response>[] {
  return Array.from({ length: n }, (_, i) => {
    const id = `${tag}${String(i).padStart(11 - tag.length, '0')}`;
    const path = i % 2 === 0 ? `/v1/transcripts?video_id=${id}&format=text` : `/v1/videos/${id}/video-info`;
    return instance.call(path, { key });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeRedis('Redis faults through a TCP proxy', () => {
  let proxy: TcpProxy;
  let cluster: Cluster;
  let clock: ManualClock;
  let direct: Ledger;
  let instance: Instance;

  beforeEach(async () => {
    proxy = await startTcpProxy(redisUrl ?? '');
    // The ledger clock is injected so the test can move past a reservation's lifetime.
    clock = new ManualClock('2026-03-01T10:00:00.000Z');
    cluster = await startCluster({
      size: 1,
      url: proxy.url,
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      ledgerClock: clock,
      app: { plans: PLANS, limits: { reservationTtlMs: TTL } },
    });
    instance = cluster.at(0);
    // A ledger on a direct connection, to read the truth while the instance's link is cut.
    direct = createRedisLedger({ client: cluster.redis, prefix: cluster.prefix, clock });
  });
  afterEach(async () => {
    await proxy.restore();
    await cluster.close();
    await proxy.close();
  });

  it('Redis unreachable: 503 storage_unavailable (retryable) at once, no upstream work, no credit moved; then resumes by itself', async () => {
    const { api_key, account_id } = await cluster.key(100, 'bulk');
    const ok = await Promise.all(coldRequests(instance, api_key, 'okA', 6));
    // Odd ones are video-info of unknown ids (404, free); even ones transcripts of unknown ids (404).
    expect(countStatuses(ok)).toEqual({ 404: 6 });
    for (let i = 0; i < 5; i++)
      expect((await instance.call(`/v1/transcripts?video_id=${VIDEO}`, { key: api_key })).status).toBe(200);
    expect(await direct.credits(account_id)).toEqual({ balance: 95, reserved: 0, spent: 5, granted: 100 });
    const callsBefore = structuredClone(instance.upstream.calls);

    await proxy.cut();
    const started = performance.now();
    const during = await Promise.all([
      ...coldRequests(instance, api_key, 'cut', 40),
      ...Array.from({ length: 10 }, () =>
        instance.call(`/v1/transcripts?video_id=${VIDEO}`, { key: api_key }),
      ),
      instance.call('/v1/account', { key: api_key }),
    ]);
    const elapsed = performance.now() - started;
    expect(countStatuses(during)).toEqual({ 503: 51 });
    for (const res of during) {
      expect(((await res.json()) as ErrorBody).error).toEqual(
        expect.objectContaining({ code: 'storage_unavailable', retryable: true }),
      );
      expect(res.headers.get('Retry-After')).toBe('1');
    }
    // Not a hang: 51 requests answered within the command timeout's order of magnitude.
    expect(elapsed).toBeLessThan(COMMAND_TIMEOUT_MS * 10);
    // Routes without storage still answer.
    expect((await instance.call('/healthz')).status).toBe(200);
    // No upstream work done for free, and not one credit moved.
    expect(instance.upstream.calls).toEqual(callsBefore);
    expect(await direct.credits(account_id)).toEqual({ balance: 95, reserved: 0, spent: 5, granted: 100 });

    await proxy.restore();
    // ioredis reconnects by itself: the first answer that is not 503 comes without any action.
    await waitFor(async () => (await instance.call('/v1/account', { key: api_key })).status === 200, 10_000);
    for (let i = 0; i < 5; i++)
      expect((await instance.call(`/v1/transcripts?video_id=${VIDEO}`, { key: api_key })).status).toBe(200);
    expect(await direct.credits(account_id)).toEqual({ balance: 90, reserved: 0, spent: 10, granted: 100 });
  });

  it('connections dropped while requests are in flight: every 200 charged once, every other answer free', async () => {
    const { api_key, account_id } = await cluster.key(10_000, 'bulk');
    instance.upstream.delayMs = 5;
    const statuses: number[] = [];
    const latencies: number[] = [];
    let running = true;
    // Eight clients send charged requests back to back (cold and warm cache) while the link flaps.
    const clients = Array.from({ length: 8 }, async (_, c) => {
      for (let i = 0; running; i++) {
        const id = i % 3 === 0 ? VIDEO : `f${c}${String(i).padStart(9, '0')}`;
        instance.upstream.players.set(id, { ...instance.upstream.players.get(VIDEO)!, videoId: id });
        const t0 = performance.now();
        const res = await instance.call(`/v1/videos/${id}/video-info`, { key: api_key });
        await res.text();
        statuses.push(res.status);
        latencies.push(performance.now() - t0);
        // While the link is cut a refusal settles in microtasks only: let timers run.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    for (const [up, down] of [
      [150, 120],
      [100, 60],
      [200, 400],
      [80, 30],
      [150, 250],
    ] as const) {
      await sleep(up);
      await proxy.cut();
      if (down >= 400) {
        // One request surely inside a cut (the eight clients may, on a loaded machine, happen to
        // miss every window): with the link down it must be a free 503, never a 500 or a hang.
        await sleep(100);
        const res = await instance.call(`/v1/videos/${VIDEO}/video-info`, { key: api_key });
        await res.text();
        statuses.push(res.status);
        await sleep(down - 100);
      } else {
        await sleep(down);
      }
      await proxy.restore();
    }
    await sleep(300);
    running = false;
    await Promise.all(clients);

    const ok = statuses.filter((status) => status === 200).length;
    const unavailable = statuses.filter((status) => status === 503).length;
    // Only two answers exist: served (200) or "storage unavailable, retry" (503); never 500.
    expect(ok + unavailable).toBe(statuses.length);
    expect(ok).toBeGreaterThan(0);
    expect(unavailable).toBeGreaterThan(0);
    expect(Math.max(...latencies)).toBeLessThan(10_000);
    // Wait for the instance's link to be back, then let the reconciler return whatever holds the
    // cuts left behind (reservations whose reply or settle was lost), once their lifetime passed.
    await waitFor(async () => (await instance.call('/v1/account', { key: api_key })).status === 200, 10_000);
    clock.advance(TTL + 1);
    await instance.ledger.reconcile();
    const credits = await direct.credits(account_id);
    expect(credits.reserved).toBe(0);
    expect(credits.spent).toBe(ok);
    expect(credits.balance).toBe(10_000 - ok);
    expect(credits.granted).toBe(credits.balance + credits.reserved + credits.spent);
  });
});
