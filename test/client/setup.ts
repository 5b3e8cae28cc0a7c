/**
 * The clients of the `tubescribe/client` tests: a test app with a capturing mailer (for agent
 * sign-up) and a funded key on a plan without practical limits, and three typed clients whose
 * `fetch` is the app's own `app.request` (no socket): with the key, with the admin token, and
 * without a key.
 */
import { expect } from 'vitest';
import { createClient, type TubescribeClient } from '../../src/client/index.ts';
import { ADMIN } from '../helpers/app.ts';
import { DEFAULT_IP, nodeEnv, type SignupHarness, signupHarness } from '../signup/support.ts';

/** The origin the clients call (the app answers any). */
export const BASE = 'http://localhost';

/** What {@link clients} returns. */
export interface Clients {
  h: SignupHarness;
  api: TubescribeClient;
  admin: TubescribeClient;
  anonymous: TubescribeClient;
  accountId: string;
  keyId: string;
}

/** A test app and its clients; the key is created through the typed admin client. */
export async function clients(): Promise<Clients> {
  const h = await signupHarness({ plans: { unlimited: [{ limit: 1_000_000, window: 1 }] } });
  const fetch = (request: Request) =>
    Promise.resolve(h.ts.app.request(request, undefined, nodeEnv(DEFAULT_IP)));
  const admin = createClient({ baseUrl: `${BASE}/`, apiKey: ADMIN, fetch });
  const anonymous = createClient({ baseUrl: BASE, fetch });
  const created = await admin.POST('/admin/keys', { body: { credits: 1000, plan: 'unlimited' } });
  expect(created.response.status).toBe(201);
  expect(created.data?.api_key).toMatch(/^tsk_/);
  const api = createClient({ baseUrl: BASE, apiKey: created.data!.api_key, fetch });
  return { h, api, admin, anonymous, accountId: created.data!.account_id, keyId: created.data!.key_id };
}
