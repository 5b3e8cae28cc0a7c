import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createStorage } from 'unstorage';
import { afterAll, describe, expect, it } from 'vitest';
import { ledgerContract, ledgerFigures } from '../../test/contracts/ledger.ts';
import { ManualClock } from '../../test/fakes/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import { createUnstorageKv } from './kv-unstorage.ts';
import { COMPACT_EVERY, createEmbeddedLedger } from './ledger-embedded.ts';
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
    const payment = { account: 'a', price: 3, cost: 3, paymentId: 'p', usage: { operation: 'transcript' } };
    await expect(ledger.admitPaid!('acct:a', [], payment)).rejects.toThrow('disk full');
    fail = false;
    await ledger.voidPayment!(payment); // nothing to undo: the failed payment changed nothing
    expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    expect(await ledger.usage!('a', [new Date(clock.now()).toISOString().slice(0, 10)])).toEqual([]);
    expect(await ledger.grant('a', 5, 'g2')).toMatchObject({ applied: true, balance: 15 });
  });
});

describe('embedded ledger journal', () => {
  const mapKv = (store: Map<string, unknown>): KeyValue => ({
    get: async (k) => structuredClone(store.get(k)) as never,
    set: async (k, v) => {
      store.set(k, structuredClone(v));
    },
    delete: async (k) => {
      store.delete(k);
    },
    list: async (p) => [...store.keys()].filter((k) => k.startsWith(p)),
  });

  it('writes one small entry per operation (payments included), folds them into account documents, and restarts exact', async () => {
    const clock = new ManualClock();
    const store = new Map<string, unknown>();
    const ledger = createEmbeddedLedger({ clock, kv: mapKv(store) });
    await ledger.grant('a', 10_000, 'g');
    const calls = COMPACT_EVERY * 2 + 7;
    const payments = Math.ceil(calls / 4);
    for (let i = 0; i < calls; i++) {
      await ledger.reserve('a', 2, `r${i}`, 60_000);
      await (i % 3 === 0 ? ledger.release(`r${i}`) : ledger.commit(`r${i}`));
      if (i % 4 === 0) {
        const payment = {
          account: 'a',
          price: 1,
          cost: 1,
          paymentId: `p${i}`,
          usage: { operation: 'transcript' },
        };
        expect((await ledger.admitPaid!('acct:a', [], payment)).paid?.ok).toBe(true);
      }
    }
    await ledger.reserve('a', 5, 'open', 60_000);
    await ledger.credits('a'); // runs after the compactions queued so far
    const journal = [...store.keys()].filter((k) => k.startsWith('ledger:op:'));
    expect(journal.length).toBeLessThan(COMPACT_EVERY);
    expect(store.has('ledger:acct:a')).toBe(true);
    const expected = await ledger.credits('a');
    const spent = 2 * (calls - Math.ceil(calls / 3)) + payments;
    expect(expected).toEqual({ balance: 10_000 - spent - 5, reserved: 5, spent, granted: 10_000 });
    const restarted = createEmbeddedLedger({ clock, kv: mapKv(store) });
    expect(await restarted.credits('a')).toEqual(expected);
    const day = new Date(clock.now()).toISOString().slice(0, 10);
    expect(await restarted.usage!('a', [day])).toEqual([
      { date: day, requests: payments, credits: payments, by_operation: { transcript: payments } },
    ]);
    expect(await restarted.commit('open')).toBe(true);
    expect(await restarted.grant('a', 1, 'g')).toMatchObject({ applied: false });
  });

  it('replays only the entries an account document does not include yet (a compaction cut short)', async () => {
    const clock = new ManualClock();
    const store = new Map<string, unknown>();
    const ledger = createEmbeddedLedger({ clock, kv: mapKv(store) });
    await ledger.grant('a', 100, 'ga');
    await ledger.grant('b', 100, 'gb');
    await ledger.reserve('a', 10, 'ra', 60_000);
    await ledger.reserve('b', 20, 'rb', 60_000);
    // A compaction that wrote a's document (stamped with the last entry) and then stopped.
    store.set('ledger:acct:a', {
      balance: 90,
      reserved: 10,
      spent: 0,
      granted: 100,
      holds: { ra: { cost: 10, expiresAt: clock.now() + 60_000 } },
      grants: { ga: 100 },
      seq: 4,
    });
    const restarted = createEmbeddedLedger({ clock, kv: mapKv(store) });
    expect(await restarted.credits('a')).toEqual({ balance: 90, reserved: 10, spent: 0, granted: 100 });
    expect(await restarted.credits('b')).toEqual({ balance: 80, reserved: 20, spent: 0, granted: 100 });
  });

  it('admits and reserves in one step, and reserves nothing for a refused hit', async () => {
    const ledger = createEmbeddedLedger({ clock: new ManualClock() });
    await ledger.grant('a', 1, 'g');
    const rules = [{ limit: 1, window: 60 }];
    const first = await ledger.admit!('acct:a', rules, {
      account: 'a',
      cost: 1,
      reservationId: 'r1',
      ttlMs: 1000,
    });
    expect(first.decision.allowed).toBe(true);
    expect(first.reserved).toEqual({ ok: true, balance: 0 });
    const second = await ledger.admit!('acct:a', rules, {
      account: 'a',
      cost: 1,
      reservationId: 'r2',
      ttlMs: 1000,
    });
    expect(second.decision.allowed).toBe(false);
    expect(second.reserved).toBeUndefined();
    expect(await ledger.credits('a')).toEqual({ balance: 0, reserved: 1, spent: 0, granted: 1 });
  });
});

afterAll(() => {
  if (Object.keys(ledgerFigures).length) console.log('Ledger figures:', ledgerFigures);
});
