/**
 * An account sees and changes only its own data through the dashboard: another account's key id
 * and batch job id are refused exactly like unknown ones, keys are revoked at once, and no key is
 * ever shown twice.
 */
import { describe, expect, it } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { ADMIN } from '../helpers/app.ts';
import { DashClient, dashboardHarness, shownKey } from './client.ts';

async function twoAccounts() {
  const t = await dashboardHarness();
  const a = new DashClient(t, '192.0.2.1');
  const b = new DashClient(t, '198.51.100.1');
  const keyA = shownKey((await a.signIn('alice@gmail.com')).body)!;
  const keyB = shownKey((await b.signIn('bob@gmail.com')).body)!;
  const idOf = async (key: string) =>
    ((await (await t.call('/v1/account', { key })).json()) as { account_id: string }).account_id;
  const view = async (accountId: string) =>
    (await (
      await t.call(`/admin/accounts/${accountId}`, {
        headers: { authorization: `Bearer ${ADMIN}` },
      })
    ).json()) as {
      keys: { key_id: string }[];
    };
  const bKeyId = (await view(await idOf(keyB))).keys[0]!.key_id;
  t.clock.advance(1_000); // free plan: 1 request per second
  return { t, a, b, keyA, keyB, bKeyId };
}

describe('isolation', () => {
  it("refuses to revoke another account's key (404 key_not_found), which keeps working", async () => {
    const { t, a, keyB, bKeyId } = await twoAccounts();
    await a.get('/dashboard/keys');
    const res = await a.post(`/dashboard/keys/${bKeyId}/revoke`, {}, { accept: 'application/json' });
    expect(res.res.status).toBe(404);
    expect(JSON.parse(res.body).error.code).toBe('key_not_found');
    t.clock.advance(1_000);
    expect((await t.call('/v1/account', { key: keyB })).status).toBe(200);
  });

  it("refuses another account's batch job (404 batch_not_found) and shows one's own", async () => {
    const { t, a, b, keyB } = await twoAccounts();
    const submitted = await t.call('/v1/batch', {
      key: keyB,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ tasks: [{ type: 'basic_info', video_id: VIDEO }] }),
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    const theirs = await a.get(`/dashboard/jobs/${id}`, 'application/json');
    expect(theirs.res.status).toBe(404);
    expect(JSON.parse(theirs.body).error.code).toBe('batch_not_found');
    const mine = await b.get(`/dashboard/jobs/${id}`);
    expect(mine.res.status).toBe(200);
    expect(mine.body).toContain('<progress');
    expect((await b.get('/dashboard')).body).toContain(id);
    expect((await a.get('/dashboard')).body).not.toContain(id);
  });

  it('creates a named key shown once, revokes it at once (the API answers 401)', async () => {
    const { t, a } = await twoAccounts();
    await a.get('/dashboard/keys');
    const created = await a.post('/dashboard/keys', {
      name: 'server',
      scopes: ['transcripts:read', 'admin'],
    });
    expect(created.res.status).toBe(201);
    const key = shownKey(created.body)!;
    expect(key).toBeDefined();
    const page = await a.get('/dashboard/keys');
    expect(page.body).not.toContain(key);
    expect(page.body).toContain('server');
    expect(page.body).not.toMatch(/<td>[^<]*admin/);
    expect((await t.call('/v1/account', { key })).status).toBe(200);
    t.clock.advance(1_000);
    const keyId = [...page.body.matchAll(/action="\/dashboard\/keys\/(key_[A-Za-z0-9]+)\/revoke"/g)]
      .map((m) => m[1])
      .at(-1)!;
    const revoked = await a.post(`/dashboard/keys/${keyId}/revoke`);
    expect(revoked.res.status).toBe(303);
    expect((await t.call('/v1/account', { key })).status).toBe(401);
  });

  it('refuses operator pages to an account session', async () => {
    const { a } = await twoAccounts();
    const res = await a.get('/dashboard/admin/accounts', 'application/json');
    expect(res.res.status).toBe(401);
  });
});
