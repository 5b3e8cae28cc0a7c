/**
 * The operator's pages: sign-in with the admin token (a wrong one is refused and never makes a
 * session), account search, an idempotent grant (the same form twice grants once), revoking a
 * key, and the overview's health and sign-up mode. Plus GET /v1/usage's contract.
 */
import { describe, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.ts';
import { DashClient, dashboardHarness } from './client.ts';

async function operator() {
  const t = await dashboardHarness();
  const user = new DashClient(t, '192.0.2.5');
  await user.signIn('customer@gmail.com');
  const op = new DashClient(t, '203.0.113.7');
  await op.get('/dashboard/admin/signin');
  return { t, user, op };
}

describe('operator pages', () => {
  it('refuses a wrong token and signs the right one in with a new session', async () => {
    const { op } = await operator();
    const visitor = op.sessionId;
    const wrong = await op.post('/dashboard/admin/signin', { token: 'not-the-token' });
    expect(wrong.res.status).toBe(401);
    expect((await op.get('/dashboard/admin', 'application/json')).res.status).toBe(401);
    const right = await op.post('/dashboard/admin/signin', { token: ADMIN });
    expect(right.res.status).toBe(303);
    expect(op.sessionId).not.toBe(visitor);
    const home = await op.get('/dashboard/admin');
    expect(home.res.status).toBe(200);
    expect(home.body).toContain('id="signup-mode">on<');
  });

  it('finds an account by email, grants once per form, and revokes its key', async () => {
    const { t, op } = await operator();
    await op.post('/dashboard/admin/signin', { token: ADMIN });
    const found = await op.get('/dashboard/admin/accounts?q=CUSTOMER');
    const accountId = /\/dashboard\/admin\/accounts\/(acc_[A-Za-z0-9]+)/.exec(found.body)?.[1];
    expect(accountId).toBeDefined();
    expect((await op.get('/dashboard/admin/accounts?q=nobody')).body).toContain('No account matches');

    const page = await op.get(`/dashboard/admin/accounts/${accountId}`);
    const idem = /name="idempotency_key" value="([^"]+)"/.exec(page.body)![1]!;
    const first = await op.post(`/dashboard/admin/accounts/${accountId}/grant`, {
      idempotency_key: idem,
      amount: '500',
      pack: '',
    });
    expect(first.res.headers.get('location')).toContain('notice=granted');
    const again = await op.post(`/dashboard/admin/accounts/${accountId}/grant`, {
      idempotency_key: idem,
      amount: '500',
      pack: '',
    });
    expect(again.res.headers.get('location')).toContain('notice=repeated');
    expect(await t.balance(accountId!)).toBe(700);

    const shown = await op.get(`/dashboard/admin/accounts/${accountId}`);
    expect(shown.body).toContain('id="credits">700<');
    expect(/name="idempotency_key" value="([^"]+)"/.exec(shown.body)![1]).not.toBe(idem);
    const keyId = /\/dashboard\/admin\/keys\/(key_[A-Za-z0-9]+)\/revoke/.exec(shown.body)![1]!;
    const revoked = await op.post(`/dashboard/admin/keys/${keyId}/revoke`, { account_id: accountId! });
    expect(revoked.res.headers.get('location')).toBe(`/dashboard/admin/accounts/${accountId}?notice=revoked`);
    expect((await op.get(`/dashboard/admin/accounts/${accountId}`)).body).toContain('>revoked<');
  });

  it('ends an operator session when its admin key is revoked', async () => {
    const { t, op } = await operator();
    const admin = await t.key(0, { scopes: ['admin'] });
    await op.post('/dashboard/admin/signin', { token: admin.api_key });
    expect((await op.get('/dashboard/admin')).res.status).toBe(200);
    const revoke = await t.call(`/admin/keys/${admin.key_id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(revoke.status).toBe(204);
    const after = await op.get('/dashboard/admin', 'application/json');
    expect(after.res.status).toBe(401);
    expect(JSON.parse(after.body).error.code).toBe('session_required');
  });

  it('refuses a grant without the form idempotency key', async () => {
    const { op } = await operator();
    await op.post('/dashboard/admin/signin', { token: ADMIN });
    const stale = await op.post(
      '/dashboard/admin/accounts/acc_x/grant',
      { amount: '5' },
      { accept: 'application/json' },
    );
    expect(stale.res.status).toBe(403); // the visitor session's token died with it
    await op.get('/dashboard/admin');
    const res = await op.post(
      '/dashboard/admin/accounts/acc_x/grant',
      { amount: '5' },
      { accept: 'application/json' },
    );
    expect(res.res.status).toBe(400);
  });
});

describe('GET /v1/usage', () => {
  it('reports 30 days by default, oldest first, ending today, zeros without use', async () => {
    const t = await dashboardHarness();
    const { api_key, account_id } = await t.key(10);
    const res = await t.call('/v1/usage', { key: api_key });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { account_id: string; days: { date: string; requests: number }[] };
    expect(body.account_id).toBe(account_id);
    expect(body.days).toHaveLength(30);
    expect(body.days.at(-1)!.date).toBe(new Date(t.clock.now()).toISOString().slice(0, 10));
    expect(body.days[0]!.date < body.days[1]!.date).toBe(true);
    t.clock.advance(1_000);
    const seven = (await (await t.call('/v1/usage?days=7', { key: api_key })).json()) as { days: unknown[] };
    expect(seven.days).toHaveLength(7);
  });

  it.each(['0', '91', 'x', '1.5'])('refuses days=%s with 400', async (days) => {
    const t = await dashboardHarness();
    const { api_key } = await t.key(10);
    const res = await t.call(`/v1/usage?days=${days}`, { key: api_key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
  });

  it('needs a key', async () => {
    const t = await dashboardHarness();
    expect((await t.call('/v1/usage')).status).toBe(401);
  });
});
