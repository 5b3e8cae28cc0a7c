/**
 * The Redis Ledger: exact across any number of tubescribe instances sharing one Redis.
 *
 * - One Lua script per atomic operation (reserve, settle = commit/release, grant, hit, consume
 *   once, counter); a script runs alone on the server, so no two instances interleave.
 * - Time comes from Redis (`TIME`) inside the scripts, so application clocks cannot skew windows
 *   or expiries. Tests may inject a clock instead (`clock`), which is then passed to every script.
 * - Keys are hash-tagged: all credit keys and the rate-limit windows share `{<prefix>c}` (a
 *   reservation, its account and the grant keys must change together, and an admission counts
 *   the hit and reserves in one script); one-time keys and counters are single keys. Every key a
 *   script touches is declared, so it runs on a Redis Cluster.
 * - Round trips: a charged call costs two, admission with reservation (`admit`) and commit (the
 *   instance that reserved remembers the hold's account, so settling needs no lookup first); an
 *   answer already made from memory costs one (`admitPaid`: admission and payment, no hold), and
 *   the payments asked for in one turn of the event loop share one script call (`turn-batch.ts`).
 * - Redis work per charged call is kept small: a reservation's repeat is answered from its hold
 *   (no idempotency key per call; the hold is taken with HSETNX, read only by a repeat or a short
 *   balance), the reserving instance deletes its hold unread (it knows the cost), a window under
 *   way is counted with one HINCRBY, and a day's usage hash gets its lifetime once.
 * - Usage is metered in the settling script (a free call: one `meter` script), per account and
 *   UTC day in hashes kept 100 days; API keys' last uses are one hash, `<prefix>keys-used`.
 * - Broadcasts are Redis pub/sub on `<prefix>broadcast` (`broadcast.ts`).
 * - Logical expiries (holds, one-time keys, counters, windows) are stored with the values and
 *   checked against the script's time; Redis TTLs only clean up.
 * @module
 */
import type { Redis } from 'ioredis';
import { evaluateHit } from '../../core/ratelimit.ts';
import { dayMemo } from '../../core/usage.ts';
import type { Clock } from '../../ports/clock.ts';
import type {
  AccountCredits,
  AdmitPayment,
  Ledger,
  RateDecision,
  RateRule,
  ReserveResult,
  UsageDayRecord,
  UsageTag,
} from '../../ports/ledger.ts';
import { RedisBroadcast } from './broadcast.ts';
import {
  ADMIT,
  ADMIT_PAID,
  ADMIT_PAID_TOGETHER,
  CONSUME_ONCE,
  COUNTER,
  GRANT,
  HIT,
  METER,
  RESERVE,
  Script,
  SETTLE,
  TOUCH_KEY,
  VOID_PAID,
} from './ledger-scripts.ts';
import { loneArgs, type PaidCall, pushRuleArgs, togetherArgs } from './paid-calls.ts';
import { fillTracingChannelGap } from './tracing-channel.ts';
import { TurnBatch } from './turn-batch.ts';

/** How long a day's usage hash is kept: 100 days (GET /v1/usage reports at most 90). */
const USAGE_LIFETIME_MS = 100 * 86_400_000;

/** Reservations this instance made and has not settled yet, remembered at most (see `mine`). */
const REMEMBERED_HOLDS = 100_000;

/**
 * Payments (`admitPaid`) are remembered per time slice of this length, in one hash per slice
 * that Redis drops {@link PAYMENTS_LIFETIME_MS} after the last tick in which it was paid into
 * (see `paymentsLifetime`): each payment is kept a minute (the Ledger port asks for a minute of
 * repeats; billing stops retrying long before). A hash per slice costs one field per payment and
 * no expiry of its own; the scripts make it a hash table (`AS_TABLE_FN` in `ledger-scripts.ts`),
 * not a listpack that Redis searches field by field. Slices are short because Redis frees an
 * expired hash all at once and blocks every client meanwhile (unless `lazyfree-lazy-expire` is
 * on; Redis 7.0 leaves it off).
 * Measured here at 56,000 payments per second (`npm run bench`, Redis): freeing 10 seconds of
 * them would block Redis for about 120 ms; a 100 ms slice (6,000 payments) takes 1.1 ms.
 */
export const PAYMENT_SLICE_MS = 100;
const PAYMENTS_LIFETIME_MS = 60_000;
/** How often an instance gives the slice it pays into its lifetime again (see `paymentsLifetime`). */
const LIFETIME_TICK_MS = PAYMENT_SLICE_MS / 10;

/** Options of {@link createRedisLedger}. */
export interface RedisLedgerOptions {
  /** A connected ioredis client (the ledger does not close it unless `owned`). */
  client: Redis;
  /** Key prefix, e.g. `ts:`. Default `tubescribe:`. */
  prefix?: string;
  /** Use this clock instead of Redis `TIME` (tests). */
  clock?: Clock;
  /** Close the client on `close()`. */
  owned?: boolean;
}

const pair = (value: unknown): [boolean, number] => {
  const [flag = '0', number = '0'] = String(value).split('|');
  return [flag === '1', Number(number)];
};

/** A reservation's reply (see RESERVE_FN): made a hold of its own, or answered from one (a repeat). */
const madeHold = (value: unknown): boolean => String(value).endsWith('|new');

/**
 * When a hold may be returned (ms), from its `account|cost|balance after|expiry`; undefined for a
 * hold made before holds carried it (those are in the legacy sorted set).
 */
const holdExpiry = (hold: string): number | undefined => {
  const fields = hold.split('|');
  return fields.length === 4 ? Number(fields[3]) : undefined;
};

/** The account a hold (`account|…`) was made for. */
const holdOwner = (hold: string): string => hold.slice(0, hold.indexOf('|'));

/** A reservation this instance made: its account, and its cost when this call made the hold. */
interface MyHold {
  account: string;
  cost?: number;
}

/**
 * What is made from a name (an account's or a bucket's keys), made once per name and kept: the
 * same strings every call, not new ones to build and hash. Forgets them all at 10,000 names.
 */
function memoByName<T>(make: (name: string) => T): (name: string) => T {
  const made = new Map<string, T>();
  return (name) => {
    let value = made.get(name);
    if (value === undefined) {
      if (made.size >= 10_000) made.clear();
      value = make(name);
      made.set(name, value);
    }
    return value;
  };
}

/** Creates the Redis ledger over a connected client. */
export function createRedisLedger(options: RedisLedgerOptions): Ledger {
  fillTracingChannelGap();
  const { client } = options;
  const prefix = options.prefix ?? 'tubescribe:';
  const dayOf = dayMemo();
  /** This instance's time, to pick a day's usage hash or a payments slice (scripts use Redis's). */
  const localNow = (): number => options.clock?.now() ?? Date.now();
  const credits = `{${prefix}c}`;
  const holds = `${credits}:holds`;
  /**
   * The sorted set of holds' expiries that earlier versions wrote with each hold (holds now
   * carry their expiry, see RESERVE_FN): read only by `reconcile`, which returns the holds such
   * an instance left, during a rolling upgrade or after it.
   */
  const legacyHoldExpiry = `${credits}:hold-expiry`;
  const grants = `${credits}:grants`;
  const account = memoByName((id) => `${credits}:acct:${id}`);
  /** Each account's usage hash of the day last asked for (see `usageKey`). */
  const usageOf = memoByName(() => ({ day: '', key: '' }));
  const usageOfAll = { day: '', key: '' };
  /** An account's (or, without one, every account's) usage hash of a UTC day. */
  const usageKey = (id: string | undefined, day: string): string => {
    const last = id === undefined ? usageOfAll : usageOf(id);
    if (last.day !== day) {
      last.key = id === undefined ? `${credits}:use-all:${day}` : `${credits}:use:${id}:${day}`;
      last.day = day;
    }
    return last.key;
  };
  async function readUsage(id: string | undefined, dates: readonly string[]): Promise<UsageDayRecord[]> {
    const pipeline = client.pipeline();
    for (const date of dates) pipeline.hgetall(usageKey(id, date));
    const replies = (await pipeline.exec()) ?? [];
    const out: UsageDayRecord[] = [];
    dates.forEach((date, i) => {
      const [error, hash] = replies[i] ?? [null, {}];
      if (error) throw error;
      const fields = Object.entries(hash as Record<string, string>);
      if (fields.length === 0) return;
      // The day's requests are the sum of its operations' counts (see METER_FN; an older
      // `requests` field holds the same sum).
      const day: UsageDayRecord = { date, requests: 0, credits: 0, by_operation: {} };
      for (const [name, value] of fields) {
        if (name === 'credits') day.credits = Number(value);
        else if (name.startsWith('op:')) {
          day.by_operation[name.slice(3)] = Number(value);
          day.requests += Number(value);
        }
      }
      out.push(day);
    });
    return out;
  }
  /** Each bucket's window keys, and the windows they were made for. */
  const windowsOf = memoByName((): { windows: RateRule['window'][]; keys: string[] } => ({
    windows: [],
    keys: [],
  }));
  /** The keys of `bucket`'s windows under `rules` (a new array: callers add to it). */
  const windowKeys = (bucket: string, rules: readonly RateRule[]): string[] => {
    const made = windowsOf(bucket);
    if (made.windows.length !== rules.length || rules.some((rule, i) => rule.window !== made.windows[i])) {
      made.windows = rules.map((rule) => rule.window);
      made.keys = rules.map(
        (rule, i) => `${credits}:rl:${bucket}:${i}:${rule.window === 'utc-day' ? 'd' : rule.window}`,
      );
    }
    return made.keys.slice();
  };
  /** Now, then each rule's limit and window length (ms, 0 = the UTC day). */
  const ruleArgs = (rules: readonly RateRule[]): (string | number)[] => pushRuleArgs([now()], rules);
  /**
   * The reservations this instance made: settling one skips a lookup of its owner, and one whose
   * hold this instance made (its cost known) deletes the hold unread.
   */
  const mine = new Map<string, MyHold>();
  const remember = (reservationId: string, id: string, cost: number, reply: unknown) => {
    if (mine.size >= REMEMBERED_HOLDS) mine.clear(); // only costs the lookup
    // A repeat answered from a hold keeps what the first call learned (it may be of another account).
    if (madeHold(reply)) mine.set(reservationId, { account: id, cost });
    else if (!mine.has(reservationId)) mine.set(reservationId, { account: id });
  };
  /**
   * Where each payment made here is kept (its slice's hash) and metered (its day), from the first
   * attempt on, until its outcome is known: a repeat and a void must use the first attempt's.
   */
  const payments = new Map<string, { slice: string; day: string }>();
  /** The payments hash of the slice last paid into, and its number. */
  let slice = { number: Number.NaN, key: '' };
  const sliceKey = (at: number): string => {
    const number = Math.floor(at / PAYMENT_SLICE_MS);
    if (number !== slice.number) slice = { number, key: `${credits}:paid:${number}` };
    return slice.key;
  };
  const paymentPlace = (paymentId: string): { slice: string; day: string } => {
    let place = payments.get(paymentId);
    if (!place) {
      const at = localNow();
      place = { slice: sliceKey(at), day: dayOf(at) };
      if (payments.size >= REMEMBERED_HOLDS) payments.clear(); // voids of the forgotten are lost
      payments.set(paymentId, place);
    }
    return place;
  };
  /**
   * The lifetime for `admitPaid` to give a slice's payments hash: {@link PAYMENTS_LIFETIME_MS}
   * on this instance's first payment in each {@link LIFETIME_TICK_MS} tick, else 0 (none: the
   * script skips a TTL check per call). Every instance sets it, and sets it again each tick, so a
   * hash that Redis lost and made anew mid-slice gets one with the next tick's payment.
   */
  const lifetimeSetFor = { slice: '', tick: Number.NaN };
  const paymentsLifetime = (slice: string): number => {
    const tick = Math.floor(localNow() / LIFETIME_TICK_MS);
    if (tick === lifetimeSetFor.tick && slice === lifetimeSetFor.slice) return 0;
    lifetimeSetFor.slice = slice;
    lifetimeSetFor.tick = tick;
    return PAYMENTS_LIFETIME_MS;
  };
  const paymentKeys = (payment: AdmitPayment, place: { slice: string; day: string }) => [
    account(payment.account),
    place.slice,
    usageKey(payment.account, place.day),
    usageKey(undefined, place.day),
  ];
  const broadcast = new RedisBroadcast(client, `${prefix}broadcast`);
  const scripts = {
    admit: new Script(client, ADMIT),
    voidPaid: new Script(client, VOID_PAID),
    reserve: new Script(client, RESERVE),
    settle: new Script(client, SETTLE),
    grant: new Script(client, GRANT),
    hit: new Script(client, HIT),
    once: new Script(client, CONSUME_ONCE),
    counter: new Script(client, COUNTER),
    meter: new Script(client, METER),
    touch: new Script(client, TOUCH_KEY),
  };
  /** A turn's payments, in one script call (see `turn-batch.ts`). */
  const paidAlone = new Script(client, ADMIT_PAID);
  const paidTogetherScript = new Script(client, ADMIT_PAID_TOGETHER);
  const paidTogether = new TurnBatch<PaidCall>(
    (call) => {
      const { keys, args } = loneArgs(call);
      return paidAlone.run(keys, args, false);
    },
    (calls) => {
      const { keys, args } = togetherArgs(calls);
      return paidTogetherScript.run(keys, args, false);
    },
  );
  /** The hash of API keys' last uses (key id → epoch ms). */
  const keysUsed = `${prefix}keys-used`;
  const now = (): number => options.clock?.now() ?? -1;

  /** Settles a reservation; `heldBy`: its hold's owner, when the caller has just read the hold. */
  async function settle(
    reservationId: string,
    spend: boolean,
    usage?: UsageTag,
    heldBy?: string,
  ): Promise<boolean> {
    const known = mine.get(reservationId);
    let owner = known?.account ?? heldBy;
    if (owner === undefined) {
      const hold = await client.hget(holds, reservationId);
      if (!hold) return false;
      owner = holdOwner(hold);
    }
    // Without the cost, the script reads the hold and checks its owner: a stale memory settles nothing.
    const keys = [account(owner), holds];
    const args: (string | number)[] = [now(), reservationId, owner, spend ? 1 : 0, known?.cost ?? ''];
    if (usage) {
      const day = dayOf(localNow());
      keys.push(usageKey(owner, day), usageKey(undefined, day));
      args.push(usage.operation, USAGE_LIFETIME_MS);
    }
    const done = await scripts.settle.run(keys, args);
    mine.delete(reservationId);
    return Number(done) === 1;
  }

  async function redisNow(): Promise<number> {
    if (options.clock) return options.clock.now();
    const [seconds, micros] = await client.time();
    return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  }

  return {
    async credits(id: string): Promise<AccountCredits> {
      const [balance, reserved, spent, granted] = await client.hmget(
        account(id),
        'balance',
        'reserved',
        'spent',
        'granted',
      );
      return {
        balance: Number(balance ?? 0),
        reserved: Number(reserved ?? 0),
        spent: Number(spent ?? 0),
        granted: Number(granted ?? 0),
      };
    },

    async reserve(id, cost, reservationId, ttlMs): Promise<ReserveResult> {
      const reply = await scripts.reserve.run(
        [account(id), holds],
        [now(), id, cost, reservationId, Math.max(1, Math.round(ttlMs))],
      );
      const [ok, balance] = pair(reply);
      if (ok) remember(reservationId, id, cost, reply);
      return { ok, balance };
    },

    commit: (reservationId, usage) => settle(reservationId, true, usage),
    usage: (id, dates) => readUsage(id, dates),
    usageTotals: (dates) => readUsage(undefined, dates),
    release: (reservationId, usage) => settle(reservationId, false, usage),

    async meter(id, usage) {
      const day = dayOf(localNow());
      await scripts.meter.run(
        [usageKey(id, day), usageKey(undefined, day)],
        [usage.operation, USAGE_LIFETIME_MS],
      );
    },

    async touchKey(keyId, minGapMs) {
      return Number(await scripts.touch.run([keysUsed], [now(), keyId, Math.max(0, minGapMs)])) === 1;
    },

    async keysLastUsed(keyIds) {
      const out: Record<string, number> = {};
      if (keyIds.length === 0) return out;
      const values = await client.hmget(keysUsed, ...keyIds);
      keyIds.forEach((id, i) => {
        const at = values[i];
        if (at) out[id] = Number(at);
      });
      return out;
    },

    async grant(id, amount, idempotencyKey) {
      const [applied, balance] = pair(
        await scripts.grant.run([account(id), grants], [now(), id, amount, idempotencyKey]),
      );
      return { applied, balance };
    },

    async hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision> {
      const [at, ...counts] = (await scripts.hit.run(windowKeys(bucket, rules), ruleArgs(rules))) as number[];
      return evaluateHit(counts.map(Number), rules, Number(at));
    },

    async admit(bucket, rules, { account: id, cost, reservationId, ttlMs }) {
      const keys = windowKeys(bucket, rules);
      keys.push(account(id), holds);
      const args = ruleArgs(rules);
      args.push(id, cost, reservationId, Math.max(1, Math.round(ttlMs)));
      const [at, reservation, ...counts] = (await scripts.admit.run(keys, args)) as (number | string)[];
      const decision = evaluateHit(counts.map(Number), rules, Number(at));
      if (!reservation) return { decision };
      const [ok, balance] = pair(reservation);
      if (ok) remember(reservationId, id, cost, reservation);
      return { decision, reserved: { ok, balance } };
    },

    async admitPaid(bucket, rules, payment) {
      const place = paymentPlace(payment.paymentId);
      const keys = windowKeys(bucket, rules);
      keys.push(...paymentKeys(payment, place));
      const reply = String(
        await paidTogether.run({
          keys,
          now: now(),
          rules,
          id: payment.paymentId,
          price: payment.price,
          cost: payment.cost,
          operation: payment.usage.operation,
          usageLifetime: USAGE_LIFETIME_MS,
          paymentsLifetime: paymentsLifetime(place.slice),
        }),
      );
      // Only a void (after this call had been given up) leaves `void`: never on a first answer.
      if (reply === 'void') throw new Error(`payment ${payment.paymentId} was voided`);
      payments.delete(payment.paymentId);
      const [at = '0', paid = '', counts = ''] = reply.split(';');
      const decision = evaluateHit(counts === '' ? [] : counts.split(',').map(Number), rules, Number(at));
      if (paid === '') return { decision };
      const [ok, balance] = pair(paid);
      return { decision, paid: { ok, balance } };
    },

    async voidPayment(payment) {
      const place = payments.get(payment.paymentId);
      if (!place) return; // its outcome was learned: nothing to undo
      await scripts.voidPaid.run(paymentKeys(payment, place), [
        payment.paymentId,
        payment.usage.operation,
        PAYMENTS_LIFETIME_MS,
      ]);
      payments.delete(payment.paymentId);
    },

    broadcast: (message) => broadcast.publish(message),
    onBroadcast: (listener) => broadcast.listen(listener),
    caughtUp: () => broadcast.caughtUp(),

    async consumeOnce(key, ttlMs) {
      return (
        Number(await scripts.once.run([`${prefix}once:${key}`], [now(), Math.max(1, Math.round(ttlMs))])) ===
        1
      );
    },

    async counter(key, by, ttlMs) {
      return Number(
        await scripts.counter.run([`${prefix}ctr:${key}`], [now(), by, Math.max(1, Math.round(ttlMs))]),
      );
    },

    async reconcile() {
      const now = await redisNow();
      // Open holds are few (calls under way, and any their instance did not settle): read them
      // all, a thousand at a time, until a thousand expired ones are found.
      // Each expired hold's owner is taken from the text just read: settling needs no lookup.
      const expired: { id: string; owner: string }[] = [];
      let cursor = '0';
      do {
        const [next, fields] = await client.hscan(holds, cursor, 'COUNT', 1000);
        cursor = next;
        for (let i = 0; i + 1 < fields.length; i += 2) {
          const hold = fields[i + 1]!;
          const expiry = holdExpiry(hold);
          if (expiry !== undefined && expiry <= now) expired.push({ id: fields[i]!, owner: holdOwner(hold) });
        }
      } while (cursor !== '0' && expired.length < 1000);
      const legacy = await client.zrangebyscore(legacyHoldExpiry, '-inf', now, 'LIMIT', 0, 1000);
      let released = 0;
      for (const { id, owner } of expired) if (await settle(id, false, undefined, owner)) released++;
      for (const id of legacy) if (await settle(id, false)) released++;
      if (legacy.length > 0) await client.zrem(legacyHoldExpiry, ...legacy);
      return released;
    },

    async close() {
      await broadcast.close();
      if (options.owned) await client.quit().catch(() => client.disconnect());
    },
  };
}
