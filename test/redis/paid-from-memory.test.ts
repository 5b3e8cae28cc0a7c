/**
 * Answers from memory, paid in one ledger step (issue 14): on Redis, a transcript this instance
 * holds in memory is made first and then admitted and paid with one script (`admitPaid`), instead
 * of admission with reservation, the work, and a commit. The answers, the refusals, their headers
 * and the books are those of the usual path; a payment whose reply a dropped link lost is voided,
 * so every 200 is paid once and every other answer is free.
 */
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { type Cluster, startCluster, waitFor } from '../helpers/cluster.ts';
import { countCalls } from '../helpers/ledger-calls.ts';
import { describeRedis } from '../helpers/redis.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const PLANS = { bulk: [{ limit: 1_000_000, window: 1 }], slow: [{ limit: 2, window: 60 }] };
const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}&format=text`;

async function errorOf(res: Response): Promise<{ code: string; details?: unknown }> {
  return ((await res.json()) as { error: { code: string; details?: unknown } }).error;
}

describeRedis('answers from memory, paid in one ledger step', () => {
  let cluster: Cluster | undefined;
  let proxy: TcpProxy | undefined;
  afterEach(async () => {
    await proxy?.restore();
    await cluster?.close();
    await proxy?.close();
    cluster = undefined;
    proxy = undefined;
  });

  it('a cached transcript costs one ledger step, with the same answer, headers and charge', async () => {
    cluster = await startCluster({ size: 1, app: { plans: PLANS } });
    const instance = cluster.at(0);
    const { api_key, account_id } = await cluster.key(3, 'bulk');
    const calls = countCalls(instance.ledger);

    const cold = await instance.call(TRANSCRIPT, { key: api_key });
    expect(cold.status).toBe(200);
    expect(cold.headers.get('X-Cache')).toBe('MISS');
    expect(calls).toEqual({ admit: 1, commit: 1 });

    const warm = await instance.call(TRANSCRIPT, { key: api_key });
    expect(warm.status).toBe(200);
    expect(await warm.text()).toBe(await cold.text());
    expect(warm.headers.get('X-Cache')).toBe('HIT');
    expect(warm.headers.get('X-Credits-To-Deduct')).toBe('1');
    expect(warm.headers.get('X-RateLimit-Limit')).toBe(cold.headers.get('X-RateLimit-Limit'));
    expect(warm.headers.get('X-RateLimit-Remaining')).not.toBeNull();
    expect(calls).toEqual({ admit: 1, commit: 1, admitPaid: 1 });
    expect(await instance.ledger.credits(account_id)).toEqual({
      balance: 1,
      reserved: 0,
      spent: 2,
      granted: 3,
    });
    const usage = (await (await instance.call('/v1/usage', { key: api_key })).json()) as {
      days: { requests: number; credits: number }[];
    };
    expect(usage.days.at(-1)).toMatchObject({ requests: 2, credits: 2 });
  });

  it('refuses a cached answer over the balance (402) or the rate limit (429) with their headers, free', async () => {
    cluster = await startCluster({ size: 1, app: { plans: PLANS } });
    const instance = cluster.at(0);
    const poor = await cluster.key(1, 'bulk');
    expect((await instance.call(TRANSCRIPT, { key: poor.api_key })).status).toBe(200); // fills the cache
    const calls = countCalls(instance.ledger);
    const short = await instance.call(TRANSCRIPT, { key: poor.api_key });
    expect(short.status).toBe(402);
    expect(short.headers.get('X-RateLimit-Limit')).not.toBeNull();
    expect(await errorOf(short)).toEqual({
      code: 'insufficient_credits',
      message: expect.any(String),
      retryable: false,
      details: { required: 1, balance: 0 },
    });
    expect(calls).toEqual({ admitPaid: 1 });
    expect(await instance.ledger.credits(poor.account_id)).toEqual({
      balance: 0,
      reserved: 0,
      spent: 1,
      granted: 1,
    });

    const limited = await cluster.key(10, 'slow');
    for (let i = 0; i < 2; i++)
      expect((await instance.call(TRANSCRIPT, { key: limited.api_key })).status).toBe(200);
    const refused = await instance.call(TRANSCRIPT, { key: limited.api_key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    expect(refused.headers.get('X-RateLimit-Remaining')).toBe('0');
    expect((await errorOf(refused)).code).toBe('rate_limited');
    expect((await instance.ledger.credits(limited.account_id)).spent).toBe(2);
  });

  it('links dropped while cached answers are paid: every 200 paid once, every other answer free', async () => {
    proxy = await startTcpProxy(process.env.TUBESCRIBE_TEST_REDIS ?? '');
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    cluster = await startCluster({
      size: 1,
      url: proxy.url,
      commandTimeoutMs: 300,
      ledgerClock: clock,
      app: { plans: PLANS },
    });
    const instance = cluster.at(0);
    const { api_key, account_id } = await cluster.key(10_000, 'bulk');
    expect((await instance.call(TRANSCRIPT, { key: api_key })).status).toBe(200); // fills the cache
    const calls = countCalls(instance.ledger);
    const statuses: number[] = [];
    let running = true;
    const clients = Array.from({ length: 8 }, async () => {
      while (running) {
        const res = await instance.call(TRANSCRIPT, { key: api_key });
        await res.text();
        statuses.push(res.status);
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    for (const [up, down] of [
      [150, 120],
      [100, 60],
      [200, 300],
      [80, 30],
    ] as const) {
      await sleep(up);
      await proxy.cut();
      await sleep(down);
      await proxy.restore();
    }
    await sleep(200);
    running = false;
    await Promise.all(clients);

    const ok = statuses.filter((status) => status === 200).length;
    // Only two answers exist: served (200) or "storage unavailable, retry" (503); never 500.
    expect(statuses.every((status) => status === 200 || status === 503)).toBe(true);
    expect(ok).toBeGreaterThan(0);
    expect(ok).toBeLessThan(statuses.length);
    expect(calls.admitPaid).toBeGreaterThan(0);
    expect(calls.admit ?? 0).toBe(0); // every one of them took the one-step path
    // Payments whose outcome a cut hid are voided in the background once the link is back.
    await waitFor(
      async () => (await cluster!.at(0).call('/v1/account', { key: api_key })).status === 200,
      10_000,
    );
    await waitFor(async () => (await instance.ledger.credits(account_id)).spent === 1 + ok, 20_000);
    const credits = await instance.ledger.credits(account_id);
    expect(credits).toEqual({ balance: 10_000 - 1 - ok, reserved: 0, spent: 1 + ok, granted: 10_000 });
  });
});
