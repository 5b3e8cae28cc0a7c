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
