import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteLru } from './lru.ts';

describe('ByteLru', () => {
  it('evicts the least recently used entries past its byte capacity', () => {
    const lru = new ByteLru<string>(10);
    lru.set('a', 'A', 4);
    lru.set('b', 'B', 4);
    expect(lru.get('a')).toBe('A'); // a is now newer than b
    lru.set('c', 'C', 4); // 12 > 10: evict b
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe('A');
    expect(lru.get('c')).toBe('C');
    expect(lru.size).toBe(8);
  });

  it('never stores an entry bigger than the capacity', () => {
    const lru = new ByteLru<string>(5);
    lru.set('big', 'x', 6);
    expect(lru.get('big')).toBeUndefined();
    expect(lru.size).toBe(0);
  });

  it('replaces an entry and accounts its new size', () => {
    const lru = new ByteLru<number>(100);
    lru.set('k', 1, 10);
    lru.set('k', 2, 30);
    expect(lru.get('k')).toBe(2);
    expect(lru.size).toBe(30);
    expect(lru.count).toBe(1);
    lru.delete('k');
    expect(lru.size).toBe(0);
  });

  it('keeps its size within capacity and equal to the sum of entries (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 64 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), fc.integer({ min: 0, max: 40 }))),
        (capacity, ops) => {
          const lru = new ByteLru<number>(capacity);
          const sizes = new Map<string, number>();
          for (const [key, size] of ops) {
            lru.set(key, size, size);
            sizes.set(key, size);
            expect(lru.size).toBeLessThanOrEqual(capacity);
          }
          let sum = 0;
          for (const key of sizes.keys()) {
            const v = lru.get(key);
            if (v !== undefined) sum += v;
          }
          expect(sum).toBe(lru.size);
        },
      ),
    );
  });
});
