/**
 * The KeyValue in process memory, for tests, throwaway servers and the CLI: a `Map` of JSON
 * texts, bounded ({@link boundKv}).
 *
 * Values are kept as their JSON text, so `get` answers a copy (the port's rule) that is exactly
 * what a store that serialises would answer: one `JSON.stringify` per write and one `JSON.parse`
 * per read. (Through unstorage's memory driver a read cost a key normalisation, `destr` and a
 * `structuredClone` besides: batch jobs read a task's documents several times per task.)
 * @module
 */
import type { Clock } from '../ports/clock.ts';
import type { KeyValue, SetOptions } from '../ports/kv.ts';
import { type BoundedKeyValue, boundKv } from './kv-bounded.ts';

/** A value's JSON text, and when it expires (epoch ms). */
interface Stored {
  json: string;
  expiresAt?: number;
}

/** A KeyValue over a `Map` (unbounded: {@link createMemoryKv} bounds it). */
export function createMapKv(clock: Clock): KeyValue {
  const entries = new Map<string, Stored>();
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const stored = entries.get(key);
      if (stored === undefined) return undefined;
      if (stored.expiresAt !== undefined && stored.expiresAt <= clock.now()) return undefined;
      return JSON.parse(stored.json) as T;
    },
    async set<T>(key: string, value: T, options: SetOptions = {}): Promise<void> {
      const json = options.json ?? (JSON.stringify(value) as string | undefined);
      // As a serialising store answers a value JSON cannot hold: nothing.
      if (json === undefined) {
        entries.delete(key);
        return;
      }
      const stored: Stored = { json };
      if (options.ttlMs !== undefined) stored.expiresAt = clock.now() + options.ttlMs;
      entries.set(key, stored);
    },
    async delete(key: string): Promise<void> {
      entries.delete(key);
    },
    async list(prefix: string): Promise<string[]> {
      const out: string[] = [];
      for (const key of entries.keys()) if (key.startsWith(prefix)) out.push(key);
      return out;
    },
    async close(): Promise<void> {
      entries.clear();
    },
  };
}

/** Options of {@link createMemoryKv}. */
export interface MemoryKvOptions {
  /** Cap on the total size of the `cache:` entries (JSON length). Default 256 MiB. */
  maxCacheBytes?: number;
}

/**
 * A KeyValue in process memory: for tests and throwaway servers. Bounded ({@link boundKv}):
 * cache entries are capped and evicted least recently used first, expired entries are swept
 * out; other documents are never evicted.
 */
export function createMemoryKv(clock: Clock, options: MemoryKvOptions = {}): BoundedKeyValue {
  return boundKv(createMapKv(clock), {
    clock,
    ...(options.maxCacheBytes !== undefined ? { maxCacheBytes: options.maxCacheBytes } : {}),
  });
}
