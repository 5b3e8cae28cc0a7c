/**
 * The KeyValue contract: every KeyValue implementation runs this suite.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { KeyValue } from '../../src/ports/kv.ts';
import { ManualClock } from '../fakes/clock.ts';

/** What a factory hands the suite. */
export interface KvUnderTest {
  kv: KeyValue;
  cleanup?: () => Promise<void>;
}

/** Runs the contract against the KeyValue `create` builds on the given clock. */
export function kvContract(name: string, create: (clock: ManualClock) => Promise<KvUnderTest>): void {
  describe(`KeyValue contract: ${name}`, () => {
    let clock: ManualClock;
    let subject: KvUnderTest;
    let kv: KeyValue;
    beforeEach(async () => {
      clock = new ManualClock();
      subject = await create(clock);
      kv = subject.kv;
    });
    afterEach(async () => {
      await subject.cleanup?.();
    });

    it('returns undefined for a missing key', async () => {
      expect(await kv.get('missing:key')).toBeUndefined();
    });

    it('round-trips JSON values and returns copies', async () => {
      const value = { a: 1, b: ['x', { c: true }], d: null, e: 'ünï😀' };
      await kv.set('doc:1', value);
      const first = await kv.get<typeof value>('doc:1');
      expect(first).toEqual(value);
      (first as { a: number }).a = 99;
      expect(await kv.get('doc:1')).toEqual(value);
      await kv.set('num', 0);
      expect(await kv.get('num')).toBe(0);
      await kv.set('str', '');
      expect(await kv.get('str')).toBe('');
    });

    it('keeps a value set with its JSON made by the caller (json) as it keeps the value, lifetime included', async () => {
      const value = { segments: [{ text: 'ünï "q"', start: 1.5 }], n: null };
      await kv.set('cache:j', value, { json: JSON.stringify(value), ttlMs: 1000 });
      await kv.set('cache:plain', 'text', { json: JSON.stringify('text') });
      expect(await kv.get('cache:j')).toEqual(value);
      expect(await kv.get('cache:plain')).toBe('text');
      clock.advance(1000);
      expect(await kv.get('cache:j')).toBeUndefined();
      expect(await kv.get('cache:plain')).toBe('text');
    });

    it('overwrites and deletes', async () => {
      await kv.set('k', 1);
      await kv.set('k', 2);
      expect(await kv.get('k')).toBe(2);
      await kv.delete('k');
      expect(await kv.get('k')).toBeUndefined();
      await kv.delete('k');
    });

    it('expires values by the injected clock', async () => {
      await kv.set('t', 'v', { ttlMs: 1000 });
      clock.advance(999);
      expect(await kv.get('t')).toBe('v');
      clock.advance(1);
      expect(await kv.get('t')).toBeUndefined();
    });

    it('accepts any string as a key and lists by prefix', async () => {
      const keys = ['p:a/b', 'p:c?d=1', 'p:..', 'p:sp ace', 'p:ümlaut', 'p:e@x.com', 'q:other', 'p:~7e'];
      for (const k of keys) await kv.set(k, k);
      for (const k of keys) expect(await kv.get(k)).toBe(k);
      const listed = (await kv.list('p:')).sort();
      expect(listed).toEqual(keys.filter((k) => k.startsWith('p:')).sort());
    });

    it('lets a key be the prefix of other keys', async () => {
      await kv.set('tree:a', 1);
      await kv.set('tree:a:b', 2);
      await kv.set('tree:a:b:c', 3);
      expect([await kv.get('tree:a'), await kv.get('tree:a:b'), await kv.get('tree:a:b:c')]).toEqual([
        1, 2, 3,
      ]);
      expect((await kv.list('tree:a')).sort()).toEqual(['tree:a', 'tree:a:b', 'tree:a:b:c']);
    });

    it('keeps distinct keys distinct (property)', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 6 }),
          async (names) => {
            for (const n of names) await kv.set(`prop:${n}`, n);
            for (const n of names) expect(await kv.get(`prop:${n}`)).toBe(n);
            for (const n of names) await kv.delete(`prop:${n}`);
          },
        ),
        { numRuns: 25 },
      );
    });
  });
}
