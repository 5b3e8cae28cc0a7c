/**
 * Credits: the price of every route, reserve → commit on 200, release on every failure (upstream
 * ApiError, plain exception, timeout, client abort), cache hits (charged by default, free with
 * `chargeCacheHits: false`), the cache tiers MISS → HIT → L2 → STALE, and coalescing.
 */
import { describe, expect, test } from 'vitest';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { ApiError } from '../../src/errors.ts';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { testApp } from '../helpers/app.ts';
import {
  expectError,
  type Fixture,
  fixture,
  KEYED_ROUTES,
  routeInit,
  settle,
  UNLIMITED,
} from '../helpers/http.ts';

const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}`;

async function credits(f: Fixture) {
  const rt = f.ts;
  return rt.ports.ledger.credits(f.accountId);
}

describe('prices', () => {
  test.each(KEYED_ROUTES)(
    '$method $path costs $price (X-Credits-To-Deduct and the balance agree)',
    async (route) => {
      const f = await fixture({}, 100);
      const res = await f.get(route.path, routeInit(route));
      expect(res.status).toBe(200);
      expect(res.headers.get('x-credits-to-deduct')).toBe(String(route.price));
      expect(await f.balance(f.accountId)).toBe(100 - route.price);
      expect((await credits(f)).reserved).toBe(0);
    },
  );

  test.each(KEYED_ROUTES.filter((r) => r.price > 0))(
    '$method $path: 402 with too few credits, no upstream call',
    async (route) => {
      const f = await fixture({}, route.price - 1);
      const e = await expectError(await f.get(route.path, routeInit(route)), 402, 'insufficient_credits');
      expect(e.details).toEqual({ required: route.price, balance: route.price - 1 });
      expect(f.upstream.calls).toEqual({});
    },
  );

  test('free routes answer with an empty balance', async () => {
    const f = await fixture({}, 0);
    for (const route of KEYED_ROUTES.filter((r) => r.price === 0))
      expect((await f.get(route.path, routeInit(route))).status).toBe(200);
  });

  test('configured prices apply (every price is configuration)', async () => {
    const f = await fixture({ pricing: { transcript: 3, basic_info: 1 } }, 10);
    expect((await f.get(TRANSCRIPT)).headers.get('x-credits-to-deduct')).toBe('3');
    expect((await f.get(`/v1/videos/${VIDEO}/basic-info`)).headers.get('x-credits-to-deduct')).toBe('1');
    expect(await f.balance(f.accountId)).toBe(6);
  });

  test('concurrent calls never overdraw: 5 credits, 20 requests → 5 × 200, 15 × 402', async () => {
    const f = await fixture({}, 5);
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => f.get(TRANSCRIPT).then((r) => r.status)),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(5);
    expect(statuses.filter((s) => s === 402)).toHaveLength(15);
    expect(await credits(f)).toMatchObject({ balance: 0, reserved: 0, spent: 5 });
  });
});

describe('errors are free: the reservation is released', () => {
  test('upstream ApiError, plain exception (500, no detail leaked)', async () => {
    const f = await fixture({}, 10);
    f.upstream.failures.player = new ApiError('upstream_error', 'unparseable');
    await expectError(await f.get(TRANSCRIPT), 502, 'upstream_error');
    f.upstream.failures.player = new Error('secret internal detail');
    const e = await expectError(await f.get(TRANSCRIPT), 500, 'internal_error');
    expect(e.message).not.toContain('secret');
    f.upstream.failures = { captions: new TypeError('x is undefined') };
    await expectError(await f.post('/v1/transcripts', { video_id: VIDEO }), 500, 'internal_error');
    expect(await credits(f)).toMatchObject({ balance: 10, reserved: 0, spent: 0 });
  });

  test('timeout: 504 upstream_timeout after limits.deadlineMs', async () => {
    const f = await fixture({ limits: { deadlineMs: 30 } }, 10);
    f.upstream.delayMs = 500;
    const e = await expectError(await f.get(TRANSCRIPT), 504, 'upstream_timeout');
    expect(e.retryable).toBe(true);
    await expectError(await f.get(`/v1/videos/${VIDEO}?mode=full`), 504, 'upstream_timeout');
    expect(await credits(f)).toMatchObject({ balance: 10, reserved: 0, spent: 0 });
  });

  test('client abort: released, logged as no server fault; the shared load is kept for others', async () => {
    const levels: string[] = [];
    const f = await fixture({ logger: { log: (level) => void levels.push(level) } }, 10);
    // Hold the upstream call (gate) so that the abort surely lands while it is in flight.
    let open!: () => void;
    f.upstream.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const controller = new AbortController();
    const pending = f.get(TRANSCRIPT, { signal: controller.signal });
    while (f.upstream.calls.player !== 1) await settle(1);
    expect((await credits(f)).reserved).toBe(1);
    controller.abort();
    const res = await pending.catch((error: unknown) => error);
    if (res instanceof Response) expect(res.status).not.toBe(200);
    while ((await credits(f)).reserved > 0) await settle(1);
    expect(await credits(f)).toMatchObject({ balance: 10, reserved: 0, spent: 0 });
    expect(levels).not.toContain('error');
    open();
    // The aborted caller never reached the captions step; the player load it started was kept.
    expect((await f.get(TRANSCRIPT)).status).toBe(200);
    expect(f.upstream.calls).toEqual({ player: 1, captions: 1 });
    expect(await f.balance(f.accountId)).toBe(9);
  });

  test('rejected requests (401, 400, 429, 403 scope) never touch credits', async () => {
    const f = await fixture({}, 10, { plan: 'free' });
    await expectError(await f.call(TRANSCRIPT), 401, 'missing_api_key');
    await expectError(await f.get('/v1/transcripts?video_id=bad'), 400, 'invalid_video_id');
    expect((await f.get(TRANSCRIPT)).status).toBe(200);
    await expectError(await f.get(TRANSCRIPT), 429, 'rate_limited');
    expect(await credits(f)).toMatchObject({ balance: 9, reserved: 0, spent: 1 });
  });
});

describe('cache tiers and cache-hit charging', () => {
  test('MISS, then HIT (L1), then L2 on a fresh app over the same storage; hits cost the same', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const kv = createMemoryKv(clock);
    const ledger = createEmbeddedLedger({ clock, kv });
    const plans = { [UNLIMITED]: [{ limit: 1000, window: 1 }] };
    const f = await fixture({ clock, kv, ledger, plans }, 10);
    const miss = await f.get(TRANSCRIPT);
    expect([miss.headers.get('x-cache'), miss.headers.get('x-cache-tier')]).toEqual(['MISS', null]);
    const hit = await f.get(TRANSCRIPT);
    expect([hit.headers.get('x-cache'), hit.headers.get('x-cache-tier')]).toEqual(['HIT', 'L1_MEMORY']);
    expect(hit.headers.get('x-credits-to-deduct')).toBe('1');
    const second = await testApp({ clock, kv, ledger, plans, seed: 99 });
    const l2 = await second.call(TRANSCRIPT, { key: f.apiKey });
    expect([l2.status, l2.headers.get('x-cache'), l2.headers.get('x-cache-tier')]).toEqual([
      200,
      'L2',
      'L2_PERSISTENT',
    ]);
    expect(l2.headers.get('x-credits-to-deduct')).toBe('1');
    expect(second.upstream.calls).toEqual({});
    expect(await f.balance(f.accountId)).toBe(7);
  });

  test('chargeCacheHits: false makes HIT and L2 free, a MISS still costs', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const kv = createMemoryKv(clock);
    const ledger = createEmbeddedLedger({ clock, kv });
    const options = { clock, kv, ledger, billing: { chargeCacheHits: false } };
    const f = await fixture(options, 10);
    expect((await f.get(TRANSCRIPT)).headers.get('x-credits-to-deduct')).toBe('1');
    expect((await f.get(TRANSCRIPT)).headers.get('x-credits-to-deduct')).toBe('0');
    const second = await testApp({
      ...options,
      seed: 99,
      plans: { [UNLIMITED]: [{ limit: 1000, window: 1 }] },
    });
    const l2 = await second.call(TRANSCRIPT, { key: f.apiKey });
    expect([l2.headers.get('x-cache'), l2.headers.get('x-credits-to-deduct')]).toEqual(['L2', '0']);
    expect(await credits(f)).toMatchObject({ balance: 9, reserved: 0, spent: 1 });
  });

  test('Cache-Control: no-cache from the client is ignored', async () => {
    const f = await fixture();
    await f.get(TRANSCRIPT);
    const res = await f.get(TRANSCRIPT, { headers: { 'cache-control': 'no-cache', pragma: 'no-cache' } });
    expect(res.headers.get('x-cache')).toBe('HIT');
    expect(f.upstream.calls.player).toBe(1);
  });

  test('STALE when the upstream fails (retryable) after the entry went stale; charged as a 200', async () => {
    const f = await fixture({}, 10);
    expect((await f.get(`/v1/videos/${VIDEO}/video-info`)).headers.get('x-cache')).toBe('MISS');
    f.clock.advance(61 * 60_000);
    f.upstream.failures.player = new ApiError('upstream_blocked', 'bot check', { retryAfter: 60 });
    f.upstream.failures.videoExtras = new ApiError('upstream_blocked', 'bot check', { retryAfter: 60 });
    const stale = await f.get(`/v1/videos/${VIDEO}/video-info`);
    expect([stale.status, stale.headers.get('x-cache'), stale.headers.get('x-cache-tier')]).toEqual([
      200,
      'STALE',
      'L2_PERSISTENT',
    ]);
    expect(stale.headers.get('x-credits-to-deduct')).toBe('1');
    expect((await stale.json()).title).toBe('Never Gonna Give You Up');
    const transcript = await f.get(TRANSCRIPT);
    expect(transcript.status).toBe(200);
    f.clock.advance(25 * 3_600_000);
    await expectError(await f.get(`/v1/videos/${VIDEO}/video-info`), 503, 'upstream_blocked');
    expect(await f.balance(f.accountId)).toBe(7);
  });

  test('a non-retryable upstream answer after the TTL is not papered over with a stale copy', async () => {
    const f = await fixture();
    await f.get(`/v1/videos/${VIDEO}/basic-info`);
    f.clock.advance(11 * 60_000);
    f.upstream.failures.player = new ApiError('private_video', 'now private');
    await expectError(await f.get(`/v1/videos/${VIDEO}/basic-info`), 403, 'private_video');
  });
});

describe('coalescing', () => {
  test('100 concurrent requests for one cold video: one player and one captions call, all MISS', async () => {
    const f = await fixture({}, 1000);
    let open!: () => void;
    f.upstream.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const pending = Array.from({ length: 100 }, () => f.get(TRANSCRIPT));
    // A request joins the cache's in-flight load synchronously after its reservation is made, so
    // once 100 credits are reserved every request waits on the one (gated) upstream call.
    while ((await credits(f)).reserved < 100) await settle(1);
    expect(f.upstream.calls).toEqual({ player: 1 });
    open();
    const responses = await Promise.all(pending);
    expect(responses.map((r) => r.status)).toEqual(Array(100).fill(200));
    expect(new Set(responses.map((r) => r.headers.get('x-cache')))).toEqual(new Set(['MISS']));
    expect(f.upstream.calls).toEqual({ player: 1, captions: 1 });
    expect(new Set(await Promise.all(responses.map((r) => r.text()))).size).toBe(1);
    expect(await f.balance(f.accountId)).toBe(900);
  });
});
