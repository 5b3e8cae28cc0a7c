/**
 * The KeyValue port over an unstorage `Storage` (memory, fs, Redis, … drivers).
 *
 * - Keys are escaped so that any string is a safe unstorage key (unstorage treats `/`, `\`, `?`
 *   and `..` specially): every character outside `[A-Za-z0-9_:-]` becomes `~XX` (UTF-8 hex).
 * - Values are stored as `{ v, e? }`; `e` is the expiry in epoch ms, checked against the
 *   injected Clock on every read, because the memory and fs drivers ignore `ttl`. Drivers that
 *   expire keys natively (Redis) also get the TTL, so storage does not fill up.
 * @module
 */
import type { Storage } from 'unstorage';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue, SetOptions } from '../ports/kv.ts';

interface Stored {
  v: unknown;
  e?: number;
}

const SAFE = /^[A-Za-z0-9_-]+(:[A-Za-z0-9_-]+)*$/;
const PLAIN = /[A-Za-z0-9_-]/;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Escapes a key for unstorage (see module docs). A `:` stays a separator only where it
 * separates two non-empty segments; elsewhere it is escaped too, since unstorage collapses
 * empty segments.
 */
export function escapeKey(key: string): string {
  if (SAFE.test(key)) return key;
  let out = '';
  const chars = Array.from(key);
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i]!;
    if (PLAIN.test(ch)) out += ch;
    else if (ch === ':' && out !== '' && !out.endsWith(':') && i < chars.length - 1) out += ch;
    else for (const b of encoder.encode(ch)) out += `~${b.toString(16).padStart(2, '0')}`;
  }
  return out.endsWith(':') ? `${out.slice(0, -1)}~3a` : out;
}

/** Reverses {@link escapeKey}. */
export function unescapeKey(key: string): string {
  if (!key.includes('~')) return key;
  const bytes: number[] = [];
  let out = '';
  const flush = () => {
    if (bytes.length > 0) out += decoder.decode(new Uint8Array(bytes.splice(0)));
  };
  for (let i = 0; i < key.length; i++) {
    if (key[i] === '~') {
      bytes.push(Number.parseInt(key.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      flush();
      out += key[i];
    }
  }
  flush();
  return out;
}

/** Options of {@link createUnstorageKv}. */
export interface UnstorageKvOptions {
  clock: Clock;
  /** Pass `ttl` (seconds) to the driver too, for drivers that expire keys themselves (Redis). */
  nativeTtl?: boolean;
  /**
   * The driver answers each read with text that is parsed anew (fs, Redis), so a value read is
   * already a copy of its own and is not copied again. Off by default: a driver that keeps the
   * objects themselves (memory) would hand out what it holds.
   */
  readsAreCopies?: boolean;
}

/** Wraps an unstorage `Storage` as a {@link KeyValue}. */
export function createUnstorageKv(storage: Storage, options: UnstorageKvOptions): KeyValue {
  const { clock } = options;
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const stored = (await storage.getItem(escapeKey(key))) as Stored | null;
      if (stored === null || typeof stored !== 'object' || !('v' in stored)) return undefined;
      if (stored.e !== undefined && stored.e <= clock.now()) return undefined;
      return (options.readsAreCopies ? stored.v : structuredClone(stored.v)) as T;
    },
    async set<T>(key: string, value: T, setOptions: SetOptions = {}): Promise<void> {
      const { ttlMs, json } = setOptions;
      const e = ttlMs === undefined ? undefined : clock.now() + ttlMs;
      // The JSON of `{ v, e }` around the caller's JSON of the value, when it has made it (a
      // string is stored as it is, and read back parsed, as unstorage does with objects).
      const stored =
        json === undefined
          ? ({ v: value, ...(e === undefined ? {} : { e }) } satisfies Stored)
          : `{"v":${json}${e === undefined ? '' : `,"e":${e}`}}`;
      const driverOptions =
        options.nativeTtl && ttlMs !== undefined ? { ttl: Math.max(1, Math.ceil(ttlMs / 1000)) } : {};
      await storage.setItem(escapeKey(key), stored as never, driverOptions);
    },
    async delete(key: string): Promise<void> {
      await storage.removeItem(escapeKey(key));
    },
    async list(prefix: string): Promise<string[]> {
      // Narrow the driver's listing to the prefix's whole leading segments when they need no escaping.
      const cut = prefix.lastIndexOf(':');
      const base = cut > 0 && SAFE.test(prefix.slice(0, cut)) ? prefix.slice(0, cut) : undefined;
      const out: string[] = [];
      for (const k of await storage.getKeys(base)) {
        const key = unescapeKey(k);
        if (key.startsWith(prefix)) out.push(key);
      }
      return out;
    },
    async close(): Promise<void> {
      await storage.dispose();
    },
  };
}
