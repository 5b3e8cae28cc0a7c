import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/fakes/clock.ts';
import { SeededRandom } from '../../test/fakes/random.ts';
import { DEFAULT_PLAN_ASSIGNMENT, DEFAULT_PLANS } from '../core/plans.ts';
import { DEFAULT_PACKS } from '../core/pricing.ts';
import { createMemoryKv } from '../drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../drivers/ledger-embedded.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import { Accounts } from './accounts.ts';

/** A KeyValue that counts reads. */
function counting(kv: KeyValue): { kv: KeyValue; reads: () => number } {
  let reads = 0;
  return {
    kv: {
      ...kv,
      get: (key) => {
        reads += 1;
        return kv.get(key);
      },
    } as KeyValue,
    reads: () => reads,
  };
}

function accountsOver(kv: KeyValue, ledger: Ledger, seed: number): Accounts {
  return new Accounts({
    kv,
    ledger,
    clock: new ManualClock(),
    random: new SeededRandom(seed),
    plans: DEFAULT_PLANS,
    planAssignment: DEFAULT_PLAN_ASSIGNMENT,
    packs: DEFAULT_PACKS,
  });
}

describe('callers of known keys, kept in memory (embedded ledger)', () => {
  it('reads storage for the first request of a key only, and refuses it at once once revoked', async () => {
    const clock = new ManualClock();
    const store = counting(createMemoryKv(clock));
    const ledger = createEmbeddedLedger({ clock });
    // Two services over one storage and ledger, as two apps embedded in one process would be.
    const [one, two] = [accountsOver(store.kv, ledger, 1), accountsOver(store.kv, ledger, 2)];
    const { api_key, key_id } = await one.createKey({ credits: 5 });
    await one.authenticate(api_key);
    await two.authenticate(api_key);
    const before = store.reads();
    for (let i = 0; i < 10; i++) {
      expect((await one.authenticate(api_key)).keyId).toBe(key_id);
      expect((await two.authenticate(api_key)).keyId).toBe(key_id);
    }
    expect(store.reads()).toBe(before);

    await one.revoke(key_id);
    await expect(two.authenticate(api_key)).rejects.toMatchObject({ code: 'invalid_api_key' });
    await expect(one.authenticate(api_key)).rejects.toMatchObject({ code: 'invalid_api_key' });
  });

  it('answers with the plan a pack moved the account to at once', async () => {
    const clock = new ManualClock();
    const kv = createMemoryKv(clock);
    const ledger = createEmbeddedLedger({ clock });
    const [one, two] = [accountsOver(kv, ledger, 1), accountsOver(kv, ledger, 2)];
    const { api_key, account_id } = await one.createKey({});
    expect((await two.authenticate(api_key)).plan.name).toBe('free');
    await one.grant(account_id, { pack: 'small' });
    expect((await two.authenticate(api_key)).plan.name).toBe('paid');
  });

  it('keeps nothing when the ledger cannot announce changes (shared without a broadcast)', async () => {
    const clock = new ManualClock();
    const store = counting(createMemoryKv(clock));
    const embedded = createEmbeddedLedger({ clock });
    const { broadcast: _b, onBroadcast: _o, ...withoutBroadcast } = embedded;
    const accounts = accountsOver(store.kv, withoutBroadcast, 1);
    const { api_key } = await accounts.createKey({});
    await accounts.authenticate(api_key);
    const before = store.reads();
    await accounts.authenticate(api_key);
    expect(store.reads()).toBeGreaterThan(before);
  });
});
