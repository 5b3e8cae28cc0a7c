/**
 * The two-tier response cache: L1 a byte-bounded in-memory LRU, L2 the KeyValue (persistent,
 * shared between instances on Redis). Identical loads in flight are coalesced: however many
 * requests ask for one cold entry, the upstream work runs once.
 *
 * Next to a value, L1 keeps the rendered forms made from it ({@link ResponseCache.rendered}: a
 * transcript's bytes per format), within the same memory bound.
 *
 * Entries stay in L2 for `staleMs` past their freshness; when the upstream then fails with a
 * retryable error, the stale value is served (`X-Cache: STALE`) rather than an error.
 * @module
 */

import { sha256Hex } from '../core/digest.ts';
import { Flights } from '../core/flights.ts';
import { ByteLru } from '../core/lru.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Logger } from '../ports/logger.ts';
import type { Metrics } from './metrics.ts';

/** Where a value came from: L1 (`HIT`), L2, a stale copy after an upstream failure, or the upstream (`MISS`). */
export type CacheStatus = 'HIT' | 'L2' | 'STALE' | 'MISS';

/** A value and where it came from. */
export interface Cached<T> {
  value: T;
  status: CacheStatus;
}

interface Entry {
  v: unknown;
  /** Fresh until (epoch ms). */
  f: number;
  /**
   * The length of `{v, f}` as JSON, written with the entry, so that a read from L2 sizes its L1
   * copy without serialising the value again (entries written before it lack it).
   */
  s?: number;
}

/**
 * A rendered form as it is kept: UTF-8 bytes, or a `Blob` of them where the runtime's `Response`
 * takes a Blob as it is but copies a byte array (see `AppOptions.transcriptBodies`).
 */
export type RenderedBody = Uint8Array | Blob;

/** Which form rendered transcripts are kept and answered in (`AppOptions.transcriptBodies`). */
export type TranscriptBodies = 'bytes' | 'blob';

const bodySize = (body: RenderedBody): number => (body instanceof Uint8Array ? body.byteLength : body.size);

/** A rendered form of a value, and the other values (by identity) it was made from. */
interface Rendering {
  deps: readonly unknown[];
  body: RenderedBody;
}

/** What L1 keeps: the entry, its measured size, and the renderings made from it. */
interface Memo {
  e: Entry;
  size: number;
  renderings?: Map<string, Rendering>;
}

/** Cache lifetimes per kind of upstream data, in milliseconds. */
export interface CacheTtls {
  /** Player data (details and caption track list; track URLs expire after hours). */
  player: number;
  /** Parsed timed text of one track. */
  captions: number;
  /** Watch-page extras (likes, chapters, heatmap). */
  extras: number;
  channel: number;
  channelPage: number;
  latest: number;
  playlist: number;
  search: number;
  suggestions: number;
  /** A page of a video's comments or of a comment's replies. */
  comments: number;
}

/** Settings of {@link ResponseCache}. */
export interface CacheSettings {
  memoryBytes: number;
  staleMs: number;
}

const ORDER: Record<CacheStatus, number> = { HIT: 0, L2: 1, STALE: 2, MISS: 3 };

/** The status to report for a response built from several lookups: the "coldest" of them. */
export function combineStatus(...statuses: CacheStatus[]): CacheStatus {
  let out: CacheStatus = 'HIT';
  for (const s of statuses) if (ORDER[s] > ORDER[out]) out = s;
  return out;
}

/**
 * The L2 key of a cache key: the key itself when short, else its SHA-256 (continuation tokens
 * make keys of hundreds of characters, longer than a file name may be).
 */
async function l2Key(key: string): Promise<string> {
  if (key.length <= 120) return `cache:${key}`;
  return `cache:h:${await sha256Hex(key)}`;
}

/** The cache. */
export class ResponseCache {
  private readonly l1: ByteLru<Memo>;
  private readonly flights = new Flights<Cached<unknown>>();

  constructor(
    private readonly kv: KeyValue,
    private readonly clock: Clock,
    private readonly settings: CacheSettings,
    private readonly logger: Logger,
    /** Hears each lookup's result per tier, and L2 reads and writes that fail. */
    private readonly metrics?: Pick<Metrics, 'cache' | 'storageError'> | undefined,
    /**
     * Resolves when the event loop may run another step of work (the composition root passes the
     * process's slices, `drivers/background-turn.ts`): a fill serialises what it loaded in a turn
     * of its own once the load used up its turn's slice. By default, at once.
     */
    private readonly backgroundTurn?: () => Promise<void>,
  ) {
    this.l1 = new ByteLru(settings.memoryBytes);
  }

  /**
   * The value for `key`: from L1, else L2, else `load()` (coalesced with identical loads in
   * flight). `signal` only stops this caller waiting; a shared load runs to completion. A function
   * is asked for the signal only when there is something to wait for (not on an L1 hit).
   */
  async get<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    signal?: AbortSignal | (() => AbortSignal | undefined),
  ): Promise<Cached<T>> {
    const now = this.clock.now();
    const memory = this.l1.get(key)?.e;
    if (memory && memory.f > now) {
      this.metrics?.cache('memory', 'hit');
      return { value: memory.v as T, status: 'HIT' };
    }
    this.metrics?.cache('memory', memory ? 'stale' : 'miss');
    // Loads run on their own deadline (the loader's), so one caller leaving never fails the others.
    return this.flights.run(key, typeof signal === 'function' ? signal() : signal, () =>
      this.fill(key, ttlMs, load, memory),
    ) as Promise<Cached<T>>;
  }

  /**
   * A rendered form (`variant`) of `value`, the value cached under `key`: made by `render` once,
   * then kept next to it in L1 for as long as the value stays there, its bytes counted in the
   * memory bound. `deps` are the other values the rendering used, compared by identity (a new
   * one renders again). When `value` is not the L1 value (anymore), nothing is kept.
   */
  rendered<B extends RenderedBody>(
    key: string,
    value: unknown,
    variant: string,
    deps: readonly unknown[],
    render: () => B,
  ): B {
    const memo = this.l1.get(key);
    if (!memo || memo.e.v !== value) return render();
    const kept = memo.renderings?.get(variant);
    if (kept && kept.deps.length === deps.length && kept.deps.every((d, i) => d === deps[i]))
      return kept.body as B;
    const body = render();
    const renderings = memo.renderings ?? new Map<string, Rendering>();
    const size = memo.size - (kept ? bodySize(kept.body) + 64 : 0) + bodySize(body) + 64;
    // Never let renderings push the value itself out of L1.
    if (size > this.l1.capacity / 2) return body;
    renderings.set(variant, { deps, body });
    this.l1.set(key, { e: memo.e, size, renderings }, size);
    return body;
  }

  private async fill<T>(
    key: string,
    ttlMs: number,
    load: () => Promise<T>,
    memory: Entry | undefined,
  ): Promise<Cached<T>> {
    // The L1 copy may serve as a stale fallback only within `staleMs` past its freshness, as L2's.
    let stale = memory && memory.f + this.settings.staleMs > this.clock.now() ? memory : undefined;
    const persisted = await this.readL2(key);
    const fresh = persisted !== undefined && persisted.f > this.clock.now();
    this.metrics?.cache('persistent', fresh ? 'hit' : persisted ? 'stale' : 'miss');
    if (persisted) {
      if (fresh) {
        this.remember(key, persisted);
        return { value: persisted.v as T, status: 'L2' };
      }
      stale = persisted;
    }
    let value: T;
    try {
      value = await load();
    } catch (error) {
      if (stale && error instanceof ApiError && error.retryable) {
        this.logger.log('warn', 'serving stale cache entry after upstream failure', {
          key,
          code: error.code,
        });
        return { value: stale.v as T, status: 'STALE' };
      }
      throw error;
    }
    // Parsing a long transcript and serialising it each hold the loop for tens of milliseconds:
    // requests that arrive meanwhile are served between the two.
    await this.backgroundTurn?.();
    const entry: Entry = { v: value, f: this.clock.now() + ttlMs };
    // Made once: it sizes the L1 copy, and a store that keeps JSON keeps it (with its length).
    const json = JSON.stringify(entry);
    entry.s = json.length;
    const size = this.remember(key, entry);
    try {
      await this.kv.set(await l2Key(key), entry, {
        ttlMs: ttlMs + this.settings.staleMs,
        json: `${json.slice(0, -1)},"s":${entry.s}}`,
      });
    } catch (error) {
      this.metrics?.storageError('storage');
      this.logger.log('warn', 'cache L2 write failed', { key, size, error: String(error) });
    }
    return { value, status: 'MISS' };
  }

  private async readL2(key: string): Promise<Entry | undefined> {
    try {
      return await this.kv.get<Entry>(await l2Key(key));
    } catch (error) {
      this.metrics?.storageError('storage');
      this.logger.log('warn', 'cache L2 read failed', { key, error: String(error) });
      return undefined;
    }
  }

  private remember(key: string, entry: Entry): number {
    // UTF-16 code units × 2 approximates the bytes the parsed value holds in memory.
    const size = (entry.s ?? JSON.stringify(entry).length) * 2 + key.length * 2 + 64;
    this.l1.set(key, { e: entry, size }, size);
    return size;
  }
}
