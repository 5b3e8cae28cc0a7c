/**
 * The overview's recent batch jobs: an account's own, newest first, at most 10, read by number
 * without listing the store (which would read every account's jobs, and on Redis scan the whole
 * keyspace); a job that is gone is skipped.
 */
import { describe, expect, it } from 'vitest';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import type { KeyValue } from '../../src/ports/kv.ts';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { testApp } from '../helpers/app.ts';

/** A memory store that counts its `list` calls. */
function countingKv(clock: ManualClock): { kv: KeyValue; lists: () => number } {
  const inner = createMemoryKv(clock);
  let lists = 0;
  const kv: KeyValue = {
    get: (key) => inner.get(key),
    set: (key, value, options) => inner.set(key, value, options),
    delete: (key) => inner.delete(key),
    list: (prefix) => {
      lists++;
      return inner.list(prefix);
    },
  };
  return { kv, lists: () => lists };
}

describe('dashboard: recent batch jobs', () => {
  it("shows the account's own 10 newest jobs, newest first, without listing the store; a gone job is skipped", async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const store = countingKv(clock);
    const t = await testApp({ clock, kv: store.kv });
    const alice = await t.key(1_000);
    const bob = await t.key(1_000);
    const submit = async (key: string) => {
      clock.advance(1_000);
      const res = await t.call('/v1/batch', {
        key,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tasks: [{ type: 'basic_info', video_id: VIDEO }] }),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { id: string }).id;
    };
    const alices: string[] = [];
    const bobs: string[] = [];
    for (let i = 0; i < 12; i++) {
      alices.push(await submit(alice.api_key));
      if (i % 4 === 0) bobs.push(await submit(bob.api_key));
    }
    const recent = (accountId: string) => t.ts.services.dashboard.data.recentJobs(accountId);
    const listsBefore = store.lists();

    expect((await recent(alice.account_id)).map((job) => job.id)).toEqual(alices.slice(2).reverse());
    expect((await recent(bob.account_id)).map((job) => job.id)).toEqual(bobs.slice().reverse());
    expect(store.lists()).toBe(listsBefore);

    // Alice's newest job is gone (as after its retention): the next older one fills the tenth place.
    await store.kv.delete(`batch:${alices[11]}`);
    expect((await recent(alice.account_id)).map((job) => job.id)).toEqual(alices.slice(1, 11).reverse());

    // An account without jobs, and every job past its storage lifetime: nothing to show.
    expect(await recent((await t.key(10)).account_id)).toEqual([]);
    clock.advance(30 * 86_400_000);
    expect(await recent(alice.account_id)).toEqual([]);
    await t.ts.close();
  });
});
