import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { createStorage } from 'unstorage';
import memoryDriver from 'unstorage/drivers/memory';
import { describe, expect, it, vi } from 'vitest';
import { kvContract } from '../../test/contracts/kv.ts';
import { ManualClock } from '../../test/fakes/clock.ts';
import { connect, deleteKeys, describeRedis, redisUrl, uniquePrefix } from '../../test/helpers/redis.ts';
import { createUnstorageKv, escapeKey, unescapeKey } from './kv-unstorage.ts';
import { atomicFsDriver, createFsKv } from './node/kv-fs.ts';
import { openRedisStorage } from './redis/storage.ts';

kvContract('unstorage memory', async (clock) => ({
  kv: createUnstorageKv(createStorage({ driver: memoryDriver() }), { clock }),
}));

kvContract('unstorage fs (atomic)', async (clock) => {
  const dir = await mkdtemp(join(tmpdir(), 'tubescribe-kv-'));
  return {
    kv: createUnstorageKv(createStorage({ driver: atomicFsDriver({ base: dir }) }), { clock }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

kvContract('unstorage fs (atomic), reads taken as copies', async (clock) => {
  const dir = await mkdtemp(join(tmpdir(), 'tubescribe-kv-'));
  return {
    kv: createFsKv(dir, clock),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('reads taken as copies (readsAreCopies)', () => {
  it('does not copy a value a driver parsed anew, and copies one a driver holds', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tubescribe-kv-'));
    const clock = new ManualClock();
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      const fs = createFsKv(dir, clock);
      await fs.set('doc', { words: ['a', 'b'] });
      clone.mockClear();
      expect(await fs.get('doc')).toEqual({ words: ['a', 'b'] });
      expect(clone).not.toHaveBeenCalled();
      const memory = createUnstorageKv(createStorage({ driver: memoryDriver() }), { clock });
      await memory.set('doc', { words: ['a'] });
      await memory.get('doc');
      expect(clone).toHaveBeenCalledTimes(1);
    } finally {
      clone.mockRestore();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('key escaping', () => {
  it('round-trips every string and produces only safe characters', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'grapheme' }),
          fc.string({ unit: fc.constantFrom(':', 'a', '~', '.', '/', '?') }),
        ),
        (key) => {
          const escaped = escapeKey(key);
          expect(escaped).toMatch(/^[A-Za-z0-9_:~-]*$/);
          expect(unescapeKey(escaped)).toBe(key);
          // unstorage collapses empty segments: an escaped key never has one.
          expect(escaped.split(':').every((part) => part !== '') || escaped === '').toBe(true);
        },
      ),
    );
  });

  it('leaves plain keys alone', () => {
    expect(escapeKey('account:acc_123-x')).toBe('account:acc_123-x');
  });
});

describeRedis('KeyValue over Redis', () => {
  kvContract('unstorage redis', async (clock) => {
    const prefix = uniquePrefix('kv');
    const storage = await openRedisStorage(redisUrl!, { prefix, clock });
    const admin = await connect();
    return {
      kv: storage.kv,
      cleanup: async () => {
        await deleteKeys(admin, prefix);
        await admin.quit();
        await storage.close();
      },
    };
  });
});
