/**
 * A bound on an in-memory KeyValue: cached responses (`cache:` keys) are capped in total size
 * and evicted least recently used first; expired entries of any kind are swept out. Documents
 * that are not cache entries (accounts, keys, jobs, sign-ups) are never evicted while they live.
 * Sizes are the length of each value's JSON. For backends that keep everything in the process
 * (the memory driver); persistent and shared backends bound themselves.
 * @module
 */
import type { Clock } from '../ports/clock.ts';
import type { KeyValue, SetOptions } from '../ports/kv.ts';

/** The default cap on the cache entries of a memory store: 256 MiB. */
export const DEFAULT_MAX_CACHE_BYTES: number = 256 * 1024 * 1024;

/** Options of {@link boundKv}. */
export interface BoundKvOptions {
  clock: Clock;
  /** Cap on the total size of the cache entries. Default {@link DEFAULT_MAX_CACHE_BYTES}. */
  maxCacheBytes?: number;
  /** The prefix of the keys that may be evicted. Default `cache:`. */
  cachePrefix?: string;
  /** Expired entries are swept at most this often (by the clock), on a write. Default 60 s. */
  sweepEveryMs?: number;
}

/** The size figures of a bounded store (tests and metrics). */
export interface BoundedKeyValue extends KeyValue {
  /** Total size of the tracked cache entries. */
  readonly cacheBytes: number;
}

/**
 * Wraps `inner` so that its cache entries stay under `maxCacheBytes` (LRU by reads and writes)
 * and expired entries are deleted (see module docs). Only writes through the wrapper are tracked.
 */
export function boundKv(inner: KeyValue, options: BoundKvOptions): BoundedKeyValue {
  const { clock } = options;
  const max = options.maxCacheBytes ?? DEFAULT_MAX_CACHE_BYTES;
  const prefix = options.cachePrefix ?? 'cache:';
  const sweepEvery = options.sweepEveryMs ?? 60_000;
  /** Cache key → size, oldest use first. */
  const cache = new Map<string, number>();
  /** Key → expiry (epoch ms), for every key written with a lifetime. */
  const expiries = new Map<string, number>();
  let bytes = 0;
  let nextSweep = clock.now() + sweepEvery;

  const forget = (key: string): void => {
    const size = cache.get(key);
    if (size !== undefined) {
      cache.delete(key);
      bytes -= size;
    }
    expiries.delete(key);
  };
  const drop = async (key: string): Promise<void> => {
    forget(key);
    await inner.delete(key);
  };
  const sweep = async (): Promise<void> => {
    const now = clock.now();
    if (now < nextSweep) return;
    nextSweep = now + sweepEvery;
    const dead: string[] = [];
    for (const [key, expiry] of expiries) if (expiry <= now) dead.push(key);
    for (const key of dead) await drop(key);
  };
  const evict = async (): Promise<void> => {
    while (bytes > max) {
      const oldest = cache.keys().next();
      if (oldest.done) break;
      await drop(oldest.value);
    }
  };

  return {
    get cacheBytes(): number {
      return bytes;
    },
    async get<T>(key: string): Promise<T | undefined> {
      const value = await inner.get<T>(key);
      if (value === undefined) {
        if (cache.has(key) || expiries.has(key)) await drop(key);
        return undefined;
      }
      const size = cache.get(key);
      if (size !== undefined) {
        cache.delete(key);
        cache.set(key, size);
      }
      return value;
    },
    async set<T>(key: string, value: T, setOptions: SetOptions = {}): Promise<void> {
      // A cache entry is measured by its JSON, which is handed on (the memory store keeps JSON),
      // so it is made once at most.
      const isCache = key.startsWith(prefix);
      const json = isCache ? (setOptions.json ?? (JSON.stringify(value) as string | undefined)) : undefined;
      const size = isCache ? (json?.length ?? 0) : undefined;
      // A cache entry larger than the whole cap is not kept (nor an older value of it).
      if (size !== undefined && size > max) return drop(key);
      await inner.set(key, value, json === undefined ? setOptions : { ...setOptions, json });
      forget(key);
      if (setOptions.ttlMs !== undefined) expiries.set(key, clock.now() + setOptions.ttlMs);
      if (size !== undefined) {
        cache.set(key, size);
        bytes += size;
        await evict();
      }
      await sweep();
    },
    async delete(key: string): Promise<void> {
      await drop(key);
    },
    list(listPrefix: string): Promise<string[]> {
      return inner.list(listPrefix);
    },
    async close(): Promise<void> {
      cache.clear();
      expiries.clear();
      bytes = 0;
      await inner.close?.();
    },
  };
}
