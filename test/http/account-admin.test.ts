/**
 * The operator interface of decisions.md: POST /admin/keys, GET /admin/accounts/{id},
 * POST /admin/accounts/{id}/credits, DELETE /admin/keys/{key_id}, admin authentication, scopes,
 * and GET /v1/account.
 */
import { describe, expect, test } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { ADMIN, testApp } from '../helpers/app.ts';
import { expectError, expectJson, fixture } from '../helpers/http.ts';

const json = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

describe('POST /admin/keys', () => {
  test('201 {api_key, key_id, account_id, credits, plan}; defaults: 0 credits, free plan, no admin scope', async () => {
    const t = await testApp();
    const res = await t.call('/admin/keys', { ...json({}), key: ADMIN });
    const body = await expectJson<Record<string, unknown>>(res, 201);
    expect(Object.keys(body).sort()).toEqual(['account_id', 'api_key', 'credits', 'key_id', 'plan']);
    expect(body).toEqual({
      api_key: expect.stringMatching(/^tsk_[0-9A-Za-z]{38}$/),
      key_id: expect.stringMatching(/^key_/),
      account_id: expect.stringMatching(/^acc_/),
      credits: 0,
      plan: 'free',
    });
    expect(res.headers.get('x-credits-to-deduct')).toBeNull();
    const view = await expectJson<{ keys: { scopes: string[] }[] }>(
      await t.call(`/admin/accounts/${body.account_id}`, { key: ADMIN }),
    );
    expect(view.keys[0]?.scopes).toEqual(['transcripts:read', 'transcripts:stream', 'data:read']);
  });

  test('credits, plan, scopes and email; a second key for the same email joins its account', async () => {
    const t = await testApp();
    const a = await expectJson(
      await t.call('/admin/keys', {
        ...json({ credits: 50, plan: 'paid', scopes: ['data:read'], email: 'Ann@Example.com' }),
        key: ADMIN,
      }),
      201,
    );
    expect(a).toMatchObject({ credits: 50, plan: 'paid' });
    const b = await expectJson(
      await t.call('/admin/keys', { ...json({ credits: 5, email: 'ann@example.com' }), key: ADMIN }),
      201,
    );
    expect(b.account_id).toBe(a.account_id);
    expect(b.credits).toBe(55);
    const view = await expectJson<{ email: string; keys: unknown[] }>(
      await t.call(`/admin/accounts/${a.account_id}`, { key: ADMIN }),
    );
    expect(view.keys).toHaveLength(2);
  });

  test.each([
    [{ plan: 'gold' }, 'invalid_parameter', 'plan'],
    [{ scopes: ['root'] }, 'invalid_parameter', 'scopes'],
    [{ scopes: 'admin' }, 'invalid_parameter', 'scopes'],
    [{ credits: -1 }, 'invalid_parameter', 'credits'],
    [{ credits: 1.5 }, 'invalid_parameter', 'credits'],
    [{ credits: '10' }, 'invalid_parameter', 'credits'],
    [{ email: 'not-an-email' }, 'invalid_email', undefined],
    [[], 'invalid_request', undefined],
  ] as const)('400 for %j: %s', async (body, code, parameter) => {
    const t = await testApp();
    const e = await expectError(await t.call('/admin/keys', { ...json(body), key: ADMIN }), 400, code);
    if (parameter) expect(e.details).toMatchObject({ parameter });
  });

  test('400 invalid_json', async () => {
    const t = await testApp();
    await expectError(
      await t.call('/admin/keys', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"credits":',
        key: ADMIN,
      }),
      400,
      'invalid_json',
    );
  });
});

describe('GET /admin/accounts/{account_id}', () => {
  test('{account_id, credits, plan, keys:[…]}', async () => {
    const f = await fixture({}, 42);
    const body = await expectJson<Record<string, unknown>>(
      await f.call(`/admin/accounts/${f.accountId}`, { key: ADMIN }),
    );
    expect(body).toEqual({
      account_id: f.accountId,
      credits: 42,
      plan: 'unlimited',
      created_at: '2026-03-01T10:00:00.000Z',
      keys: [
        {
          key_id: f.keyId,
          hint: expect.stringMatching(/^tsk_.+…/),
          scopes: ['transcripts:read', 'transcripts:stream', 'data:read'],
          created_at: '2026-03-01T10:00:00.000Z',
          revoked: false,
        },
      ],
    });
    expect(JSON.stringify(body)).not.toContain(f.apiKey);
  });

  test.each([['acc_doesnotexist'], ['nonsense'], [`acc_${'x'.repeat(70)}`]])(
    '404 account_not_found for %s',
    async (id) => {
      const t = await testApp();
      await expectError(await t.call(`/admin/accounts/${id}`, { key: ADMIN }), 404, 'account_not_found');
    },
  );
});

describe('POST /admin/accounts/{account_id}/credits', () => {
  test('amount adds credits; a pack adds its credits and moves the account to paid', async () => {
    const f = await fixture({}, 10, { plan: 'free' });
    const path = `/admin/accounts/${f.accountId}/credits`;
    expect(await expectJson(await f.call(path, { ...json({ amount: 5 }), key: ADMIN }))).toEqual({
      credits: 15,
      plan: 'free',
    });
    expect(await expectJson(await f.call(path, { ...json({ pack: 'small' }), key: ADMIN }))).toEqual({
      credits: 2015,
      plan: 'paid',
    });
    expect(await expectJson(await f.call(path, { ...json({ pack: 'Medium' }), key: ADMIN }))).toEqual({
      credits: 12015,
      plan: 'paid',
    });
    const me = await expectJson(await f.get('/v1/account'));
    expect(me).toEqual({
      account_id: f.accountId,
      credits: 12015,
      plan: 'paid',
      limits: { requests_per_second: 5, requests_per_day: null },
    });
  });

  test('Idempotency-Key makes a repeat a no-op; without it every grant applies', async () => {
    const f = await fixture({}, 0);
    const path = `/admin/accounts/${f.accountId}/credits`;
    const once = { ...json({ amount: 100 }, { 'Idempotency-Key': 'order-1' }), key: ADMIN };
    expect((await expectJson(await f.call(path, once))).credits).toBe(100);
    expect((await expectJson(await f.call(path, once))).credits).toBe(100);
    expect(
      (
        await expectJson(
          await f.call(path, { ...json({ pack: 'small' }, { 'Idempotency-Key': 'order-2' }), key: ADMIN }),
        )
      ).credits,
    ).toBe(2100);
    expect(
      (
        await expectJson(
          await f.call(path, { ...json({ pack: 'small' }, { 'Idempotency-Key': 'order-2' }), key: ADMIN }),
        )
      ).credits,
    ).toBe(2100);
    await f.call(path, { ...json({ amount: 1 }), key: ADMIN });
    await f.call(path, { ...json({ amount: 1 }), key: ADMIN });
    expect(await f.balance(f.accountId)).toBe(2102);
  });

  test.each([
    [{ amount: 5, pack: 'small' }, 'invalid_request', undefined],
    [{}, 'invalid_request', undefined],
    [{ amount: 0 }, 'invalid_parameter', 'amount'],
    [{ amount: -5 }, 'invalid_parameter', 'amount'],
    [{ pack: 'huge' }, 'invalid_parameter', 'pack'],
  ] as const)('400 for %j: %s', async (body, code, parameter) => {
    const f = await fixture({}, 7);
    const e = await expectError(
      await f.call(`/admin/accounts/${f.accountId}/credits`, { ...json(body), key: ADMIN }),
      400,
      code,
    );
    if (code === 'invalid_request') {
      expect(e.message).toMatch(/exactly one of amount or pack/);
      expect(e.message).not.toMatch(/must be a JSON object/);
    }
    if (parameter) expect(e.details).toMatchObject({ parameter });
    expect(await f.balance(f.accountId)).toBe(7);
  });

  test('an empty Idempotency-Key is a 400; an unknown account a 404', async () => {
    const f = await fixture();
    const e = await expectError(
      await f.call(`/admin/accounts/${f.accountId}/credits`, {
        ...json({ amount: 1 }, { 'Idempotency-Key': ' ' }),
        key: ADMIN,
      }),
      400,
      'invalid_parameter',
    );
    expect(e.details).toEqual({ parameter: 'Idempotency-Key', location: 'header' });
    await expectError(
      await f.call('/admin/accounts/acc_nobody/credits', { ...json({ amount: 1 }), key: ADMIN }),
      404,
      'account_not_found',
    );
  });
});

describe('DELETE /admin/keys/{key_id}', () => {
  test('204 with no body; the key answers 401 at once and shows as revoked', async () => {
    const f = await fixture();
    expect((await f.get('/v1/account')).status).toBe(200);
    const res = await f.call(`/admin/keys/${f.keyId}`, { method: 'DELETE', key: ADMIN });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    await expectError(await f.get('/v1/account'), 401, 'invalid_api_key');
    await expectError(await f.post('/v1/transcripts', { video_id: VIDEO }), 401, 'invalid_api_key');
    const view = await expectJson<{ keys: { revoked: boolean }[] }>(
      await f.call(`/admin/accounts/${f.accountId}`, { key: ADMIN }),
    );
    expect(view.keys[0]?.revoked).toBe(true);
    expect((await f.call(`/admin/keys/${f.keyId}`, { method: 'DELETE', key: ADMIN })).status).toBe(204);
  });

  test('404 key_not_found', async () => {
    const t = await testApp();
    await expectError(
      await t.call('/admin/keys/key_nothing', { method: 'DELETE', key: ADMIN }),
      404,
      'key_not_found',
    );
  });
});

describe('admin authentication', () => {
  test('the token (Bearer or X-API-Key) or an admin-scope key; 401/403 otherwise', async () => {
    const f = await fixture();
    const path = `/admin/accounts/${f.accountId}`;
    expect((await f.call(path, { headers: { 'X-API-Key': ADMIN } })).status).toBe(200);
    await expectError(await f.call(path), 401, 'missing_api_key');
    await expectError(await f.call(path, { key: `${ADMIN}x` }), 401, 'invalid_api_key');
    await expectError(await f.call(path, { key: f.apiKey }), 403, 'insufficient_scope');
    const admin = await f.key(0, { scopes: ['admin'] });
    expect((await f.call(path, { key: admin.api_key })).status).toBe(200);
    expect((await f.call('/admin/keys', { ...json({}), key: admin.api_key })).status).toBe(201);
  });

  test('every admin route: 401 without a key, 403 with a plain key, served with the token or an admin key', async () => {
    const f = await fixture();
    const admin = await f.key(0, { scopes: ['admin'] });
    const victim = await f.key(1);
    const routes: [string, RequestInit][] = [
      ['/admin/keys', json({})],
      [`/admin/accounts/${victim.account_id}`, {}],
      [`/admin/accounts/${victim.account_id}/credits`, json({ amount: 1 })],
      [`/admin/keys/${victim.key_id}`, { method: 'DELETE' }],
    ];
    for (const [path, init] of routes) {
      await expectError(await f.call(path, init), 401, 'missing_api_key');
      await expectError(await f.call(path, { ...init, key: f.apiKey }), 403, 'insufficient_scope');
      expect((await f.call(path, { ...init, key: admin.api_key })).status).toBeLessThan(300);
    }
    expect(await f.balance(victim.account_id)).toBe(2);
    expect((await f.call(`/admin/keys/${admin.key_id}`, { method: 'DELETE', key: ADMIN })).status).toBe(204);
    await expectError(
      await f.call('/admin/keys', { ...json({}), key: admin.api_key }),
      401,
      'invalid_api_key',
    );
  });

  test('without a configured token only admin-scope keys work', async () => {
    const t = await testApp({ adminToken: '' });
    const rt = t.ts;
    const admin = await rt.services.accounts.createKey({ scopes: ['admin'] });
    await expectError(await t.call('/admin/keys', { ...json({}), key: ADMIN }), 401, 'invalid_api_key');
    expect((await t.call('/admin/keys', { ...json({}), key: admin.api_key })).status).toBe(201);
  });

  test('settings read from an unset environment variable (undefined) count as not given', async () => {
    const unset = process.env.TUBESCRIBE_TEST_NEVER_SET;
    // Typed as the README shows them: `adminToken: process.env.…` compiles under exactOptionalPropertyTypes.
    const t = await testApp({ adminToken: unset, metricsToken: unset, publicUrl: unset, secret: unset });
    await expectError(await t.call('/admin/keys', { ...json({}), key: ADMIN }), 401, 'invalid_api_key');
    expect((await t.call('/openapi.json')).status).toBe(200);
  });
});

describe('scopes', () => {
  test('a data:read key gets 403 insufficient_scope on transcripts, free of charge', async () => {
    const f = await fixture({}, 10, { scopes: ['data:read'] });
    await expectError(await f.post('/v1/transcripts', { video_id: VIDEO }), 403, 'insufficient_scope');
    await expectError(await f.get(`/v1/transcripts?video_id=${VIDEO}`), 403, 'insufficient_scope');
    await expectError(await f.get(`/v1/transcripts/${VIDEO}/languages`), 403, 'insufficient_scope');
    expect((await f.get(`/v1/videos/${VIDEO}/basic-info`)).status).toBe(200);
    expect(await f.balance(f.accountId)).toBe(10);
  });

  test('a transcripts:read key gets 403 on data routes', async () => {
    const f = await fixture({}, 10, { scopes: ['transcripts:read'] });
    await expectError(await f.get(`/v1/videos/${VIDEO}/video-info`), 403, 'insufficient_scope');
    await expectError(await f.get('/v1/search?q=a'), 403, 'insufficient_scope');
    expect((await f.post('/v1/transcripts', { video_id: VIDEO })).status).toBe(200);
  });

  test('the admin scope is full access (api-spec: "admin (full access …)")', async () => {
    const f = await fixture({}, 10, { scopes: ['admin'] });
    expect((await f.post('/v1/transcripts', { video_id: VIDEO })).status).toBe(200);
    expect((await f.get(`/v1/videos/${VIDEO}/video-info`)).status).toBe(200);
  });
});

describe('GET /v1/account', () => {
  test.each([
    ['free', { requests_per_second: 1, requests_per_day: 100 }],
    ['paid', { requests_per_second: 5, requests_per_day: null }],
  ])('%s plan: {account_id, credits, plan, limits}, free of charge, any scope', async (plan, limits) => {
    const f = await fixture({}, 3, { plan, scopes: ['data:read'] });
    const res = await f.get('/v1/account');
    expect(await expectJson(res)).toEqual({ account_id: f.accountId, credits: 3, plan, limits });
    expect(res.headers.get('x-credits-to-deduct')).toBe('0');
    expect(await f.balance(f.accountId)).toBe(3);
  });
});
