/**
 * Redis storage for several instances: the KeyValue (unstorage's Redis driver; cache entries
 * carry their TTLs in Redis) and the Redis Ledger, on one Redis. Connections fail fast while
 * Redis is away (no offline queue), so calls answer `503 storage_unavailable` instead of
 * hanging, and reconnect by themselves when it returns.
 * @module
 */
import { Redis, type RedisOptions } from 'ioredis';
import { createStorage } from 'unstorage';
import redisDriver from 'unstorage/drivers/redis';
import type { Clock } from '../../ports/clock.ts';
import type { KeyValue } from '../../ports/kv.ts';
import type { Ledger } from '../../ports/ledger.ts';
import { createUnstorageKv } from '../kv-unstorage.ts';
import { systemClock } from '../system.ts';
import { createRedisLedger } from './ledger.ts';

/** Options of {@link openRedisStorage}. */
export interface RedisStorageOptions {
  /**
   * Key prefix shared by the KeyValue and the Ledger. Default: the URL's `prefix` query parameter
   * (`redis://host:6379/0?prefix=shop:`), else `tubescribe:`.
   */
  prefix?: string;
  /** The clock the KeyValue checks expiries with. Default: the system clock. */
  clock?: Clock;
  /** Use this clock in the Ledger instead of Redis TIME (tests only). */
  ledgerClock?: Clock;
  /** Milliseconds a command may take before it fails. Default 2000. */
  commandTimeoutMs?: number;
}

/** Open Redis storage. */
export interface RedisStorage {
  kv: KeyValue;
  ledger: Ledger;
  /** Closes both connections. */
  close(): Promise<void>;
}

/** ioredis options that fail fast while Redis is away, never replay a command, and reconnect forever. */
export function failFastOptions(commandTimeoutMs = 2000): RedisOptions {
  return {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A command whose caller already saw it fail must not run later on a new connection (a
    // consume-once or a rate-limit hit would then count for nobody).
    autoResendUnfulfilledCommands: false,
    connectTimeout: commandTimeoutMs,
    commandTimeout: commandTimeoutMs,
    retryStrategy: (times: number) => Math.min(50 * 2 ** Math.min(times, 6), 2000),
  };
}

const PREFIX = /^[A-Za-z0-9_.:-]{1,64}$/;

/**
 * Splits the `prefix` query parameter off a Redis URL (several deployments, or test runs, can then
 * share one Redis): the URL for ioredis, and the prefix when given. A prefix is 1–64 characters
 * of `A-Z a-z 0-9 _ . : -` (no braces: they would break the ledger's hash tags).
 */
export function splitRedisUrl(url: string): { url: string; prefix?: string } {
  if (!url.includes('prefix=')) return { url };
  const parsed = new URL(url);
  const prefix = parsed.searchParams.get('prefix');
  if (prefix === null) return { url };
  if (!PREFIX.test(prefix)) {
    throw new Error(`The Redis key prefix "${prefix}" must be 1–64 characters of A-Z a-z 0-9 _ . : -`);
  }
  parsed.searchParams.delete('prefix');
  return { url: parsed.toString(), prefix };
}

/** Opens the KeyValue and the Ledger on the Redis at `redisUrl` (waits for the first connection). */
export async function openRedisStorage(
  redisUrl: string,
  options: RedisStorageOptions = {},
): Promise<RedisStorage> {
  const { url, prefix: fromUrl } = splitRedisUrl(redisUrl);
  const prefix = options.prefix ?? fromUrl ?? 'tubescribe:';
  const clientOptions = failFastOptions(options.commandTimeoutMs);
  const ledgerClient = new Redis(url, clientOptions);
  // `list` is a SCAN over the whole keyspace; 1000 keys per step instead of Redis's 10 lists
  // 10,000 batch documents in 16-28 ms instead of 135-150 (each step holds Redis about 0.4 ms).
  const driver = redisDriver({ base: `${prefix}kv`, url, scanCount: 1000, ...clientOptions });
  const kvClient = driver.getInstance?.() as Redis;
  // Connection errors reach callers as rejected commands; do not also print them.
  ledgerClient.on('error', () => {});
  kvClient.on('error', () => {});
  try {
    await Promise.all([ledgerClient.connect(), kvClient.connect()]);
  } catch (error) {
    // Nothing to hand back: stop both clients, or they would go on reconnecting for ever (and
    // keep a process that cannot start alive).
    ledgerClient.disconnect();
    kvClient.disconnect();
    throw error;
  }
  const storage = createStorage({ driver });
  const kv = createUnstorageKv(storage, {
    clock: options.clock ?? systemClock,
    nativeTtl: true,
    readsAreCopies: true,
  });
  const ledger = createRedisLedger({
    client: ledgerClient,
    prefix,
    ...(options.ledgerClock ? { clock: options.ledgerClock } : {}),
  });
  return {
    kv,
    ledger,
    async close() {
      await ledger.close?.(); // its broadcast subscriber; the client is closed here
      await Promise.allSettled([ledgerClient.quit(), kvClient.quit()]);
    },
  };
}
