/**
 * `tubescribe/client` against a test app: the account, the admin API and agent sign-up, called
 * through the typed client (the data routes: client.test.ts). The test apps' response hook
 * validates each 2xx body against its declared schema on the way.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import { createClient } from '../../src/client/index.ts';
import { BASE, type Clients, clients } from './setup.ts';

let c: Clients;

beforeAll(async () => {
  c = await clients();
});

describe('the account, the admin API and agent sign-up', () => {
  test('the account and the admin API', async () => {
    const me = await c.api.GET('/v1/account');
    const usage = await c.api.GET('/v1/usage', { params: { query: { days: '3' } } });
    expect(usage.data?.account_id).toBe(c.accountId);
    expect(usage.data?.days.length).toBe(3);
    expect(me.data).toMatchObject({ account_id: c.accountId, plan: 'unlimited' });
    const path = { account_id: c.accountId };
    const granted = await c.admin.POST('/admin/accounts/{account_id}/credits', {
      params: { path },
      body: { amount: 5 },
    });
    expect(granted.data?.credits).toBe((me.data?.credits ?? 0) + 5);
    const view = await c.admin.GET('/admin/accounts/{account_id}', { params: { path } });
    expect(view.data?.keys.map((k) => k.key_id)).toEqual([c.keyId]);
    const upstream = await c.admin.GET('/admin/upstream');
    expect(Array.isArray(upstream.data?.clients)).toBe(true);
    const revoked = await c.admin.DELETE('/admin/keys/{key_id}', { params: { path: { key_id: c.keyId } } });
    expect(revoked.response.status).toBe(204);
    expect((await c.api.GET('/v1/account')).error?.error.code).toBe('invalid_api_key');
  });

  test('agent sign-up: the code is mailed, verify answers the new key', async () => {
    const email = 'client.test@gmail.com';
    const signup = await c.anonymous.POST('/api/agent/signup', { body: { email } });
    expect(signup.data?.status).toBe('code_sent');
    const code = c.h.mailer.codeFor(email);
    const verify = await c.anonymous.POST('/api/agent/verify', {
      body: { signup_token: signup.data!.signup_token, code },
    });
    expect(verify.response.status).toBe(201);
    expect(verify.data?.api_key).toMatch(/^tsk_/);
    const fresh = createClient({
      baseUrl: BASE,
      apiKey: verify.data!.api_key,
      fetch: c.h.ts.fetch, // as the README shows: an embedded app's fetch, no socket
    });
    expect((await fresh.GET('/v1/account')).data?.credits).toBe(verify.data?.credits);
  });
});
