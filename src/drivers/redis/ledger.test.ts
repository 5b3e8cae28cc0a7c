import { expect, it } from 'vitest';
import { ledgerContract } from '../../../test/contracts/ledger.ts';
import { connect, deleteKeys, describeRedis, uniquePrefix } from '../../../test/helpers/redis.ts';
import { createRedisLedger } from './ledger.ts';

describeRedis('Redis ledger', () => {
  ledgerContract('redis', async (clock) => {
    const client = await connect();
    const prefix = uniquePrefix('ledger');
    return {
      ledger: createRedisLedger({ client, prefix, clock }),
      restart: async () => createRedisLedger({ client, prefix, clock }),
      cleanup: async () => {
        await deleteKeys(client, prefix);
        await client.quit();
      },
    };
  });
});

describeRedis('Redis ledger: what a charged call leaves in Redis', () => {
  it('200 admitted, reserved and committed calls leave the same keys as one (no key per call), and a repeat while open answers the first result', async () => {
    const client = await connect();
    const prefix = uniquePrefix('ledger-keys');
    const ledger = createRedisLedger({ client, prefix });
    const rules = [{ limit: 1_000, window: 60 }];
    const keysNow = async () => (await client.keys(`*${prefix}*`)).sort();
    try {
      await ledger.grant('a', 1_000, 'g');
      const call = async (i: number) => {
        const { reserved } = await ledger.admit!('acct:a', rules, {
          account: 'a',
          cost: 2,
          reservationId: `r${i}`,
          ttlMs: 60_000,
        });
        expect(reserved).toEqual({ ok: true, balance: 1_000 - 2 * (i + 1) });
        // A repeat of the open reservation answers its first result and reserves nothing more.
        expect(await ledger.reserve('a', 2, `r${i}`, 60_000)).toEqual(reserved);
        expect(await ledger.commit(`r${i}`, { operation: 'transcript' })).toBe(true);
      };
      await call(0);
      const afterOne = await keysNow();
      for (let i = 1; i < 200; i++) await call(i);
      expect(await keysNow()).toEqual(afterOne);
      expect(await ledger.credits('a')).toEqual({ balance: 600, reserved: 0, spent: 400, granted: 1_000 });
    } finally {
      await deleteKeys(client, prefix);
      await client.quit();
    }
  });
});
