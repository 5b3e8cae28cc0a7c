/**
 * The transport's bounds: concurrent requests, body size, allowed hosts and redirects. Fake
 * fetches only; requests are held and released by the test, never timed.
 * @module
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/fakes/clock.ts';
import { SeededRandom } from '../../../test/fakes/random.ts';
import { ApiError, isApiError } from '../../errors.ts';
import type { FetchLike } from '../../ports/fetch.ts';
import { silentLogger } from '../system.ts';
import { Transport, type TransportOptions } from './transport.ts';

function transport(fetch: FetchLike, extra: Partial<TransportOptions> = {}): Transport {
  return new Transport({
    fetch,
    clock: new ManualClock(),
    random: new SeededRandom(1),
    logger: silentLogger,
    retries: 0,
    ...extra,
  });
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A fetch that holds every request until the test releases it, counting those in flight. */
function heldFetch() {
  const held: Array<() => void> = [];
  const state = { calls: 0, inFlight: 0, maxInFlight: 0, held, inits: [] as RequestInit[] };
  const fetch: FetchLike = async (_url, init) => {
    state.calls++;
    state.inits.push(init);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    await new Promise<void>((resolve) => held.push(resolve));
    state.inFlight--;
    return new Response('{"ok":true}', { status: 200 });
  };
  return { fetch, state };
}

const videoUrl = (i: number) =>
  `https://www.youtube.com/api/timedtext?v=vid${String(i).padStart(8, '0')}&fmt=json3`;

describe('Transport: bounded concurrency', () => {
  it('200 concurrent slow requests for distinct videos: never more than the limit in flight, the rest queued or upstream_busy', async () => {
    const { fetch, state } = heldFetch();
    const t = transport(fetch, { maxConcurrent: 32, maxQueued: 64, maxQueueWaitMs: 600_000 });
    let settled = 0;
    const all = Array.from({ length: 200 }, (_, i) =>
      t.request('GET', videoUrl(i), {}, undefined).then(
        (value) => {
          settled++;
          return { status: 'fulfilled' as const, value };
        },
        (reason: unknown) => {
          settled++;
          return { status: 'rejected' as const, reason };
        },
      ),
    );
    await tick();
    expect(state.inFlight).toBe(32);
    expect(t.gate.queued).toBe(64);
    for (let round = 0; settled < 200 && round < 1000; round++) {
      for (const release of state.held.splice(0)) release();
      await tick();
    }
    const results = await Promise.all(all);
    const ok = results.filter((r) => r.status === 'fulfilled');
    const busy = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
    expect(state.maxInFlight).toBe(32);
    expect(ok).toHaveLength(96);
    expect(state.calls).toBe(96);
    expect(busy).toHaveLength(104);
    for (const e of busy) {
      expect(isApiError(e, 'upstream_busy')).toBe(true);
      expect(e).toMatchObject({ status: 503, retryable: true, retryAfter: 1 });
    }
    expect(t.gate.inUse).toBe(0);
    expect(t.gate.queued).toBe(0);
  });

  it('identical requests share one slot (coalesced before the gate)', async () => {
    const { fetch, state } = heldFetch();
    const t = transport(fetch, { maxConcurrent: 1, maxQueued: 0 });
    const same = [0, 1, 2].map(() => t.request('GET', videoUrl(1), {}, undefined));
    await tick();
    expect(t.gate.inUse).toBe(1);
    for (const release of state.held.splice(0)) release();
    for (const r of await Promise.all(same)) expect(r.status).toBe(200);
    expect(state.calls).toBe(1);
  });

  it("a queued request leaves the queue when its caller's signal aborts", async () => {
    const { fetch, state } = heldFetch();
    const t = transport(fetch, { maxConcurrent: 1, maxQueued: 4, maxQueueWaitMs: 600_000 });
    const first = t.request('GET', videoUrl(1), {}, undefined);
    const controller = new AbortController();
    const second = t.request('GET', videoUrl(2), {}, undefined, controller.signal);
    await tick();
    expect(t.gate.queued).toBe(1);
    controller.abort(new Error('caller left'));
    await expect(second).rejects.toThrow('caller left');
    expect(t.gate.queued).toBe(0);
    for (const release of state.held.splice(0)) release();
    expect((await first).status).toBe(200);
    expect(state.calls).toBe(1);
    expect(t.gate.inUse).toBe(0);
  });
});

describe('Transport: bodies', () => {
  const big = 'x'.repeat(2048);
  const streamed = () =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++) controller.enqueue(new TextEncoder().encode(big.slice(0, 512)));
        controller.close();
      },
    });
  it.each([
    ['streamed without a length', () => new Response(streamed(), { status: 200 })],
    [
      'declared by content-length',
      () => new Response(big, { status: 200, headers: { 'content-length': '2048' } }),
    ],
    ['a single chunk', () => new Response(big, { status: 200 })],
  ])('an oversized body (%s) is upstream_error', async (_name, make) => {
    const t = transport(async () => make(), { maxBodyBytes: 1024 });
    const error = await t.request('GET', videoUrl(1), {}, undefined).catch((e: unknown) => e);
    expect(isApiError(error, 'upstream_error')).toBe(true);
  });

  it('a body at the cap is read whole (multi-byte characters across chunks)', async () => {
    const bytes = new TextEncoder().encode('é'.repeat(512));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 3));
        controller.enqueue(bytes.slice(3));
        controller.close();
      },
    });
    const t = transport(async () => new Response(body, { status: 200 }), { maxBodyBytes: 1024 });
    expect((await t.request('GET', videoUrl(1), {}, undefined)).text).toBe('é'.repeat(512));
  });
});

describe('Transport: hosts and redirects', () => {
  it.each([
    'https://evil.example/api/timedtext?v=x',
    'http://www.youtube.com/api/timedtext?v=x',
    'https://www.youtube.com.evil.example/api/timedtext?v=x',
    'https://notyoutube.com/api/timedtext?v=x',
    'https://user:pw@www.youtube.com/api/timedtext?v=x',
    'https://127.0.0.1/api/timedtext?v=x',
    'not a url',
  ])('a caption URL off the allowed hosts is refused without a request: %s', async (url) => {
    let calls = 0;
    const t = transport(async () => {
      calls++;
      return new Response('{}');
    });
    const error = await t.request('GET', url, {}, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(isApiError(error, 'upstream_error')).toBe(true);
    expect(calls).toBe(0);
  });

  it.each([
    ['https://www.youtube.com/api/timedtext?v=x', undefined],
    ['https://youtube.com/api/timedtext?v=x', undefined],
    ['https://m.youtube.com/api/timedtext?v=x', undefined],
    ['https://rr1---sn-abc.googlevideo.com/x', undefined],
    ['https://video.google.com/timedtext?v=x', undefined],
    ['https://youtubei.googleapis.com/youtubei/v1/player', undefined],
    ['http://127.0.0.1:8080/api/timedtext?v=x', 'http://127.0.0.1:8080'],
  ])('allowed: %s (origin %s)', async (url, origin) => {
    const t = transport(async () => new Response('{}'), origin ? { origin } : {});
    expect((await t.request('GET', url, {}, undefined)).status).toBe(200);
  });

  it('a redirect is not followed: upstream_error, one request, sent with redirect: manual', async () => {
    const inits: RequestInit[] = [];
    const t = transport(async (_url, init) => {
      inits.push(init);
      return new Response(null, { status: 302, headers: { location: 'https://evil.example/' } });
    });
    const error = await t.request('GET', videoUrl(1), {}, undefined).catch((e: unknown) => e);
    expect(isApiError(error, 'upstream_error')).toBe(true);
    expect(inits).toHaveLength(1);
    expect(inits[0]?.redirect).toBe('manual');
  });
});
