/**
 * Redis for tests: the URL comes from `TUBESCRIBE_TEST_REDIS` (set by `.ci/run`); suites that need
 * it are skipped, loudly, without it. Every test uses its own key prefix and deletes its keys.
 */
import { Redis } from 'ioredis';
import { describe } from 'vitest';

/** The test Redis URL, or undefined. */
export const redisUrl: string | undefined = process.env.TUBESCRIBE_TEST_REDIS || undefined;

let run = 0;
/** A key prefix unique to this process and call. */
export function uniquePrefix(name = 't'): string {
  return `tstest:${process.pid}:${Date.now().toString(36)}:${name}:${run++}:`;
}

/** A connected client that fails fast when Redis is away (as the app configures it). */
export async function connect(url: string = redisUrl ?? ''): Promise<Redis> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  await client.connect();
  return client;
}

/** Deletes every key containing `prefix` (hash-tagged keys start with `{`). */
export async function deleteKeys(client: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `*${prefix}*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) deleted += await client.del(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** {@link deleteKeys} on a connection of its own, closed afterwards: a suite's final clean-up. */
export async function deleteKeysAt(prefix: string, url: string = redisUrl ?? ''): Promise<number> {
  const client = await connect(url);
  try {
    return await deleteKeys(client, prefix);
  } finally {
    await client.quit();
  }
}

/** `describe` for suites that need Redis: skipped, with a loud warning, without TUBESCRIBE_TEST_REDIS. */
export function describeRedis(name: string, body: () => void): void {
  if (redisUrl) {
    describe(name, body);
  } else {
    process.stderr.write(
      `\n!!! SKIPPED "${name}": set TUBESCRIBE_TEST_REDIS=redis://127.0.0.1:6379 to run it !!!\n\n`,
    );
    describe.skip(`${name} (SKIPPED: TUBESCRIBE_TEST_REDIS not set)`, body);
  }
}
