/**
 * The bounded memory KeyValue: the contract holds, cache entries stay under the cap (least
 * recently used evicted first), other documents are never evicted, expired entries are swept.
 * @module
 */
import { describe, expect, it } from 'vitest';
import { kvContract } from '../../test/contracts/kv.ts';
import { ManualClock } from '../../test/fakes/clock.ts';
import { boundKv, DEFAULT_MAX_CACHE_BYTES } from './kv-bounded.ts';
import { createMapKv, createMemoryKv } from './kv-memory.ts';

kvContract('memory (bounded, default cap)', async (clock) => ({ kv: createMemoryKv(clock) }));
kvContract('memory (bounded, 4 KiB cap)', async (clock) => ({
  kv: createMemoryKv(clock, { maxCacheBytes: 4096 }),
}));

/** A value whose JSON is exactly `n` characters long. */
const sized = (n: number) => 'x'.repeat(n - 2);

describe('bounded memory KeyValue', () => {
  it('defaults to a 256 MiB cap', () => {
    expect(DEFAULT_MAX_CACHE_BYTES).toBe(256 * 1024 * 1024);
  });

  it('serialises a cache entry once: the size it is measured by is the JSON the store keeps', async () => {
    const kv = createMemoryKv(new ManualClock());
    let serialised = 0;
    const doc = {
      toJSON: () => {
        serialised++;
        return { segments: ['a', 'b'] };
      },
    };
    await kv.set('cache:doc', doc);
    expect(serialised).toBe(1);
    expect(kv.cacheBytes).toBe(JSON.stringify({ segments: ['a', 'b'] }).length);
    expect(await kv.get('cache:doc')).toEqual({ segments: ['a', 'b'] });
    await kv.set('account:x', doc); // not a cache entry: serialised once by the store
    expect(serialised).toBe(2);
  });

  it('keeps cache entries under the cap, evicting the least recently used first', async () => {
    const kv = createMemoryKv(new ManualClock(), { maxCacheBytes: 1000 });
    for (const k of ['a', 'b', 'c', 'd']) await kv.set(`cache:${k}`, sized(300));
    // a was evicted by d; reading b makes c the oldest.
    expect(kv.cacheBytes).toBe(900);
    expect(await kv.get('cache:a')).toBeUndefined();
    expect(await kv.get('cache:b')).toBe(sized(300));
    await kv.set('cache:e', sized(300));
    expect(await kv.get('cache:c')).toBeUndefined();
    expect(await kv.get('cache:b')).toBe(sized(300));
    expect(await kv.get('cache:d')).toBe(sized(300));
    expect(await kv.get('cache:e')).toBe(sized(300));
    expect((await kv.list('cache:')).sort()).toEqual(['cache:b', 'cache:d', 'cache:e']);
    expect(kv.cacheBytes).toBeLessThanOrEqual(1000);
  });

  it('never evicts documents that are not cache entries, however large', async () => {
    const kv = createMemoryKv(new ManualClock(), { maxCacheBytes: 100 });
    const docs = { 'account:1': sized(5000), 'key:abc': sized(5000), 'job:9': { tasks: sized(5000) } };
    for (const [k, v] of Object.entries(docs)) await kv.set(k, v);
    for (let i = 0; i < 20; i++) await kv.set(`cache:${i}`, sized(60));
    for (const [k, v] of Object.entries(docs)) expect(await kv.get(k)).toEqual(v);
    expect(kv.cacheBytes).toBeLessThanOrEqual(100);
    expect(await kv.list('cache:')).toEqual(['cache:19']);
  });

  it('overwrites and deletes keep the figures right; an entry over the whole cap is not kept', async () => {
    const kv = createMemoryKv(new ManualClock(), { maxCacheBytes: 1000 });
    await kv.set('cache:a', sized(300));
    await kv.set('cache:a', sized(500));
    expect(kv.cacheBytes).toBe(500);
    await kv.delete('cache:a');
    expect(kv.cacheBytes).toBe(0);
    await kv.set('cache:b', sized(10));
    await kv.set('cache:b', sized(1001));
    expect(await kv.get('cache:b')).toBeUndefined();
    expect(kv.cacheBytes).toBe(0);
  });

  it('sweeps expired entries of any kind out of memory; live ones stay', async () => {
    const clock = new ManualClock();
    const kv = createMemoryKv(clock);
    await kv.set('cache:old', sized(100), { ttlMs: 1000 });
    await kv.set('signup:old', { code: '1' }, { ttlMs: 1000 });
    await kv.set('signup:live', { code: '2' }, { ttlMs: 3_600_000 });
    await kv.set('account:1', { id: 1 });
    clock.advance(61_000);
    await kv.set('cache:new', sized(100));
    expect((await kv.list('')).sort()).toEqual(['account:1', 'cache:new', 'signup:live']);
    expect(kv.cacheBytes).toBe(100);
  });

  it('an expired cache entry read before a sweep is dropped from the figures', async () => {
    const clock = new ManualClock();
    const kv = boundKv(createMemoryKv(clock), { clock, maxCacheBytes: 1000, sweepEveryMs: 3_600_000 });
    await kv.set('cache:a', sized(100), { ttlMs: 10 });
    clock.advance(11);
    expect(await kv.get('cache:a')).toBeUndefined();
    expect(kv.cacheBytes).toBe(0);
    expect(await kv.list('cache:')).toEqual([]);
  });

  it('spreads a sweep over the writes that follow, a step each, until every expired entry is gone', async () => {
    const clock = new ManualClock();
    const inner = createMapKv(clock);
    const deleted: string[] = [];
    const counting = {
      ...inner,
      delete: (key: string) => {
        deleted.push(key);
        return inner.delete(key);
      },
    };
    const kv = boundKv(counting, { clock, sweepEveryMs: 1000, sweepStep: 10 });
    for (let i = 0; i < 25; i++) await kv.set(`signup:${i}`, { i }, { ttlMs: 500 });
    await kv.set('signup:live', { live: true }, { ttlMs: 60_000 });
    clock.advance(1000);
    const perWrite: number[] = [];
    for (let w = 0; w < 4; w++) {
      const before = deleted.length;
      await kv.set(`cache:w${w}`, sized(10));
      perWrite.push(deleted.length - before);
    }
    // 26 entries with a lifetime: the steps look at 10, 10 and 6 of them (the live one stays).
    expect(perWrite).toEqual([10, 10, 5, 0]);
    expect((await kv.list('signup:')).sort()).toEqual(['signup:live']);
    // The next sweep starts only when due again.
    await kv.set('signup:short', { s: 1 }, { ttlMs: 1 });
    clock.advance(500);
    await kv.set('cache:x', sized(10));
    expect(await kv.list('signup:short')).toEqual(['signup:short']);
    clock.advance(500);
    await kv.set('cache:y', sized(10));
    expect(await kv.list('signup:short')).toEqual([]);
  });
});
