/**
 * A bound on an in-memory KeyValue: cached responses (`cache:` keys) are capped in total size
 * and evicted least recently used first; expired entries of any kind are swept out, a step per
 * write ({@link SWEEP_STEP}). Documents that are not cache entries (accounts, keys, jobs,
 * sign-ups) are never evicted while they live.
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
  /** A sweep looks at this many entries per write at most. Default {@link SWEEP_STEP}. */
  sweepStep?: number;
}

/**
 * How many entries with a lifetime a write looks at, at most, for its part of a sweep. A sweep
 * walks every such entry; done in one write, it held the event loop for all of them (measured
 * here: 3–10 ms over 300,000 live entries, 363–395 ms when all of them had expired), so it is
 * spread over the writes that follow, a step each, until it has seen them all. Measured after:
 * a step takes 0.1 ms, and 0.6 ms when all it looks at have expired (the longest write of such
 * a sweep took 47–50 ms, once, while V8 shrank the emptied Maps).
 */
export const SWEEP_STEP = 500;

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
  const sweepStep = options.sweepStep ?? SWEEP_STEP;
  /** Cache key → size, oldest use first. */
  const cache = new Map<string, number>();
  /** Key → expiry (epoch ms), for every key written with a lifetime. */
  const expiries = new Map<string, number>();
  let bytes = 0;
  let nextSweep = clock.now() + sweepEvery;
  /**
   * The sweep under way: where it is in `expiries` (a Map's iterator goes on past deletions, and
   * reaches entries added meanwhile, so a sweep always ends: each write adds one at most).
   */
  let sweeping: MapIterator<[string, number]> | undefined;

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
  /** One step of the sweep (see {@link SWEEP_STEP}), starting one when it is due. */
  const sweep = async (): Promise<void> => {
    const now = clock.now();
    if (sweeping === undefined) {
      if (now < nextSweep) return;
      sweeping = expiries.entries();
    }
    const dead: string[] = [];
    let seen = 0;
    // A Map iterator has no `return`: leaving the loop early keeps it where it is.
    for (const [key, expiry] of sweeping) {
      if (expiry <= now) dead.push(key);
      if (++seen === sweepStep) break;
    }
    if (seen < sweepStep) {
      sweeping = undefined;
      nextSweep = now + sweepEvery;
    }
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
      sweeping = undefined;
      bytes = 0;
      await inner.close?.();
    },
  };
}
