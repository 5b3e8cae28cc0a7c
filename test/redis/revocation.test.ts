/**
 * Keys are kept in memory by every instance (no hashing or storage read per request), yet a
 * revocation or a plan change made through one instance holds on every other at its very next
 * request: the change is announced over Redis pub/sub before the admin call answers.
 */
import { afterEach, expect, it } from 'vitest';
import { ADMIN } from '../helpers/app.ts';
import { type Cluster, startCluster } from '../helpers/cluster.ts';
import { describeRedis } from '../helpers/redis.ts';

async function errorCode(res: Response): Promise<string> {
  return ((await res.json()) as { error: { code: string } }).error.code;
}

describeRedis('2 instances on one Redis: keys kept in memory, changes announced', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('refuses a key revoked through the other instance on its very next request', async () => {
    cluster = await startCluster({ size: 2 });
    const [a, b] = cluster.instances as [
      NonNullable<Cluster['instances'][0]>,
      NonNullable<Cluster['instances'][1]>,
    ];
    for (let round = 0; round < 5; round++) {
      const { api_key, key_id } = await cluster.key(10, 'paid');
      // Both instances know the key (it is kept in memory from the first request on).
      for (const instance of [a, b, a, b]) {
        expect((await instance.call('/v1/account', { key: api_key })).status).toBe(200);
      }
      const revoker = round % 2 === 0 ? a : b;
      const other = revoker === a ? b : a;
      const revoked = await revoker.call(`/admin/keys/${key_id}`, { method: 'DELETE', key: ADMIN });
      expect(revoked.status).toBe(204);
      const next = await other.call('/v1/account', { key: api_key });
      expect(next.status).toBe(401);
      expect(await errorCode(next)).toBe('invalid_api_key');
      expect((await revoker.call('/v1/account', { key: api_key })).status).toBe(401);
    }
  });

  it('serves the plan a pack moved the account to on the other instance at once', async () => {
    cluster = await startCluster({ size: 2 });
    const [a, b] = cluster.instances as [
      NonNullable<Cluster['instances'][0]>,
      NonNullable<Cluster['instances'][1]>,
    ];
    const { api_key, account_id } = await cluster.key(0, 'free');
    const plan = async (res: Response) => ((await res.json()) as { plan: string }).plan;
    expect(await plan(await b.call('/v1/account', { key: api_key }))).toBe('free');
    const granted = await a.call(`/admin/accounts/${account_id}/credits`, {
      method: 'POST',
      key: ADMIN,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ pack: 'small' }),
    });
    expect(granted.status).toBe(200);
    expect(await plan(await b.call('/v1/account', { key: api_key }))).toBe('paid');
  });
});
