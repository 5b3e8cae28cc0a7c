import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from 'unstorage';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerContract, ledgerFigures } from '../../test/contracts/ledger.ts';
import { ManualClock } from '../../test/fakes/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import { createUnstorageKv } from './kv-unstorage.ts';
import { createEmbeddedLedger } from './ledger-embedded.ts';
import { atomicFsDriver } from './node/kv-fs.ts';

ledgerContract('embedded, in memory', async (clock) => ({ ledger: createEmbeddedLedger({ clock }) }));

ledgerContract('embedded, persisted to fs', async (clock) => {
  const dir = await mkdtemp(join(tmpdir(), 'tubescribe-ledger-'));
  const kv = () => createUnstorageKv(createStorage({ driver: atomicFsDriver({ base: dir }) }), { clock });
  return {
    ledger: createEmbeddedLedger({ clock, kv: kv() }),
    restart: async () => createEmbeddedLedger({ clock, kv: kv() }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe('embedded ledger persistence', () => {
  it('changes nothing when the write fails', async () => {
    const clock = new ManualClock();
    let fail = false;
    const store = new Map<string, unknown>();
    const kv: KeyValue = {
      get: async (k) => store.get(k) as never,
      set: async (k, v) => {
        if (fail) throw new Error('disk full');
        store.set(k, v);
      },
      delete: async (k) => {
        store.delete(k);
      },
      list: async (p) => [...store.keys()].filter((k) => k.startsWith(p)),
    };
    const ledger = createEmbeddedLedger({ clock, kv });
    await ledger.grant('a', 10, 'g');
    fail = true;
    await expect(ledger.reserve('a', 4, 'r', 1000)).rejects.toThrow('disk full');
    await expect(ledger.grant('a', 5, 'g2')).rejects.toThrow('disk full');
    fail = false;
    expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    expect(await ledger.grant('a', 5, 'g2')).toMatchObject({ applied: true, balance: 15 });
  });
});

afterAll(() => {
  if (Object.keys(ledgerFigures).length) console.log('Ledger figures:', ledgerFigures);
});
