import { describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../test/fakes/clock.ts';
import { createMemoryKv } from '../drivers/kv-memory.ts';
import { silentLogger } from '../drivers/system.ts';
import { ResponseCache } from './cache.ts';

/** A cache of `memoryBytes` with `value` cached under 'k'. */
async function cacheHolding(value: unknown, memoryBytes: number): Promise<ResponseCache> {
  const clock = new ManualClock();
  const cache = new ResponseCache(createMemoryKv(clock), clock, { memoryBytes, staleMs: 0 }, silentLogger);
  await cache.get('k', 60_000, async () => value);
  return cache;
}

describe('ResponseCache fills', () => {
  it('serialises a value it fills once: for its memory size and for the store', async () => {
    const clock = new ManualClock();
    const kv = createMemoryKv(clock);
    const cache = new ResponseCache(kv, clock, { memoryBytes: 1 << 20, staleMs: 0 }, silentLogger);
    let serialised = 0;
    const value = {
      toJSON: () => {
        serialised++;
        return { segments: ['a'] };
      },
    };
    await cache.get('k', 60_000, async () => value);
    expect(serialised).toBe(1);
    expect(kv.cacheBytes).toBeGreaterThan(0);
    expect((await kv.list('cache:')).length).toBe(1);
  });
});

describe('ResponseCache fills in turns', () => {
  it('lets the event loop turn between loading a value and serialising it; a hit from memory never waits', async () => {
    const clock = new ManualClock();
    const steps: string[] = [];
    const turn = async () => {
      steps.push('turn');
    };
    const kv = createMemoryKv(clock);
    const cache = new ResponseCache(
      kv,
      clock,
      { memoryBytes: 1 << 20, staleMs: 0 },
      silentLogger,
      undefined,
      turn,
    );
    const value = {
      toJSON: () => {
        steps.push('serialise');
        return { segments: ['a'] };
      },
    };
    await cache.get('k', 60_000, async () => {
      steps.push('load');
      return value;
    });
    expect(steps).toEqual(['load', 'turn', 'serialise']);
    steps.length = 0;
    expect((await cache.get('k', 60_000, async () => value)).status).toBe('HIT');
    expect(steps).toEqual([]);
  });
});

describe('ResponseCache reads from L2', () => {
  it('sizes the L1 copy of an entry read from L2 by the length written with it, without serialising it; an older entry without one still serves', async () => {
    const clock = new ManualClock();
    const kv = createMemoryKv(clock);
    const settings = { memoryBytes: 1 << 20, staleMs: 0 };
    await new ResponseCache(kv, clock, settings, silentLogger).get('k', 60_000, async () => ({ a: [1, 2] }));
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      const other = new ResponseCache(kv, clock, settings, silentLogger); // another instance: empty L1
      const read = await other.get('k', 60_000, async () => 'not called');
      expect(read).toEqual({ value: { a: [1, 2] }, status: 'L2' });
      expect(stringify).not.toHaveBeenCalled();
      // Written by an older version: no length with it.
      await kv.set('cache:old', { v: { b: 1 }, f: clock.now() + 60_000 });
      stringify.mockClear();
      expect(await other.get('old', 60_000, async () => 'not called')).toEqual({
        value: { b: 1 },
        status: 'L2',
      });
      expect(stringify).toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });
});

describe('ResponseCache renderings', () => {
  it('keeps a Blob rendering like a byte one: made once, the same object answered after', async () => {
    const value = { text: 'parsed' };
    const cache = await cacheHolding(value, 1 << 20);
    let renders = 0;
    const render = () => {
      renders++;
      return new Blob(['rendered body']);
    };
    const first = cache.rendered('k', value, 'srt', [], render);
    expect(cache.rendered('k', value, 'srt', [], render)).toBe(first);
    expect(renders).toBe(1);
    expect(await first.text()).toBe('rendered body');
  });

  it("counts a Blob's size in the memory bound: one over half of it is answered but not kept", async () => {
    const value = { text: 'parsed' };
    const cache = await cacheHolding(value, 64 * 1024);
    let renders = 0;
    const big = () => {
      renders++;
      return new Blob([new Uint8Array(40 * 1024)]);
    };
    expect(cache.rendered('k', value, 'json3', [], big).size).toBe(40 * 1024);
    cache.rendered('k', value, 'json3', [], big);
    expect(renders).toBe(2);
    // A small one is kept.
    const small = () => {
      renders++;
      return new Blob([new Uint8Array(1024)]);
    };
    cache.rendered('k', value, 'text', [], small);
    cache.rendered('k', value, 'text', [], small);
    expect(renders).toBe(3);
  });
});
