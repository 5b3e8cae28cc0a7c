/**
 * A tubescribe instance that only runs batch work, in a process of its own, for the batch
 * benchmark's API-only part: on the Redis storage and BullMQ queue named by the arguments
 * (`<redis url> <key prefix> <fake YouTube origin>`), with the default `instanceConcurrency`.
 * Prints `{"url": "worker"}` once started; stops when its standard input closes.
 * @module
 */
import { nodeUpstreamFetch } from '../adapters/node/upstream-fetch.ts';
import { createTubescribe } from '../src/app.ts';
import { createBullmqJobQueue } from '../src/drivers/redis/jobs-bullmq.ts';
import { openRedisStorage } from '../src/drivers/redis/storage.ts';
import { silentLogger } from '../src/drivers/system.ts';
import { serveUntilStdinCloses } from './server-process.ts';

const [url, prefix, origin] = process.argv.slice(2) as [string, string, string];
const storage = await openRedisStorage(url, { prefix });
const jobs = createBullmqJobQueue({ url, prefix });
const ts = createTubescribe({
  upstreamFetch: nodeUpstreamFetch, // as on every Node entry point
  kv: storage.kv,
  ledger: storage.ledger,
  jobs,
  youtube: { origin },
  logger: silentLogger,
  limits: { reconcileIntervalMs: 0 },
});
await ts.start();
serveUntilStdinCloses({ url: 'worker' }, async () => {
  await ts.close();
  await jobs.close();
  await storage.close();
});
