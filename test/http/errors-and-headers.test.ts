/**
 * What every route shares: /healthz, the error envelope with decisions.md's retryable flags,
 * 404 not_found, 405 with Allow, 413, invalid_json, the key headers (401 and the both-headers
 * 400), the upstream-mapped 403/5xx, and the X-Request-Id header.
 */
import { describe, expect, test } from 'vitest';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../src/errors.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { ADMIN } from '../helpers/app.ts';
import {
  expectError,
  expectJson,
  fixture,
  isEnvelope,
  KEYED_ROUTES,
  routeInit,
  WELL_FORMED_UNKNOWN_KEY,
} from '../helpers/http.ts';

const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}`;

describe('GET /healthz', () => {
  test('200 {status:"ok"} without a key; HEAD too', async () => {
    const f = await fixture();
    const res = await f.call('/healthz');
    expect(await expectJson(res)).toEqual({ status: 'ok' });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('x-credits-to-deduct')).toBeNull();
    const head = await f.call('/healthz', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
  });
});

describe('the retryable flag of every code a client can see (decisions.md, Errors)', () => {
  const retryable: ErrorCode[] = [
    'live_stream_not_ready',
    'rate_limited',
    'daily_limit_exceeded',
    'internal_error',
    'upstream_error',
    'upstream_blocked',
    'upstream_busy',
    'upstream_timeout',
  ];
  test.each(Object.entries(ERROR_CODES))('%s', (code, entry) => {
    if (['email_failed', 'storage_unavailable', 'agent_signup_busy', 'agent_signup_disabled'].includes(code))
      return;
    expect(entry.retryable).toBe(retryable.includes(code as ErrorCode));
  });
});

describe('404 not_found and 405 method_not_allowed', () => {
  test.each([
    ['GET', '/'],
    ['GET', '/v2/transcripts'],
    ['GET', '/v1/'],
    ['GET', '/v1/videos'],
    ['GET', '/healthz/'],
    ['POST', '/v1/nothing'],
    ['GET', `/v1/videos/${VIDEO}/related`],
    ['GET', '/admin'],
  ])('%s %s → 404 not_found, with or without a key', async (method, path) => {
    const f = await fixture();
    await expectError(await f.call(path, { method }), 404, 'not_found');
    const e = await expectError(await f.call(path, { method, key: f.apiKey }), 404, 'not_found');
    expect(e.message).toContain(path);
  });

  test.each([
    ['POST', '/healthz', ['GET']],
    ['DELETE', '/openapi.json', ['GET']],
    ['PUT', '/v1/transcripts', ['GET', 'POST']],
    ['DELETE', `/v1/transcripts/${VIDEO}`, ['GET']],
    ['POST', `/v1/videos/${VIDEO}/basic-info`, ['GET']],
    ['PATCH', '/v1/search', ['GET']],
    ['POST', '/v1/account', ['GET']],
    ['GET', '/admin/keys', ['POST']],
    ['GET', '/admin/keys/key_x', ['DELETE']],
    ['PUT', '/admin/accounts/acc_x/credits', ['POST']],
    ['OPTIONS', '/v1/channels/@RickAstleyYT', ['GET']],
  ])('%s %s → 405 with Allow %j, before authentication', async (method, path, allowed) => {
    const f = await fixture();
    const res = await f.call(path, { method });
    const allow = (res.headers.get('allow') ?? '').split(/,\s*/).filter((m) => m !== 'HEAD');
    expect(allow.sort()).toEqual([...allowed].sort());
    const e = await expectError(res, 405, 'method_not_allowed');
    expect(e.message).toContain(method);
  });
});

describe('request bodies', () => {
  test('413 payload_too_large above 1 MiB; exactly 1 MiB is read', async () => {
    const f = await fixture();
    const wrap = (size: number) => {
      const head = `{"video_id":"${VIDEO}","pad":"`;
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    expect(wrap(1024 * 1024)).toHaveLength(1024 * 1024);
    expect((await f.post('/v1/transcripts', wrap(1024 * 1024))).status).toBe(200);
    await expectError(await f.post('/v1/transcripts', wrap(1024 * 1024 + 1)), 413, 'payload_too_large');
    await expectError(await f.post('/v1/transcripts', 'x'.repeat(3 * 1024 * 1024)), 413, 'payload_too_large');
    await expectError(
      await f.call('/admin/keys', { method: 'POST', key: ADMIN, body: `[${'1,'.repeat(600_000)}1]` }),
      413,
      'payload_too_large',
    );
    expect(await f.balance(f.accountId)).toBe(999);
  });

  test('413 without a Content-Length (streamed body) and with a configured limit', async () => {
    const f = await fixture({ limits: { maxBodyBytes: 100 } });
    const stream = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(50)));
        controller.close();
      },
    });
    const init = { method: 'POST', key: f.apiKey, body: stream, duplex: 'half' } as RequestInit & {
      key: string;
    };
    await expectError(await f.call('/v1/transcripts', init), 413, 'payload_too_large');
    await expectError(
      await f.post('/v1/transcripts', { video_id: VIDEO, pad: 'y'.repeat(100) }),
      413,
      'payload_too_large',
    );
    expect((await f.post('/v1/transcripts', { video_id: VIDEO })).status).toBe(200);
  });

  test.each([['{'], ['{"video_id":'], ['nul'], ['{"video_id":"x",}'], ["{'video_id':'x'}"], ['\u0000']])(
    '400 invalid_json for %j',
    async (body) => {
      const f = await fixture();
      await expectError(await f.post('/v1/transcripts', body), 400, 'invalid_json');
      expect(await f.balance(f.accountId)).toBe(1000);
    },
  );

  test.each([['null'], ['[]'], ['"text"'], ['42'], ['true']])(
    '400 invalid_request for the JSON %s',
    async (body) => {
      const f = await fixture();
      const e = await expectError(await f.post('/v1/transcripts', body), 400, 'invalid_request');
      expect(e.message).toMatch(/JSON object/);
    },
  );

  test('an empty body reads as {} (so the missing field is named)', async () => {
    const f = await fixture();
    const e = await expectError(await f.post('/v1/transcripts', ''), 400, 'invalid_parameter');
    expect(e.details).toEqual({ parameter: 'video_id', location: 'body' });
  });
});

describe('API keys', () => {
  test('401 missing_api_key: no header, an empty X-API-Key; authentication comes before validation', async () => {
    const f = await fixture();
    await expectError(await f.call(TRANSCRIPT), 401, 'missing_api_key');
    await expectError(await f.call(TRANSCRIPT, { headers: { 'X-API-Key': '' } }), 401, 'missing_api_key');
    await expectError(await f.call('/v1/videos/not-valid/basic-info'), 401, 'missing_api_key');
  });

  test('401 invalid_api_key: malformed, well-formed but unknown, revoked, wrong scheme', async () => {
    const f = await fixture();
    const broken = f.apiKey.slice(0, -1) + (f.apiKey.endsWith('A') ? 'B' : 'A');
    for (const key of ['tsk_short', 'sk-live-1234', broken, WELL_FORMED_UNKNOWN_KEY, `${f.apiKey}x`])
      await expectError(await f.call(TRANSCRIPT, { key }), 401, 'invalid_api_key');
    await expectError(
      await f.call(TRANSCRIPT, { headers: { authorization: `Basic ${f.apiKey}` } }),
      401,
      'invalid_api_key',
    );
    await expectError(
      await f.call(TRANSCRIPT, { headers: { authorization: 'Bearer' } }),
      401,
      'invalid_api_key',
    );
    await expectError(
      await f.call(TRANSCRIPT, { headers: { 'X-API-Key': WELL_FORMED_UNKNOWN_KEY } }),
      401,
      'invalid_api_key',
    );
    const other = await f.key(10);
    expect((await f.call(TRANSCRIPT, { key: other.api_key })).status).toBe(200);
    await f.call(`/admin/keys/${other.key_id}`, { method: 'DELETE', key: ADMIN });
    await expectError(await f.call(TRANSCRIPT, { key: other.api_key }), 401, 'invalid_api_key');
    expect(await f.balance(other.account_id)).toBe(9);
  });

  test('X-API-Key, lower-case bearer, or both headers with the same key are accepted', async () => {
    const f = await fixture();
    expect((await f.call(TRANSCRIPT, { headers: { 'X-API-Key': f.apiKey } })).status).toBe(200);
    expect((await f.call(TRANSCRIPT, { headers: { authorization: `bearer  ${f.apiKey} ` } })).status).toBe(
      200,
    );
    expect((await f.call(TRANSCRIPT, { key: f.apiKey, headers: { 'X-API-Key': f.apiKey } })).status).toBe(
      200,
    );
  });

  test('both headers with different keys → 400 invalid_request, free', async () => {
    const f = await fixture();
    const other = await f.key(10);
    const e = await expectError(
      await f.call(TRANSCRIPT, { key: f.apiKey, headers: { 'X-API-Key': other.api_key } }),
      400,
      'invalid_request',
    );
    expect(e.message).toMatch(/X-API-Key/);
    await expectError(
      await f.call(TRANSCRIPT, { key: f.apiKey, headers: { 'X-API-Key': 'junk' } }),
      400,
      'invalid_request',
    );
    expect([await f.balance(f.accountId), await f.balance(other.account_id)]).toEqual([1000, 10]);
  });
});

describe('upstream errors map to the contract', () => {
  test.each([
    [new ApiError('region_blocked', 'Not in your country.'), 403, 'region_blocked'],
    [new ApiError('age_restricted', 'Age-restricted.'), 403, 'age_restricted'],
    [new ApiError('private_video', 'Private.'), 403, 'private_video'],
    [new ApiError('members_only', 'Members only.'), 403, 'members_only'],
    [new ApiError('upstream_error', 'Unparseable.'), 502, 'upstream_error'],
    [new ApiError('upstream_blocked', 'Bot check.', { retryAfter: 120 }), 503, 'upstream_blocked'],
    [new ApiError('upstream_timeout', 'Slow.'), 504, 'upstream_timeout'],
    [new Error('boom'), 500, 'internal_error'],
    [new RangeError('bad index'), 500, 'internal_error'],
  ] as const)('%s → %i %s on POST /v1/transcripts, free', async (failure, status, code) => {
    const f = await fixture();
    f.upstream.failures.player = failure;
    const res = await f.post('/v1/transcripts', { video_id: VIDEO });
    if (code === 'upstream_blocked') expect(res.headers.get('retry-after')).toBe('120');
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
    await expectError(res, status, code);
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('a blocked caption download is a 503, never "no captions"', async () => {
    const f = await fixture();
    f.upstream.failures.captions = new ApiError('upstream_blocked', 'HTTP 429', { retryAfter: 30 });
    await expectError(await f.post('/v1/transcripts', { video_id: VIDEO }), 503, 'upstream_blocked');
  });

  test('an empty caption document is a 502, never "no captions"', async () => {
    const f = await fixture();
    f.upstream.texts.set('en-manual', { format: 'json3', document: { events: [] } });
    await expectError(await f.post('/v1/transcripts', { video_id: VIDEO }), 502, 'upstream_error');
  });
});

describe('X-Request-Id', () => {
  test('on every response, success or error, unique per request', async () => {
    const f = await fixture();
    const responses = [
      await f.call('/healthz'),
      await f.call('/nope'),
      await f.call('/healthz', { method: 'POST' }),
      await f.get(TRANSCRIPT),
      await f.call(TRANSCRIPT),
      await f.call('/openapi.json'),
    ];
    const ids = responses.map((r) => r.headers.get('x-request-id'));
    for (const id of ids) expect(id).toMatch(/^req_[A-Za-z0-9]{16}$/);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of responses.filter((x) => x.status >= 400)) expect(isEnvelope(await r.json())).toBe(true);
  });
});

describe.each(KEYED_ROUTES)('every keyed route: $method $path', (route) => {
  const init = routeInit(route);

  test('401 missing, malformed, unknown and revoked keys; 403 without its scope', async () => {
    const f = await fixture();
    await expectError(await f.call(route.path, init), 401, 'missing_api_key');
    for (const key of ['tsk_short', WELL_FORMED_UNKNOWN_KEY])
      await expectError(await f.call(route.path, { ...init, key }), 401, 'invalid_api_key');
    const revoked = await f.key(10);
    await f.call(`/admin/keys/${revoked.key_id}`, { method: 'DELETE', key: ADMIN });
    await expectError(await f.call(route.path, { ...init, key: revoked.api_key }), 401, 'invalid_api_key');
    const scoped = await f.key(10, { scopes: ['transcripts:stream'] });
    const res = await f.call(route.path, { ...init, key: scoped.api_key });
    if (route.path === '/v1/account') expect(res.status).toBe(200);
    else await expectError(res, 403, 'insufficient_scope');
    expect(await f.balance(scoped.account_id)).toBe(10);
  });

  test.skipIf(route.path === '/v1/account')(
    'upstream failures: 502, 503 (Retry-After), 500, 504, all free',
    async () => {
      const f = await fixture({ limits: { deadlineMs: 25 } });
      const failAll = (error: Error) => {
        for (const m of [
          'player',
          'captions',
          'videoExtras',
          'resolveChannel',
          'channel',
          'channelVideos',
          'channelPlaylists',
          'latest',
          'playlist',
          'search',
          'suggestions',
          'comments',
        ])
          f.upstream.failures[m] = error;
      };
      failAll(new ApiError('upstream_error', 'unparseable'));
      await expectError(await f.get(route.path, init), 502, 'upstream_error');
      failAll(new ApiError('upstream_blocked', 'bot check', { retryAfter: 42 }));
      const blocked = await f.get(route.path, init);
      expect(blocked.headers.get('retry-after')).toBe('42');
      await expectError(blocked, 503, 'upstream_blocked');
      failAll(new Error('driver bug'));
      await expectError(await f.get(route.path, init), 500, 'internal_error');
      f.upstream.failures = {};
      f.upstream.delayMs = 300;
      await expectError(await f.get(route.path, init), 504, 'upstream_timeout');
      expect(await f.balance(f.accountId)).toBe(1000);
    },
  );
});
