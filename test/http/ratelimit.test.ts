/**
 * Rate limits: the paid plan's burst (10/s) and minute (300/min), the free plan's 1/s and 100 per
 * UTC day with the injected clock, the X-RateLimit-* headers, and failed authentication limited
 * per client address.
 */
import { describe, expect, test } from 'vitest';
import { nodeClientAddress } from '../../adapters/node/client-address.ts';
import { VIDEO } from '../fakes/upstream.ts';
import {
  expectError,
  type Fixture,
  fixture,
  KEYED_ROUTES,
  routeInit,
  WELL_FORMED_UNKNOWN_KEY,
} from '../helpers/http.ts';

const BASIC = `/v1/videos/${VIDEO}/basic-info`;
const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}`;

/** `app.request` from a client address (the Node adapter's env shape). */
function from(f: Fixture, address: string, path: string, key?: string, headers: Record<string, string> = {}) {
  const h = new Headers(headers);
  if (key !== undefined) h.set('authorization', `Bearer ${key}`);
  return Promise.resolve(
    f.ts.app.request(path, { headers: h }, { incoming: { socket: { remoteAddress: address } } }),
  );
}

describe('paid plan: 300 per minute, bursts of 10 per second', () => {
  test('the 11th concurrent request is 429 rate_limited with Retry-After; the next second passes', async () => {
    const f = await fixture({}, 100, { plan: 'paid' });
    const responses = await Promise.all(Array.from({ length: 11 }, () => f.get(BASIC)));
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(10).fill(200), 429]);
    const limited = responses.find((r) => r.status === 429)!;
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.headers.get('x-ratelimit-limit')).toBe('5');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    const e = await expectError(limited, 429, 'rate_limited');
    expect(e.retryable).toBe(true);
    f.clock.advance(1000);
    expect((await f.get(BASIC)).status).toBe(200);
  });

  test('X-RateLimit-Limit is the per-second equivalent (5); Remaining the rule closest to its limit', async () => {
    const f = await fixture({}, 100, { plan: 'paid' });
    const first = await f.get(BASIC);
    expect([first.headers.get('x-ratelimit-limit'), first.headers.get('x-ratelimit-remaining')]).toEqual([
      '5',
      '9',
    ]);
    for (let i = 0; i < 8; i++) await f.get(BASIC);
    expect((await f.get(BASIC)).headers.get('x-ratelimit-remaining')).toBe('0');
  });

  test('300 in a minute pass (10 per second); the 301st waits for the minute to end', async () => {
    const f = await fixture({}, 1000, { plan: 'paid' });
    for (let second = 0; second < 30; second++) {
      const statuses = await Promise.all(
        Array.from({ length: 10 }, () => f.get(BASIC).then((r) => r.status)),
      );
      expect(statuses).toEqual(Array(10).fill(200));
      f.clock.advance(1000);
    }
    const res = await f.get(BASIC);
    expect(res.headers.get('retry-after')).toBe('30');
    await expectError(res, 429, 'rate_limited');
    f.clock.advance(30_000);
    expect((await f.get(BASIC)).status).toBe(200);
  });
});

describe('free plan: 1 per second, 100 per UTC day', () => {
  test('a second request within the same second is rate_limited', async () => {
    const f = await fixture({}, 100, { plan: 'free' });
    const ok = await f.get(BASIC);
    expect([ok.status, ok.headers.get('x-ratelimit-limit'), ok.headers.get('x-ratelimit-remaining')]).toEqual(
      [200, '1', '0'],
    );
    const res = await f.get(BASIC);
    expect(res.headers.get('retry-after')).toBe('1');
    await expectError(res, 429, 'rate_limited');
  });

  test('100 requests spread over seconds pass; the 101st is daily_limit_exceeded until 00:00 UTC', async () => {
    const f = await fixture({}, 1000, { plan: 'free' });
    for (let i = 0; i < 100; i++) {
      const res = await f.get(i % 2 === 0 ? BASIC : TRANSCRIPT);
      expect(res.status, `request ${i + 1}`).toBe(200);
      f.clock.advance(1000);
    }
    // 10:01:40 UTC now; midnight is 13 h 58 min 20 s away.
    const res = await f.get(BASIC);
    const untilMidnight = (Date.parse('2026-03-02T00:00:00.000Z') - f.clock.now()) / 1000;
    expect(untilMidnight).toBe(50_300);
    expect(res.headers.get('retry-after')).toBe(String(untilMidnight));
    expect(res.headers.get('x-ratelimit-remaining')).toBe('0');
    const e = await expectError(res, 429, 'daily_limit_exceeded');
    expect(e.retryable).toBe(true);
    f.clock.set('2026-03-01T23:59:59.000Z');
    await expectError(await f.get(BASIC), 429, 'daily_limit_exceeded');
    f.clock.set('2026-03-02T00:00:00.000Z');
    expect((await f.get(BASIC)).status).toBe(200);
    expect(await f.balance(f.accountId)).toBe(1000 - 50);
  });

  test('400s and 401s do not count against the limit', async () => {
    const f = await fixture({}, 10, { plan: 'free' });
    await expectError(await f.get('/v1/videos/x/basic-info'), 400, 'invalid_video_id');
    await expectError(await f.get('/v1/search'), 400, 'invalid_parameter');
    expect((await f.get(BASIC)).status).toBe(200);
  });

  test('a pack moves the account to paid at once: no daily cap any more', async () => {
    const f = await fixture({}, 0, { plan: 'free' });
    const rt = f.ts;
    await rt.services.accounts.grant(f.accountId, { pack: 'small' }, 'order-1');
    const res = await f.get(BASIC);
    expect(res.headers.get('x-ratelimit-limit')).toBe('5');
  });
});

describe('failed authentication is limited per client address', () => {
  test("the client's address is read only for a failure, once per request", async () => {
    // On Bun reading it is a call into the server: a valid key's request never pays for it.
    let reads = 0;
    const f = await fixture({
      clientAddress: (request, env) => {
        reads++;
        return nodeClientAddress(request, env);
      },
    });
    expect((await from(f, '203.0.113.9', BASIC, f.apiKey)).status).toBe(200);
    expect((await from(f, '203.0.113.9', TRANSCRIPT, f.apiKey)).status).toBe(200);
    expect(reads).toBe(0);
    await expectError(await from(f, '203.0.113.9', BASIC, WELL_FORMED_UNKNOWN_KEY), 401, 'invalid_api_key');
    expect(reads).toBe(1);
  });

  test('20 bad keys → 401; the 21st bad key from that address → 429, while a valid key is still served', async () => {
    const f = await fixture();
    const bad = [WELL_FORMED_UNKNOWN_KEY, 'tsk_short', `tsk_${'A'.repeat(38)}`];
    for (let i = 0; i < 20; i++)
      await expectError(await from(f, '203.0.113.9', BASIC, bad[i % 3]), 401, 'invalid_api_key');
    const blocked = await from(f, '203.0.113.9', BASIC, bad[1]);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(blocked, 429, 'rate_limited');
    // Only failures are refused: a shared address (NAT, office) keeps serving its valid keys.
    expect((await from(f, '203.0.113.9', BASIC, f.apiKey)).status).toBe(200);
    await expectError(await from(f, '203.0.113.9', BASIC, bad[0]), 429, 'rate_limited');
    // Another address is unaffected.
    expect((await from(f, '198.51.100.7', BASIC, f.apiKey)).status).toBe(200);
    await expectError(await from(f, '198.51.100.7', BASIC, bad[0]), 401, 'invalid_api_key');
    // The window ends.
    f.clock.advance(60_000);
    expect((await from(f, '203.0.113.9', BASIC, f.apiKey)).status).toBe(200);
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('missing keys are not failures; IPv6 addresses count per /64', async () => {
    const f = await fixture();
    for (let i = 0; i < 25; i++)
      await expectError(await from(f, '2001:db8::1', BASIC), 401, 'missing_api_key');
    for (let i = 0; i < 20; i++)
      await expectError(await from(f, `2001:db8::${i + 2}`, BASIC, 'tsk_bad'), 401, 'invalid_api_key');
    await expectError(await from(f, '2001:db8::ffff', BASIC, 'tsk_bad'), 429, 'rate_limited');
    expect((await from(f, '2001:db8::ffff', BASIC, f.apiKey)).status).toBe(200);
    await expectError(await from(f, '2001:db8:0:1::1', BASIC, 'tsk_bad'), 401, 'invalid_api_key');
  });

  test('X-Forwarded-For is used only with trustProxy, and only the entry the proxy appended', async () => {
    const trusting = await fixture({ trustProxy: true });
    // The client claims other addresses at the left; the trusted proxy appended 203.0.113.9.
    for (let i = 0; i < 20; i++)
      await from(trusting, '10.0.0.1', BASIC, 'tsk_bad', { 'x-forwarded-for': `6.6.6.${i}, 203.0.113.9` });
    await expectError(
      await from(trusting, '10.0.0.1', BASIC, 'tsk_bad', { 'x-forwarded-for': '1.2.3.4, 203.0.113.9' }),
      429,
      'rate_limited',
    );
    await expectError(
      await from(trusting, '10.0.0.1', BASIC, 'tsk_bad', { 'x-forwarded-for': '203.0.113.10' }),
      401,
      'invalid_api_key',
    );

    const plain = await fixture();
    for (let i = 0; i < 20; i++)
      await from(plain, '10.0.0.1', BASIC, 'tsk_bad', { 'x-forwarded-for': `203.0.113.${i}` });
    await expectError(
      await from(plain, '10.0.0.1', BASIC, 'tsk_bad', { 'x-forwarded-for': '198.51.100.1' }),
      429,
      'rate_limited',
    );
  });

  test('the limit is configuration (limits.authFailures)', async () => {
    const f = await fixture({ limits: { authFailures: { limit: 2, windowSeconds: 10 } } });
    await expectError(await from(f, '192.0.2.1', BASIC, 'tsk_bad'), 401, 'invalid_api_key');
    await expectError(await from(f, '192.0.2.1', BASIC, 'tsk_bad'), 401, 'invalid_api_key');
    const res = await from(f, '192.0.2.1', BASIC, 'tsk_bad');
    expect(res.headers.get('retry-after')).toBe('10');
    await expectError(res, 429, 'rate_limited');
  });
});

describe.each(KEYED_ROUTES)('429 on every keyed route: $method $path', (route) => {
  test('free plan: the second call within a second is rate_limited, with the rate-limit headers, free', async () => {
    const f = await fixture({}, 10, { plan: 'free' });
    const ok = await f.get(route.path, routeInit(route));
    expect(ok.status).toBe(200);
    const res = await f.get(route.path, routeInit(route));
    expect([
      res.headers.get('retry-after'),
      res.headers.get('x-ratelimit-limit'),
      res.headers.get('x-ratelimit-remaining'),
    ]).toEqual(['1', '1', '0']);
    await expectError(res, 429, 'rate_limited');
    expect(await f.balance(f.accountId)).toBe(10 - route.price);
  });
});
