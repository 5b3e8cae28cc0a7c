/**
 * GET /admin/upstream (decisions.md Operator interface): the YouTube clients' health, admin only.
 */
import { describe, expect, test } from 'vitest';
import type { ClientHealth } from '../../src/ports/upstream.ts';
import { FakeUpstream } from '../fakes/upstream.ts';
import { ADMIN, testApp } from '../helpers/app.ts';
import { expectError, expectJson, fixture } from '../helpers/http.ts';

const CLIENTS: ClientHealth[] = [
  { name: 'VISIONOS', state: 'open', last_success_at: null, recent_failures: 3 },
  { name: 'ANDROID', state: 'closed', last_success_at: '2026-03-01T09:59:00.000Z', recent_failures: 0 },
  { name: 'WEB', state: 'half_open', last_success_at: null, recent_failures: 5 },
];

describe('GET /admin/upstream', () => {
  test('the record shape: { clients: [ { name, state, last_success_at, recent_failures } ] }', async () => {
    const upstream = Object.assign(new FakeUpstream(), { health: () => CLIENTS });
    const t = await testApp({ upstream });
    const body = await expectJson<{ clients: ClientHealth[] }>(
      await t.call('/admin/upstream', { key: ADMIN }),
    );
    expect(Object.keys(body)).toEqual(['clients']);
    expect(body.clients).toEqual(CLIENTS);
    for (const c of body.clients)
      expect(Object.keys(c).sort()).toEqual(['last_success_at', 'name', 'recent_failures', 'state']);
  });

  test('an upstream without health answers { clients: [] }', async () => {
    const t = await testApp();
    expect(await expectJson(await t.call('/admin/upstream', { key: ADMIN }))).toEqual({ clients: [] });
  });

  test('401 without a key, 403 insufficient_scope with a plain key; free of charge', async () => {
    const f = await fixture();
    const before = await f.balance(f.accountId);
    await expectError(await f.call('/admin/upstream'), 401, 'missing_api_key');
    await expectError(await f.call('/admin/upstream', { key: f.apiKey }), 403, 'insufficient_scope');
    expect(await f.balance(f.accountId)).toBe(before);
  });
});
