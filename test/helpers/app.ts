/**
 * An app under test: in-memory storage, a manual clock, seeded randomness, a silent logger and a
 * fake (or given) upstream; plus helpers to create keys and read credits. Every 2xx answer is
 * validated against the route's declared response schema.
 */

import { nodeClientAddress } from '../../adapters/node/client-address.ts';
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import type { AppOptions } from '../../src/options.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { FakeUpstream } from '../fakes/upstream.ts';
import { installResponseCheck } from './response-check.ts';

export const ADMIN = 'admin-token-for-tests-0123456789';

/** What {@link testApp} returns. */
export interface TestApp {
  ts: Tubescribe;
  clock: ManualClock;
  upstream: FakeUpstream;
  /** `app.request` with a key. */
  call(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** Creates a key with `credits` (and options) through the admin API. */
  key(
    credits?: number,
    extra?: Record<string, unknown>,
  ): Promise<{ api_key: string; account_id: string; key_id: string }>;
  /** The account's balance. */
  balance(accountId: string): Promise<number>;
}

/** Options of {@link testApp}: the app's, plus a seed for its randomness. */
export type TestAppOptions = AppOptions & {
  /** Seed of the SeededRandom (two apps sharing storage need different seeds). Default 7. */
  seed?: number;
};

/** Builds an app for tests. A given ManualClock or FakeUpstream is the one returned. */
export async function testApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { seed = 7, ...appOptions } = options;
  const clock =
    appOptions.clock instanceof ManualClock ? appOptions.clock : new ManualClock('2026-03-01T10:00:00.000Z');
  const upstream = appOptions.upstream instanceof FakeUpstream ? appOptions.upstream : new FakeUpstream();
  const ts = createTubescribe({
    clock,
    random: new SeededRandom(seed),
    logger: silentLogger,
    upstream,
    clientAddress: nodeClientAddress,
    adminToken: ADMIN,
    secret: 'test-secret-test-secret-test-secret!',
    ...appOptions,
    limits: { reconcileIntervalMs: 0, ...appOptions.limits },
  });
  // Every 2xx answer is checked against its route's declared response (see response-check.ts).
  installResponseCheck(ts);
  await ts.start();
  const call = (path: string, init: RequestInit & { key?: string } = {}) => {
    const { key, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
    return Promise.resolve(ts.app.request(path, { ...rest, headers }));
  };
  return {
    ts,
    clock,
    upstream,
    call,
    async key(credits = 100, extra = {}) {
      const res = await call('/admin/keys', {
        method: 'POST',
        key: ADMIN,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credits, plan: 'paid', ...extra }),
      });
      if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { api_key: string; account_id: string; key_id: string };
    },
    async balance(accountId: string) {
      return (await ts.ports.ledger.credits(accountId)).balance;
    },
  };
}
