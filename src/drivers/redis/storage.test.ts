import { describe, expect, it } from 'vitest';
import { connect, deleteKeys, describeRedis, redisUrl, uniquePrefix } from '../../../test/helpers/redis.ts';
import { openRedisStorage, splitRedisUrl } from './storage.ts';

describe('splitRedisUrl', () => {
  it.each([
    ['redis://127.0.0.1:6379', { url: 'redis://127.0.0.1:6379' }],
    ['redis://127.0.0.1:6379/2?prefix=shop:', { url: 'redis://127.0.0.1:6379/2', prefix: 'shop:' }],
    [
      'rediss://u:p@host:6380?family=4&prefix=a.b-c_d',
      { url: 'rediss://u:p@host:6380?family=4', prefix: 'a.b-c_d' },
    ],
    ['redis://host?family=6', { url: 'redis://host?family=6' }],
  ])('%s', (input, expected) => {
    expect(splitRedisUrl(input)).toEqual(expected);
  });

  it.each(['{tag}', '', 'a b', 'x'.repeat(65)])('refuses the prefix %j', (prefix) => {
    expect(() => splitRedisUrl(`redis://host?prefix=${encodeURIComponent(prefix)}`)).toThrow(/prefix/);
  });
});

describeRedis('openRedisStorage', () => {
  it('takes the key prefix from the URL, for the KeyValue and the Ledger', async () => {
    const prefix = uniquePrefix('url');
    const storage = await openRedisStorage(`${redisUrl}?prefix=${prefix}`);
    const redis = await connect();
    try {
      await storage.kv.set('account:a', { ok: true });
      await storage.ledger.grant('a', 5, 'g');
      const keys = (await redis.keys(`*${prefix}*`)).sort();
      expect(keys).toEqual([`${prefix}kv:account:a`, `{${prefix}c}:acct:a`, `{${prefix}c}:grants`].sort());
    } finally {
      await storage.close();
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });
});
