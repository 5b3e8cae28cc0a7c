import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { ledgerContract } from '../../../test/contracts/ledger.ts';
import { ManualClock } from '../../../test/fakes/clock.ts';
import { connect, deleteKeys, describeRedis, uniquePrefix } from '../../../test/helpers/redis.ts';
import type { Ledger } from '../../ports/ledger.ts';
import { createRedisLedger, PAYMENT_SLICE_MS } from './ledger.ts';
import { MAX_BATCH } from './turn-batch.ts';

/** The client, except that its next script call fails without reaching Redis (a link down). */
const failingOnce = (real: Redis): Redis => {
  let failed = false;
  return new Proxy(real, {
    get(target, name, receiver) {
      if (name === 'evalsha' && !failed) {
        failed = true;
        return () => Promise.reject(new Error('Connection is closed.'));
      }
      const value = Reflect.get(target, name, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

describeRedis('Redis ledger', () => {
  ledgerContract('redis', async (clock) => {
    const client = await connect();
    const prefix = uniquePrefix('ledger');
    return {
      ledger: createRedisLedger({ client, prefix, clock }),
      restart: async () => createRedisLedger({ client, prefix, clock }),
      cleanup: async () => {
        await deleteKeys(client, prefix);
        await client.quit();
      },
    };
  });
});

describeRedis('Redis ledger: what a charged call leaves in Redis', () => {
  it('200 admitted, reserved and committed calls leave the same keys as one (no key per call), and a repeat while open answers the first result', async () => {
    const client = await connect();
    const prefix = uniquePrefix('ledger-keys');
    const ledger = createRedisLedger({ client, prefix });
    const rules = [{ limit: 1_000, window: 60 }];
    const keysNow = async () => (await client.keys(`*${prefix}*`)).sort();
    try {
      await ledger.grant('a', 1_000, 'g');
      const call = async (i: number) => {
        const { reserved } = await ledger.admit!('acct:a', rules, {
          account: 'a',
          cost: 2,
          reservationId: `r${i}`,
          ttlMs: 60_000,
        });
        expect(reserved).toEqual({ ok: true, balance: 1_000 - 2 * (i + 1) });
        // A repeat of the open reservation answers its first result and reserves nothing more.
        expect(await ledger.reserve('a', 2, `r${i}`, 60_000)).toEqual(reserved);
        expect(await ledger.commit(`r${i}`, { operation: 'transcript' })).toBe(true);
      };
      await call(0);
      const afterOne = await keysNow();
      for (let i = 1; i < 200; i++) await call(i);
      expect(await keysNow()).toEqual(afterOne);
      expect(await ledger.credits('a')).toEqual({ balance: 600, reserved: 0, spent: 400, granted: 1_000 });
    } finally {
      await deleteKeys(client, prefix);
      await client.quit();
    }
  });
});

describeRedis('Redis ledger: settling the holds an instance made (deleted unread, cost remembered)', () => {
  let client: Redis;
  let prefix: string;
  beforeEach(async () => {
    client = await connect();
    prefix = uniquePrefix('ledger-mine');
  });
  afterEach(async () => {
    await deleteKeys(client, prefix);
    await client.quit();
  });

  it("a reservation id reused for another account answers the first hold, and settling it moves only the first account's credits", async () => {
    const ledger = createRedisLedger({ client, prefix });
    await ledger.grant('a', 10, 'ga');
    await ledger.grant('b', 10, 'gb');
    const first = await ledger.reserve('a', 2, 'shared', 60_000);
    expect(await ledger.reserve('b', 5, 'shared', 60_000)).toEqual(first);
    expect(await ledger.commit('shared')).toBe(true);
    expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
    expect(await ledger.credits('b')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    // The other order: an instance that learned of the hold only from a repeat reads it first.
    const other = createRedisLedger({ client, prefix });
    await ledger.reserve('a', 3, 'again', 60_000);
    expect(await other.reserve('b', 4, 'again', 60_000)).toEqual({ ok: true, balance: 5 });
    expect(await other.commit('again')).toBe(false); // the hold is a's: b's memory settles nothing
    expect(await ledger.commit('again')).toBe(true);
    expect(await ledger.credits('a')).toEqual({ balance: 5, reserved: 0, spent: 5, granted: 10 });
    expect(await ledger.credits('b')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
  });

  it('a hold settled by another instance first (or released as expired) is settled by its maker only once', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const maker = createRedisLedger({ client, prefix, clock });
    const other = createRedisLedger({ client, prefix, clock });
    await maker.grant('a', 10, 'g');
    await maker.reserve('a', 4, 'r1', 60_000);
    expect(await other.release('r1')).toBe(true);
    expect(await maker.commit('r1')).toBe(false);
    await maker.reserve('a', 3, 'r2', 60_000);
    clock.advance(60_000);
    expect(await other.reconcile()).toBe(1);
    expect(await maker.commit('r2')).toBe(false);
    expect(await maker.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    expect(await client.zcard(`{${prefix}c}:hold-expiry`)).toBe(0);
  });

  it('settles holds of nothing and balances past 10^14 exactly (the scripts write whole numbers as text)', async () => {
    const maker = createRedisLedger({ client, prefix });
    const other = createRedisLedger({ client, prefix });
    await maker.grant('a', 10, 'g');
    // A hold of 0 credits, settled with the remembered cost and with the cost read from the hold.
    expect(await maker.reserve('a', 0, 'free1', 60_000)).toEqual({ ok: true, balance: 10 });
    expect(await maker.commit('free1', { operation: 'transcript' })).toBe(true);
    expect(await maker.reserve('a', 0, 'free2', 60_000)).toEqual({ ok: true, balance: 10 });
    expect(await other.release('free2', { operation: 'transcript' })).toBe(true);
    expect(await maker.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    // A balance Lua would print as 1e+14 with `..`: the hold, the reply and the account keep its digits.
    const big = 123_456_789_012_347;
    expect(await maker.grant('b', big, 'gb')).toEqual({ applied: true, balance: big });
    expect(await maker.reserve('b', 5, 'big1', 60_000)).toEqual({ ok: true, balance: big - 5 });
    expect(await other.reserve('b', 5, 'big1', 60_000)).toEqual({ ok: true, balance: big - 5 });
    expect(await other.commit('big1')).toBe(true);
    const rules = [{ limit: 100, window: 60 }];
    const payment = { account: 'b', price: 1, cost: 1, usage: { operation: 'transcript' as const } };
    const paid = await maker.admitPaid!('acct:b', rules, { ...payment, paymentId: 'p-big' });
    expect(paid.paid).toEqual({ ok: true, balance: big - 6 });
    // Two payments in one turn go in one script call (the together script).
    const both = await Promise.all(
      ['p-big2', 'p-big3'].map((paymentId) => maker.admitPaid!('acct:b', rules, { ...payment, paymentId })),
    );
    expect(both.map((answer) => answer.paid)).toEqual([
      { ok: true, balance: big - 7 },
      { ok: true, balance: big - 8 },
    ]);
    expect(await maker.credits('b')).toEqual({ balance: big - 8, reserved: 0, spent: 8, granted: big });
  });
});

describeRedis('Redis ledger: admission with payment (admitPaid, voidPayment)', () => {
  const rules = [{ limit: 3, window: 60 }];
  const day = '2026-03-01';
  const transcript = { operation: 'transcript' };
  const payment = (paymentId: string, price = 2, cost = price) => ({
    account: 'a',
    price,
    cost,
    paymentId,
    usage: transcript,
  });
  let client: Redis;
  let prefix: string;
  let clock: ManualClock;
  let ledger: Ledger;
  beforeEach(async () => {
    client = await connect();
    prefix = uniquePrefix('ledger-paid');
    clock = new ManualClock('2026-03-01T10:00:00.000Z');
    ledger = createRedisLedger({ client, prefix, clock });
    await ledger.grant('a', 10, 'g');
  });
  afterEach(async () => {
    await deleteKeys(client, prefix);
    await client.quit();
  });

  it('pays and meters in one step; a repeat answers the first outcome and changes nothing', async () => {
    const first = await ledger.admitPaid!('acct:a', rules, payment('p1'));
    expect(first.decision.allowed).toBe(true);
    expect(first.decision.rules[0]).toMatchObject({ limit: 3, remaining: 2 });
    expect(first.paid).toEqual({ ok: true, balance: 8 });
    expect(await ledger.admitPaid!('acct:a', rules, payment('p1'))).toEqual(first);
    expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
    expect(await ledger.usage!('a', [day])).toEqual([
      { date: day, requests: 1, credits: 2, by_operation: { transcript: 1 } },
    ]);
    // The repeat was not counted as a hit either: two more fit under the limit of 3.
    expect((await ledger.admitPaid!('acct:a', rules, payment('p2'))).decision.allowed).toBe(true);
    expect((await ledger.admitPaid!('acct:a', rules, payment('p3'))).decision.allowed).toBe(true);
    const refused = await ledger.admitPaid!('acct:a', rules, payment('p4'));
    expect(refused.decision.allowed).toBe(false);
    expect(refused.paid).toBeUndefined();
    expect(await ledger.credits('a')).toEqual({ balance: 4, reserved: 0, spent: 6, granted: 10 });
  });

  it('pays nothing when the balance is short of the price, free answers included (metered with no credits)', async () => {
    const short = await ledger.admitPaid!('acct:a', rules, payment('big', 11));
    expect(short.decision.allowed).toBe(true);
    expect(short.paid).toEqual({ ok: false, balance: 10 });
    // A free answer (a cache hit that costs nothing) still needs its price in the balance, as the
    // reservation of the usual path does.
    expect((await ledger.admitPaid!('acct:a', rules, payment('free-big', 11, 0))).paid).toEqual({
      ok: false,
      balance: 10,
    });
    expect((await ledger.admitPaid!('acct:a', rules, payment('free', 1, 0))).paid).toEqual({
      ok: true,
      balance: 10,
    });
    expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    expect(await ledger.usage!('a', [day])).toEqual([
      { date: day, requests: 1, credits: 0, by_operation: { transcript: 1 } },
    ]);
  });

  it("keeps each slice's payments in a hash of its own, given its lifetime again each tick, so a hash made anew mid-slice gets one", async () => {
    const roomy = [{ limit: 100, window: 60 }];
    const sliceAt = (ms: number) => `{${prefix}c}:paid:${Math.floor(ms / PAYMENT_SLICE_MS)}`;
    const first = sliceAt(clock.now());
    await ledger.admitPaid!('acct:a', roomy, payment('t1', 1));
    expect(await client.pttl(first)).toBeGreaterThan(59_000);
    // Redis lost the hash (a restart without persistence); the same tick's next payment makes
    // it again without a lifetime, and the first payment of the next tick gives it one.
    await client.del(first);
    await ledger.admitPaid!('acct:a', roomy, payment('t2', 1));
    expect(await client.pttl(first)).toBe(-1);
    clock.advance(PAYMENT_SLICE_MS / 10);
    await ledger.admitPaid!('acct:a', roomy, payment('t3', 1));
    expect(sliceAt(clock.now())).toBe(first);
    expect(await client.pttl(first)).toBeGreaterThan(59_000);
    // The next slice's payments go to a hash of their own, with a lifetime from its first payment.
    clock.advance(PAYMENT_SLICE_MS);
    await ledger.admitPaid!('acct:a', roomy, payment('t4', 1));
    const second = sliceAt(clock.now());
    expect(second).not.toBe(first);
    expect([await client.hlen(first), await client.hlen(second)]).toEqual([2, 1]);
    expect(await client.pttl(second)).toBeGreaterThan(59_000);
    expect(await ledger.credits('a')).toEqual({ balance: 6, reserved: 0, spent: 4, granted: 10 });
  });

  it("keeps a slice's payments in a hash table (a listpack is searched field by field), holding only the payments", async () => {
    const roomy = [{ limit: 100, window: 60 }];
    const sliceAt = (ms: number) => `{${prefix}c}:paid:${Math.floor(ms / PAYMENT_SLICE_MS)}`;
    const lone = sliceAt(clock.now());
    await ledger.admitPaid!('acct:a', roomy, payment('t1', 1));
    expect(await client.object('ENCODING', lone)).toBe('hashtable');
    expect(await client.hkeys(lone)).toEqual(['t1']);
    // Payments asked for in one turn go in one script call, which does the same.
    clock.advance(PAYMENT_SLICE_MS);
    const together = sliceAt(clock.now());
    await Promise.all(['t2', 't3', 't4'].map((id) => ledger.admitPaid!('acct:a', roomy, payment(id, 1))));
    expect(await client.object('ENCODING', together)).toBe('hashtable');
    expect((await client.hkeys(together)).sort()).toEqual(['t2', 't3', 't4']);
    // A repeat is still answered from the hash, and pays nothing more.
    expect((await ledger.admitPaid!('acct:a', roomy, payment('t2', 1))).paid).toEqual({
      ok: true,
      balance: 8,
    });
    expect(await ledger.credits('a')).toEqual({ balance: 6, reserved: 0, spent: 4, granted: 10 });
  });

  it('reads a day metered in the older layout (with a requests field) the same', async () => {
    await client.hset(`{${prefix}c}:use:a:${day}`, {
      requests: 3,
      credits: 4,
      'op:transcript': 2,
      'op:search': 1,
    });
    await ledger.admitPaid!('acct:a', rules, payment('new'));
    expect(await ledger.usage!('a', [day])).toEqual([
      { date: day, requests: 4, credits: 6, by_operation: { transcript: 3, search: 1 } },
    ]);
  });

  it('voids a payment whose reply was lost: its credits and its metering come back', async () => {
    // Instance A pays; instance B, on the same keys, fails to learn the outcome of the same payment
    // (as when a dropped link lost A's reply), and voids it.
    const b = createRedisLedger({ client: failingOnce(client), prefix, clock });
    await ledger.admitPaid!('acct:a', rules, payment('lost'));
    await expect(b.admitPaid!('acct:a', rules, payment('lost'))).rejects.toThrow(/closed/);
    await b.voidPayment!(payment('lost'));
    expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    expect(await ledger.usage!('a', [day])).toEqual([
      { date: day, requests: 0, credits: 0, by_operation: { transcript: 0 } },
    ]);
    await b.voidPayment!(payment('lost')); // idempotent
    expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
  });

  it('voids a payment that never ran: a late repeat of it pays nothing', async () => {
    ledger = createRedisLedger({ client: failingOnce(client), prefix, clock });
    await expect(ledger.admitPaid!('acct:a', rules, payment('late'))).rejects.toThrow(/closed/);
    await ledger.voidPayment!(payment('late'));
    await expect(ledger.admitPaid!('acct:a', rules, payment('late'))).rejects.toThrow(/voided/);
    expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    // A payment whose outcome was learned has nothing to void.
    await ledger.admitPaid!('acct:a', rules, payment('known'));
    await ledger.voidPayment!(payment('known'));
    expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
  });

  it("retries and voids a payment in its first attempt's slice, however many slices later", async () => {
    const sliceAt = (ms: number) => `{${prefix}c}:paid:${Math.floor(ms / PAYMENT_SLICE_MS)}`;
    const firstSlice = sliceAt(clock.now());
    ledger = createRedisLedger({ client: failingOnce(client), prefix, clock });
    await expect(ledger.admitPaid!('acct:a', rules, payment('retried'))).rejects.toThrow(/closed/);
    clock.advance(20 * PAYMENT_SLICE_MS);
    expect((await ledger.admitPaid!('acct:a', rules, payment('retried'))).paid).toEqual({
      ok: true,
      balance: 8,
    });
    expect(await client.hexists(firstSlice, 'retried')).toBe(1);
    expect(await client.exists(sliceAt(clock.now()))).toBe(0);

    const voidedSlice = sliceAt(clock.now());
    ledger = createRedisLedger({ client: failingOnce(client), prefix, clock });
    await expect(ledger.admitPaid!('acct:a', rules, payment('voided'))).rejects.toThrow(/closed/);
    clock.advance(20 * PAYMENT_SLICE_MS);
    await ledger.voidPayment!(payment('voided'));
    // The first attempt, arriving late, would meet this mark in the slice its command names.
    expect(await client.hget(voidedSlice, 'voided')).toBe('void');
    expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
  });
});

describeRedis('Redis ledger: how it talks to Redis (keys made once, the commands of one turn)', () => {
  let client: Redis;
  let prefix: string;
  beforeEach(async () => {
    client = await connect();
    prefix = uniquePrefix('ledger-calls');
  });
  afterEach(async () => {
    await deleteKeys(client, prefix);
    await client.quit();
  });

  it("a bucket's window keys follow its rules: other windows count apart, and a rule set changed in place is seen", async () => {
    const ledger = createRedisLedger({ client, prefix, clock: new ManualClock() });
    const remaining = async (rules: { limit: number; window: number }[]) =>
      (await ledger.hit('acct:a', rules)).rules.map((rule) => rule.remaining);
    const rules = [{ limit: 5, window: 60 }];
    expect(await remaining(rules)).toEqual([4]);
    expect(await remaining(rules)).toEqual([3]);
    expect(await remaining([{ limit: 5, window: 3600 }])).toEqual([4]);
    rules[0] = { limit: 5, window: 86_400 };
    expect(await remaining(rules)).toEqual([4]);
    rules.push({ limit: 5, window: 60 });
    expect(await remaining(rules)).toEqual([3, 4]);
  });

  /** Counts the socket writes of `client` (commands per write). */
  const countWrites = (): number[] => {
    const socket = client.stream as unknown as Record<'_write' | '_writev', (...args: unknown[]) => void>;
    const writes: number[] = [];
    for (const name of ['_write', '_writev'] as const) {
      const original = socket[name].bind(socket);
      socket[name] = (...args: unknown[]) => {
        writes.push(name === '_writev' ? (args[0] as unknown[]).length : 1);
        original(...args);
      };
    }
    return writes;
  };
  const pay = (ledger: Ledger, paymentId: string, account = 'a', rules = [{ limit: 1_000, window: 60 }]) =>
    ledger.admitPaid!(`acct:${account}`, rules, {
      account,
      price: 1,
      cost: 1,
      paymentId,
      usage: { operation: 'transcript' },
    });

  it('the commands of one turn leave in one socket write (after the one load of the script they share), and each gets its own answer', async () => {
    const ledger = createRedisLedger({ client, prefix });
    await ledger.grant('a', 100, 'g');
    const writes = countWrites();
    const reserved = await Promise.all(
      Array.from({ length: 20 }, (_, i) => ledger.reserve('a', 1, `r${i}`, 60_000)),
    );
    expect(writes).toEqual([1, 20]); // SCRIPT LOAD, then the 20 calls
    expect(reserved.map((r) => r.balance).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 20 }, (_, i) => 80 + i),
    );
  });

  it('the payments of one turn are one script call, each answered as alone: other accounts, other rules, a repeat, a refusal', async () => {
    const ledger = createRedisLedger({ client, prefix });
    await ledger.grant('a', 100, 'g');
    await ledger.grant('b', 1, 'gb');
    const writes = countWrites();
    const tight = [
      { limit: 1_000, window: 60 },
      { limit: 2, window: 3600 },
    ];
    const [a1, b1, b2, a2, t1, t2, t3, a1again] = await Promise.all([
      pay(ledger, 'a1'),
      pay(ledger, 'b1', 'b'),
      pay(ledger, 'b2', 'b'), // b's one credit is gone
      pay(ledger, 'a2'),
      pay(ledger, 't1', 'a', tight),
      pay(ledger, 't2', 'a', tight),
      pay(ledger, 't3', 'a', tight), // the hourly rule's third hit
      pay(ledger, 'a1'), // a repeat answers the first
    ]);
    expect(writes).toEqual([1, 1]); // SCRIPT LOAD, then one call for the 8 payments
    expect(a1.paid).toEqual({ ok: true, balance: 99 });
    expect(a1again).toEqual(a1);
    expect(b1.paid).toEqual({ ok: true, balance: 0 });
    expect(b2.decision.allowed).toBe(true);
    expect(b2.paid).toEqual({ ok: false, balance: 0 });
    expect(a2.paid).toEqual({ ok: true, balance: 98 });
    expect(t1.paid).toEqual({ ok: true, balance: 97 });
    expect(t2.paid).toEqual({ ok: true, balance: 96 });
    expect(t2.decision.rules.map((rule) => rule.remaining)).toEqual([996, 0]); // a1, a2, t1 and t2 share the minute's window
    expect(t3.decision.allowed).toBe(false);
    expect(t3.paid).toBeUndefined();
    expect(await ledger.credits('a')).toEqual({ balance: 96, reserved: 0, spent: 4, granted: 100 });
    expect(await ledger.credits('b')).toEqual({ balance: 0, reserved: 0, spent: 1, granted: 1 });
    const usage = await ledger.usage!('a', [new Date().toISOString().slice(0, 10)]);
    expect(usage[0]).toMatchObject({ requests: 4, credits: 4 });
  });

  it(`a turn's payments go ${MAX_BATCH} to a call at most, and a call that fails fails each of its payments (their voids then undo them)`, async () => {
    const ledger = createRedisLedger({ client, prefix });
    await ledger.grant('a', 1_000, 'g');
    await Promise.all([pay(ledger, 'warm1'), pay(ledger, 'warm2')]); // loads both scripts
    const writes = countWrites();
    const count = MAX_BATCH * 2 + 5;
    const paid = await Promise.all(Array.from({ length: count }, (_, i) => pay(ledger, `p${i}`)));
    expect(writes.reduce((sum, n) => sum + n, 0)).toBe(3);
    expect(paid.map((p) => p.paid!.balance).sort((x, y) => x - y)).toEqual(
      Array.from({ length: count }, (_, i) => 998 - count + i),
    );

    const broken = createRedisLedger({ client: failingOnce(client), prefix });
    const failed = await Promise.allSettled([pay(broken, 'f1'), pay(broken, 'f2'), pay(broken, 'f3')]);
    expect(failed.map((f) => f.status)).toEqual(['rejected', 'rejected', 'rejected']);
    for (const id of ['f1', 'f2', 'f3'])
      await broken.voidPayment!({
        account: 'a',
        price: 1,
        cost: 1,
        paymentId: id,
        usage: { operation: 'transcript' },
      });
    expect(await ledger.credits('a')).toEqual({
      balance: 998 - count,
      reserved: 0,
      spent: count + 2,
      granted: 1_000,
    });
  });
});

describeRedis(
  'Redis ledger: holds carry their own expiry, and the reconciler finds expired ones by reading them',
  () => {
    let client: Redis;
    let prefix: string;
    const holdsKey = () => `{${prefix}c}:holds`;
    const legacyKey = () => `{${prefix}c}:hold-expiry`;
    beforeEach(async () => {
      client = await connect();
      prefix = uniquePrefix('ledger-expiry');
    });
    afterEach(async () => {
      await deleteKeys(client, prefix);
      await client.quit();
    });

    it('a hold made by a reservation or an admission keeps its expiry; no index is written per call', async () => {
      const clock = new ManualClock('2026-03-01T10:00:00.000Z');
      const ledger = createRedisLedger({ client, prefix, clock });
      await ledger.grant('a', 10, 'g');
      await ledger.reserve('a', 3, 'r1', 60_000);
      await ledger.admit!('acct:a', [{ limit: 5, window: 60 }], {
        account: 'a',
        cost: 2,
        reservationId: 'r2',
        ttlMs: 90_000,
      });
      expect(await client.hgetall(holdsKey())).toEqual({
        r1: `a|3|7|${clock.now() + 60_000}`,
        r2: `a|2|5|${clock.now() + 90_000}`,
      });
      expect(await client.exists(legacyKey())).toBe(0);
      // Within each lifetime nothing is returned; past r1's only r1.
      clock.advance(60_000 - 1);
      expect(await ledger.reconcile()).toBe(0);
      clock.advance(1);
      expect(await ledger.reconcile()).toBe(1);
      expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 2, spent: 0, granted: 10 });
      expect(await ledger.commit('r1')).toBe(false);
      expect(await ledger.commit('r2')).toBe(true);
      expect(await ledger.credits('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
    });

    it('returns the holds an earlier version left (its expiries in a sorted set) and drops the entries of settled ones', async () => {
      const clock = new ManualClock('2026-03-01T10:00:00.000Z');
      const ledger = createRedisLedger({ client, prefix, clock });
      await ledger.grant('a', 10, 'g');
      // What the earlier scripts left: a hold without its expiry, indexed in the sorted set, and an
      // index entry whose hold was settled before its expiry.
      await client.hset(`{${prefix}c}:acct:a`, 'balance', '6', 'reserved', '4');
      await client.hset(holdsKey(), 'old', 'a|4|6');
      await client.zadd(legacyKey(), clock.now() + 60_000, 'old', clock.now() + 30_000, 'settled');
      clock.advance(30_000);
      expect(await ledger.reconcile()).toBe(0);
      expect(await client.zrange(legacyKey(), 0, -1)).toEqual(['old']);
      clock.advance(30_000);
      expect(await ledger.reconcile()).toBe(1);
      expect(await client.exists(legacyKey(), holdsKey())).toBe(0);
      expect(await ledger.credits('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
    });

    it('reads every open hold, a thousand expired ones a call at most, and leaves the others', async () => {
      const clock = new ManualClock('2026-03-01T10:00:00.000Z');
      const ledger = createRedisLedger({ client, prefix, clock });
      await ledger.grant('a', 10_000, 'g');
      const reserve = (from: number, count: number, ttlMs: number) =>
        Promise.all(Array.from({ length: count }, (_, i) => ledger.reserve('a', 1, `h${from + i}`, ttlMs)));
      await reserve(0, 1_200, 1_000);
      await reserve(1_200, 300, 60_000);
      clock.advance(1_000);
      const first = await ledger.reconcile();
      expect(first).toBeGreaterThanOrEqual(1_000);
      expect(first + (await ledger.reconcile())).toBe(1_200);
      expect(await ledger.reconcile()).toBe(0);
      expect(await ledger.credits('a')).toEqual({ balance: 9_700, reserved: 300, spent: 0, granted: 10_000 });
      expect(await client.hlen(holdsKey())).toBe(300);
    });
  },
);
