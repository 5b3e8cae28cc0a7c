/**
 * `tubescribe/redis`: storage shared by several tubescribe instances on one Redis.
 *
 * ```ts
 * import { createTubescribe } from 'tubescribe';
 * import { openRedisStorage } from 'tubescribe/redis';
 * const { kv, ledger } = await openRedisStorage('redis://127.0.0.1:6379');
 * const tubescribe = createTubescribe({ kv, ledger });
 * ```
 * @module
 */
export { type BullmqJobQueueOptions, createBullmqJobQueue } from './drivers/redis/jobs-bullmq.ts';
export { createRedisLedger, type RedisLedgerOptions } from './drivers/redis/ledger.ts';
export {
  failFastOptions,
  openRedisStorage,
  type RedisStorage,
  type RedisStorageOptions,
} from './drivers/redis/storage.ts';
