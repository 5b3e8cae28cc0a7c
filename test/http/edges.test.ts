/**
 * HTTP edges (decisions.md "HTTP edges"): X-Request-Id echoed only when sane and never used as a
 * reservation id; HEAD only on the document routes (405 elsewhere, never charged, never reaching
 * YouTube); 415 for a POST body that is not JSON (sign-up included: nothing mailed, nothing
 * counted); WWW-Authenticate: Bearer on 401.
 */
import { describe, expect, it } from 'vitest';
import { PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import { ADMIN, testApp } from '../helpers/app.ts';
import { expectError } from '../helpers/http.ts';
import { signupHarness } from '../signup/support.ts';

const GENERATED = /^req_[0-9A-Za-z]{16}$/;

describe('X-Request-Id', () => {
  it.each([
    ['abc-123', 'abc-123'],
    ['a.b_c:d-E', 'a.b_c:d-E'],
    ['x'.repeat(128), 'x'.repeat(128)],
  ])('echoes the sane id %s', async (sent, echoed) => {
    const t = await testApp();
    const res = await t.call('/healthz', { headers: { 'x-request-id': sent } });
    expect(res.headers.get('x-request-id')).toBe(echoed);
  });

  it.each([
    ['too long', 'x'.repeat(129)],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a quote', 'a"b'],
    ['non-ASCII', 'café'],
    ['empty', ''],
  ])('replaces an id with %s by a generated one', async (_what, sent) => {
    const t = await testApp();
    const res = await t.call('/healthz', { headers: { 'x-request-id': sent } });
    expect(res.headers.get('x-request-id')).toMatch(GENERATED);
  });

  it('a generated id without one, different per request', async () => {
    const t = await testApp();
    const a = (await t.call('/healthz')).headers.get('x-request-id');
    const b = (await t.call('/healthz')).headers.get('x-request-id');
    expect(a).toMatch(GENERATED);
    expect(b).toMatch(GENERATED);
    expect(a).not.toBe(b);
  });

  it('two charged calls with the same client id are both charged (the id is no reservation id)', async () => {
    const t = await testApp();
    const { api_key, account_id } = await t.key(10);
    const headers = { 'x-request-id': 'replayed-id' };
    const first = await t.call(`/v1/videos/${VIDEO}`, { key: api_key, headers });
    const second = await t.call(`/v1/playlists/${PLAYLIST}`, { key: api_key, headers });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('x-request-id')).toBe('replayed-id');
    const charged =
      Number(first.headers.get('x-credits-to-deduct')) + Number(second.headers.get('x-credits-to-deduct'));
    expect(charged).toBeGreaterThanOrEqual(2);
    expect(await t.balance(account_id)).toBe(10 - charged);
    // The same call again with the same id: charged again.
    const third = await t.call(`/v1/videos/${VIDEO}`, { key: api_key, headers });
    expect(third.status).toBe(200);
    expect(await t.balance(account_id)).toBe(10 - charged - Number(third.headers.get('x-credits-to-deduct')));
    expect(Number(third.headers.get('x-credits-to-deduct'))).toBeGreaterThan(0);
  });

  it('two MCP tool calls with the same client id are both charged', async () => {
    const t = await testApp();
    const { api_key, account_id } = await t.key(10);
    const call = (id: number) =>
      t.call('http://localhost/mcp', {
        method: 'POST',
        key: api_key,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-06-18',
          'x-request-id': 'replayed-mcp-id',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id,
          method: 'tools/call',
          params: { name: 'get_video_metadata', arguments: { video: VIDEO } },
        }),
      });
    for (const id of [1, 2]) {
      const res = await call(id);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-request-id')).toBe('replayed-mcp-id');
      // JSON, or one SSE message carrying it.
      const text = await res.text();
      const rpc = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { result?: { isError?: boolean } };
      expect(rpc.result).toBeDefined();
      expect(rpc.result?.isError).not.toBe(true);
    }
    expect(await t.balance(account_id)).toBeLessThanOrEqual(8);
  });
});

describe('HEAD', () => {
  it.each(['/healthz', '/readyz', '/openapi.json', '/docs', '/docs/init.js'])(
    'answers HEAD on the document route %s, without a body',
    async (path) => {
      const t = await testApp();
      const res = await t.call(path, { method: 'HEAD' });
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('');
    },
  );

  it('405 on a transcript route: Allow GET, no credit, no YouTube call', async () => {
    const t = await testApp();
    const { api_key, account_id } = await t.key(10);
    const res = await t.call(`/v1/transcripts?video_id=${VIDEO}&format=text`, {
      method: 'HEAD',
      key: api_key,
    });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')?.split(', ').sort()).toEqual(['GET', 'POST']);
    expect(res.headers.get('x-credits-to-deduct')).toBeNull();
    expect(await t.balance(account_id)).toBe(10);
    expect(t.upstream.calls).toEqual({});
  });

  it.each([
    [`/v1/videos/${VIDEO}`, 'GET'],
    ['/v1/account', 'GET'],
    ['/admin/keys', 'POST'],
    ['/api/agent/signup', 'POST'],
  ])('405 method_not_allowed on the keyed route %s', async (path, allow) => {
    const t = await testApp();
    const { api_key } = await t.key(10);
    const res = await t.call(path, { method: 'HEAD', key: api_key });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe(allow);
    expect(t.upstream.calls).toEqual({});
  });

  it('405 on /mcp (POST only) and 404 where there is no route', async () => {
    const t = await testApp();
    const mcp = await t.call('/mcp', { method: 'HEAD' });
    expect(mcp.status).toBe(405);
    expect(mcp.headers.get('allow')).toBe('POST');
    expect((await t.call('/nowhere', { method: 'HEAD' })).status).toBe(404);
  });
});

describe('415 for a POST body that is not JSON', () => {
  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined])(
    'POST /admin/keys with %s → 415 unsupported_media_type, no key made',
    async (type) => {
      const t = await testApp();
      const headers: Record<string, string> = type === undefined ? {} : { 'content-type': type };
      const body = new TextEncoder().encode('{"credits":100}');
      const res = await t.call('/admin/keys', { method: 'POST', headers, body, key: ADMIN });
      await expectError(res, 415, 'unsupported_media_type');
    },
  );

  it.each([
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/merge-patch+json',
  ])('accepts %s', async (type) => {
    const t = await testApp();
    const res = await t.call('/admin/keys', {
      method: 'POST',
      headers: { 'content-type': type },
      body: '{"credits":7}',
      key: ADMIN,
    });
    expect(res.status).toBe(201);
    expect(((await res.json()) as { credits: number }).credits).toBe(7);
  });

  it('a POST without a body needs no Content-Type', async () => {
    const t = await testApp();
    const res = await t.call('/admin/keys', { method: 'POST', key: ADMIN });
    expect(res.status).toBe(201);
  });

  it('a cross-site text/plain sign-up is refused: nothing mailed, no throttle counted', async () => {
    const h = await signupHarness({
      signup: { throttles: { network: [{ limit: 1, window: 3600 }], address: [{ limit: 1, window: 3600 }] } },
    });
    for (let i = 0; i < 3; i++) {
      const res = await h.ts.app.request('/api/agent/signup', {
        method: 'POST',
        headers: { 'content-type': 'text/plain;charset=UTF-8', origin: 'https://evil.example' },
        body: JSON.stringify({ email: 'ada@agents.example' }),
      });
      await expectError(res, 415, 'unsupported_media_type');
    }
    expect(h.mailer.attempts).toBe(0);
    // The one sign-up the throttles allow is still there.
    const ok = await h.signup('ada@agents.example');
    expect(ok.status).toBe(200);
    expect(h.mailer.messages).toHaveLength(1);
  });

  it('/mcp: a text/plain POST with a key is 415 in the envelope', async () => {
    const t = await testApp();
    const { api_key } = await t.key(10);
    const res = await t.call('/mcp', {
      method: 'POST',
      key: api_key,
      headers: { 'content-type': 'text/plain', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    await expectError(res, 415, 'unsupported_media_type');
  });
});

describe('401 carries WWW-Authenticate: Bearer', () => {
  it.each([
    ['/v1/account', undefined],
    ['/v1/account', 'tsk_not-a-real-key'],
    ['/admin/accounts/acc_x', undefined],
    ['/admin/accounts/acc_x', 'wrong-admin-token'],
  ])('%s with key %s', async (path, key) => {
    const t = await testApp();
    const res = await t.call(path, key === undefined ? {} : { key });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('/metrics (its own realm kept) and HEAD /metrics is 405', async () => {
    const t = await testApp({ metricsToken: 'metrics-token-0123456789abcdefghij' });
    const res = await t.call('/metrics');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    const head = await t.call('/metrics', { method: 'HEAD', key: 'metrics-token-0123456789abcdefghij' });
    expect([head.status, head.headers.get('allow')]).toEqual([405, 'GET']);
  });

  it('/mcp keeps its resource-metadata challenge', async () => {
    const t = await testApp();
    const res = await t.call('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Bearer resource_metadata="http://localhost/.well-known/oauth-protected-resource"',
    );
  });
});
