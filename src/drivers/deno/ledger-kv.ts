/**
 * The Deno KV Ledger: exact across every isolate and region sharing one Deno KV database (Deno
 * Deploy), or every process on one local KV file (`Deno.openKv(path)`).
 *
 * - Optimistic concurrency: an operation reads its keys in one consistent `getMany`, decides
 *   (with core's {@link evaluateHit} for rate limits), and commits with `kv.atomic().check(…)`
 *   on every key it read, so the commit applies only if none of them changed since. A conflict
 *   (or a local file's `database is locked`) starts over from the read after a short jittered
 *   wait, at most `maxAttempts` times; then the operation throws, which the app answers
 *   `503 storage_unavailable` (retryable).
 * - Within one ledger, operations on one account (rate bucket, key) queue behind each other, so
 *   only other instances cause conflicts, not this one's own concurrent requests.
 * - Time comes from `clock` (default `Date.now`): Deno KV has no server time. Instances whose
 *   clocks disagree see windows and lifetimes shifted by their skew.
 * - Logical lifetimes are stored with the values and checked against the clock; `expireIn` (with
 *   a margin) only cleans up, since KV deletes expired keys late and by its own clock. Holds have
 *   no `expireIn`: {@link Ledger.reconcile} returns them, through an index sorted by expiry.
 *
 * Keys under `prefix`: `acct,<account>` (balance, reserved, spent, granted), `hold,<id>` and
 * `hold-exp,<expiresAt>,<id>`, `reserved,<id>` (a reservation's first answer), `paid,<id>` (a
 * payment's first answer, or `void`; see {@link Ledger.admitPaid}), `grant,<key>`,
 * `<windowKey>` (rate windows), `once,<key>`, `ctr,<key>`; usage metering (`use,…`, `use-all,…`)
 * and keys' last uses (`used,<key id>`) are described in `ledger-kv-usage.ts`.
 *
 * The KV is typed structurally ({@link DenoKv}), so this module needs no Deno types.
 * @module
 */
import { evaluateHit, windowKey, windowOf } from '../../core/ratelimit.ts';
import { dayMemo } from '../../core/usage.ts';
import type { Clock } from '../../ports/clock.ts';
import type {
  AccountCredits,
  AdmitPaidResult,
  Ledger,
  RateDecision,
  RateRule,
  ReserveResult,
  UsageTag,
} from '../../ports/ledger.ts';
import { systemClock } from '../system.ts';
import type {
  DenoKv,
  DenoKvAtomicOperation,
  DenoKvEntryMaybe,
  DenoKvKey,
  DenoKvKeyPart,
} from './kv-types.ts';
import { KvUsage } from './ledger-kv-usage.ts';

export type {
  DenoKv,
  DenoKvAtomicOperation,
  DenoKvEntryMaybe,
  DenoKvKey,
  DenoKvKeyPart,
} from './kv-types.ts';

/** Options of {@link createDenoKvLedger}. */
export interface DenoKvLedgerOptions {
  kv: DenoKv;
  /** Key prefix. Default `['tubescribe', 'ledger']`. */
  prefix?: DenoKvKey;
  /** Default: the system clock. */
  clock?: Clock;
  /** Attempts per operation under write conflicts before it fails. Default 100. */
  maxAttempts?: number;
  /** Close the KV on `close()`. */
  owned?: boolean;
}

interface Hold {
  account: string;
  cost: number;
  expiresAt: number;
}
type Entry = DenoKvEntryMaybe<unknown>;

/** What `paid,<id>` keeps of a payment: its answer, and what voiding it gives back. */
interface PaidMemo {
  outcome: AdmitPaidResult;
  expiresAt: number;
  /** The credits it spent and the day it was metered on, when it took effect. */
  spent?: { cost: number; day: string };
}

/** How long a payment's answer is kept for repeats and voids (the port asks for a minute). */
const PAYMENT_MEMO_MS = 120_000;
/** Added to every `expireIn`, so that KV's cleanup never runs ahead of a logical lifetime. */
const CLEANUP_MARGIN_MS = 60_000;
/** Longest wait between two attempts (the waits double up to it, jittered). */
const MAX_WAIT_MS = 25;
/** `getMany` reads at most 10 keys at once. */
const READ_BATCH = 10;
const RETRY: unique symbol = Symbol('retry');
const ZERO: AccountCredits = Object.freeze({ balance: 0, reserved: 0, spent: 0, granted: 0 });

/** `set` options that let KV delete a key once `ms` (and the margin) have passed. */
const expireAfter = (ms: number): { expireIn: number } => ({
  expireIn: Math.ceil(Math.max(0, ms) + CLEANUP_MARGIN_MS),
});

/** SQLite's answer when another connection holds the write lock of a local KV file. */
const BUSY = /database is locked|SQLITE_BUSY/i;

/** A random wait before attempt `n + 1`, up to min(2^n, MAX_WAIT_MS) ms. */
function pause(n: number): Promise<void> {
  const [r = 0] = crypto.getRandomValues(new Uint32Array(1));
  const ms = (r / 2 ** 32) * Math.min(2 ** n, MAX_WAIT_MS);
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Creates the Deno KV ledger over an open KV (`await Deno.openKv()`). */
export function createDenoKvLedger(options: DenoKvLedgerOptions): Ledger {
  const { kv } = options;
  const prefix = options.prefix ?? ['tubescribe', 'ledger'];
  const clock = options.clock ?? systemClock;
  const maxAttempts = options.maxAttempts ?? 100;
  const key = (...parts: DenoKvKeyPart[]): DenoKvKey => [...prefix, ...parts];
  const queues = new Map<string, Promise<unknown>>();
  const usage = new KvUsage(kv, key);
  const dayOf = dayMemo();
  /** The day the reconciler last deleted old usage keys (once a day per ledger). */
  let purgedOn = '';

  /**
   * Runs `attempt` after the earlier operations queued on `lock` in this ledger, again and again
   * until it answers something other than RETRY (a lost write conflict).
   */
  function retrying<T>(lock: string, what: string, attempt: () => Promise<T | typeof RETRY>): Promise<T> {
    const run = async (): Promise<T> => {
      for (let n = 1; ; n++) {
        const out = await attempt();
        if (out !== RETRY) return out;
        if (n >= maxAttempts) throw new Error(`Deno KV ledger: ${what} lost ${n} write conflicts in a row`);
        await pause(n);
      }
    };
    const result = (queues.get(lock) ?? Promise.resolve()).then(run);
    const tail = result.catch(() => undefined);
    queues.set(lock, tail);
    void tail.then(() => queues.get(lock) === tail && queues.delete(lock));
    return result;
  }

  /** Reads `keys`; one consistent snapshot when they fit in one `getMany`. */
  async function read(keys: readonly DenoKvKey[]): Promise<Entry[]> {
    const out: Entry[] = [];
    for (let i = 0; i < keys.length; i += READ_BATCH) {
      out.push(...(await kv.getMany<unknown[]>(keys.slice(i, i + READ_BATCH))));
    }
    return out;
  }

  /** Commits `ops` only if none of `entries` changed since they were read. */
  async function commitIfUnchanged(entries: readonly Entry[], ops = kv.atomic()): Promise<boolean> {
    try {
      return (await ops.check(...entries).commit()).ok;
    } catch (error) {
      // A busy SQLite file rejects the whole transaction: nothing was written, so try again.
      if (BUSY.test(String((error as Error | undefined)?.message))) return false;
      throw error;
    }
  }

  /** Commits (spend) or releases a hold; with `expiredBy`, only a hold whose lifetime ended by then. */
  async function settle(
    reservationId: string,
    spend: boolean,
    expiredBy?: number,
    tag?: UsageTag,
  ): Promise<boolean> {
    const [first] = (await read([key('hold', reservationId)])) as [Entry];
    const owner = (first.value as Hold | null)?.account;
    if (owner === undefined) return false;
    return retrying(`a:${owner}`, spend ? 'commit' : 'release', async () => {
      const [hold] = (await read([key('hold', reservationId)])) as [Entry];
      const h = hold.value as Hold | null;
      if (!h || (expiredBy !== undefined && h.expiresAt > expiredBy)) return false;
      const [acct] = (await read([key('acct', h.account)])) as [Entry];
      const c = (acct.value as AccountCredits | null) ?? ZERO;
      const next = spend
        ? { ...c, reserved: c.reserved - h.cost, spent: c.spent + h.cost }
        : { ...c, reserved: c.reserved - h.cost, balance: c.balance + h.cost };
      const settled = kv
        .atomic()
        .delete(hold.key)
        .delete(key('hold-exp', h.expiresAt, reservationId))
        .set(acct.key, next);
      const ops = tag
        ? usage.add(settled, h.account, dayOf(clock.now()), tag.operation, spend ? h.cost : 0)
        : settled;
      return (await commitIfUnchanged([hold, acct], ops)) ? true : RETRY;
    });
  }

  /** The keys of `bucket`'s windows under `rules` at `now`, one per rule. */
  const windowKeys = (bucket: string, rules: readonly RateRule[], now: number): DenoKvKey[] =>
    rules.map((rule, i) => key(windowKey(bucket, i, rule, now)));

  /** The hit counts read from the windows' entries (undefined: no hit yet). */
  const countsOf = (windows: readonly Entry[]): (number | undefined)[] =>
    windows.map((entry) => (entry.value as number | null) ?? undefined);

  /** `ops` with an allowed hit counted in every window, each kept until its window ends. */
  function countHit(
    ops: DenoKvAtomicOperation,
    windows: readonly Entry[],
    counts: readonly (number | undefined)[],
    rules: readonly RateRule[],
    now: number,
  ): DenoKvAtomicOperation {
    let out = ops;
    windows.forEach((entry, i) => {
      out = out.set(entry.key, (counts[i] ?? 0) + 1, expireAfter(windowOf(rules[i]!, now).end - now));
    });
    return out;
  }

  return {
    async credits(account) {
      const [acct] = await read([key('acct', account)]);
      const { balance, reserved, spent, granted } = (acct?.value as AccountCredits | null) ?? ZERO;
      return { balance, reserved, spent, granted };
    },

    reserve(account, cost, reservationId, ttlMs): Promise<ReserveResult> {
      const ttl = Math.max(1, Math.round(ttlMs));
      return retrying(`a:${account}`, 'reserve', async () => {
        const entries = await read([
          key('reserved', reservationId),
          key('hold', reservationId),
          key('acct', account),
        ]);
        const [memo, hold, acct] = entries as [Entry, Entry, Entry];
        const now = clock.now();
        const seen = memo.value as { result: ReserveResult; expiresAt: number } | null;
        if (seen && seen.expiresAt > now) return seen.result;
        const c = (acct.value as AccountCredits | null) ?? ZERO;
        if (hold.versionstamp !== null || c.balance < cost) return { ok: false, balance: c.balance };
        const expiresAt = now + ttl;
        const result: ReserveResult = { ok: true, balance: c.balance - cost };
        const ops = kv
          .atomic()
          .set(acct.key, { ...c, balance: c.balance - cost, reserved: c.reserved + cost })
          .set(hold.key, { account, cost, expiresAt } satisfies Hold)
          .set(key('hold-exp', expiresAt, reservationId), account)
          .set(memo.key, { result, expiresAt }, expireAfter(ttl));
        return (await commitIfUnchanged(entries, ops)) ? result : RETRY;
      });
    },

    commit: (reservationId, tag) => settle(reservationId, true, undefined, tag),
    release: (reservationId, tag) => settle(reservationId, false, undefined, tag),

    usage: (account, dates) => usage.days(account, dates),
    usageTotals: (dates) => usage.days(undefined, dates),

    meter(account, tag) {
      return retrying(`u:${account}`, 'meter', async () => {
        const ops = usage.add(kv.atomic(), account, dayOf(clock.now()), tag.operation, 0);
        return (await commitIfUnchanged([], ops)) ? undefined : RETRY;
      });
    },

    touchKey(keyId, minGapMs) {
      return retrying(`k:${keyId}`, 'touchKey', async () => {
        const [used] = (await read([key('used', keyId)])) as [Entry];
        const now = clock.now();
        const last = used.value as number | null;
        if (last !== null && now - last < minGapMs) return false;
        return (await commitIfUnchanged([used], kv.atomic().set(used.key, now))) ? true : RETRY;
      });
    },

    async keysLastUsed(keyIds) {
      const entries = await read(keyIds.map((id) => key('used', id)));
      const out: Record<string, number> = {};
      entries.forEach((entry, i) => {
        if (typeof entry.value === 'number') out[keyIds[i]!] = entry.value;
      });
      return out;
    },

    grant(account, amount, idempotencyKey) {
      return retrying(`a:${account}`, 'grant', async () => {
        const entries = await read([key('grant', idempotencyKey), key('acct', account)]);
        const [grant, acct] = entries as [Entry, Entry];
        const c = (acct.value as AccountCredits | null) ?? ZERO;
        if (grant.versionstamp !== null) return { applied: false, balance: c.balance };
        const next = { ...c, balance: c.balance + amount, granted: c.granted + amount };
        const ops = kv.atomic().set(grant.key, { account, amount }).set(acct.key, next);
        return (await commitIfUnchanged(entries, ops)) ? { applied: true, balance: next.balance } : RETRY;
      });
    },

    hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision> {
      return retrying(`r:${bucket}`, 'hit', async () => {
        const now = clock.now();
        const entries = await read(windowKeys(bucket, rules, now));
        const counts = countsOf(entries);
        const decision = evaluateHit(counts, rules, now);
        if (!decision.allowed) {
          // A refusal writes nothing, but reads spread over several getMany calls must still
          // have been one snapshot: a commit of their checks alone proves it.
          const consistent = entries.length <= READ_BATCH || (await commitIfUnchanged(entries));
          return consistent ? decision : RETRY;
        }
        const ops = countHit(kv.atomic(), entries, counts, rules, now);
        return (await commitIfUnchanged(entries, ops)) ? decision : RETRY;
      });
    },

    admitPaid(bucket, rules, payment) {
      const { account, price, cost, paymentId } = payment;
      return retrying(`a:${account}`, 'admitPaid', async () => {
        const now = clock.now();
        const entries = await read([
          key('paid', paymentId),
          key('acct', account),
          ...windowKeys(bucket, rules, now),
        ]);
        const [memo, acct, ...windows] = entries as [Entry, Entry, ...Entry[]];
        const seen = memo.value as PaidMemo | 'void' | null;
        if (seen === 'void') throw new Error(`payment ${paymentId} was voided`);
        if (seen && seen.expiresAt > now) return seen.outcome;
        const counts = countsOf(windows);
        const decision = evaluateHit(counts, rules, now);
        let ops = kv.atomic();
        const kept: PaidMemo = { outcome: { decision }, expiresAt: now + PAYMENT_MEMO_MS };
        if (decision.allowed) {
          ops = countHit(ops, windows, counts, rules, now);
          const c = (acct.value as AccountCredits | null) ?? ZERO;
          if (c.balance < price) {
            kept.outcome = { decision, paid: { ok: false, balance: c.balance } };
          } else {
            const day = dayOf(now);
            if (cost > 0) ops = ops.set(acct.key, { ...c, balance: c.balance - cost, spent: c.spent + cost });
            ops = usage.add(ops, account, day, payment.usage.operation, cost);
            kept.outcome = { decision, paid: { ok: true, balance: c.balance - cost } };
            kept.spent = { cost, day };
          }
        }
        ops = ops.set(memo.key, kept, expireAfter(PAYMENT_MEMO_MS));
        return (await commitIfUnchanged(entries, ops)) ? kept.outcome : RETRY;
      });
    },

    voidPayment(payment) {
      const { account, paymentId } = payment;
      return retrying(`a:${account}`, 'voidPayment', async () => {
        const entries = await read([key('paid', paymentId), key('acct', account)]);
        const [memo, acct] = entries as [Entry, Entry];
        const seen = memo.value as PaidMemo | 'void' | null;
        if (seen === 'void') return undefined;
        let ops = kv.atomic();
        if (seen?.spent) {
          const { cost, day } = seen.spent;
          const c = (acct.value as AccountCredits | null) ?? ZERO;
          if (cost > 0) ops = ops.set(acct.key, { ...c, balance: c.balance + cost, spent: c.spent - cost });
          ops = usage.remove(ops, account, day, payment.usage.operation, cost);
        }
        ops = ops.set(memo.key, 'void', expireAfter(PAYMENT_MEMO_MS));
        return (await commitIfUnchanged(entries, ops)) ? undefined : RETRY;
      });
    },

    consumeOnce(name, ttlMs) {
      const ttl = Math.max(1, Math.round(ttlMs));
      return retrying(`o:${name}`, 'consumeOnce', async () => {
        const [once] = (await read([key('once', name)])) as [Entry];
        const now = clock.now();
        if (once.value !== null && (once.value as number) > now) return false;
        const ops = kv.atomic().set(once.key, now + ttl, expireAfter(ttl));
        return (await commitIfUnchanged([once], ops)) ? true : RETRY;
      });
    },

    counter(name, by, ttlMs) {
      const ttl = Math.max(1, Math.round(ttlMs));
      return retrying(`c:${name}`, 'counter', async () => {
        const [ctr] = (await read([key('ctr', name)])) as [Entry];
        const now = clock.now();
        const stored = ctr.value as { value: number; expiresAt: number } | null;
        const live = stored && stored.expiresAt > now ? stored : undefined;
        if (by === 0) return live?.value ?? 0;
        const next = { value: (live?.value ?? 0) + by, expiresAt: live?.expiresAt ?? now + ttl };
        const ops = kv.atomic().set(ctr.key, next, expireAfter(next.expiresAt - now));
        return (await commitIfUnchanged([ctr], ops)) ? next.value : RETRY;
      });
    },

    async reconcile() {
      const now = clock.now();
      const due: string[] = [];
      for await (const { key: k } of kv.list<string>({ prefix: key('hold-exp') })) {
        const [expiresAt, id] = k.slice(prefix.length + 1);
        if (typeof expiresAt !== 'number' || expiresAt > now || due.length >= 1000) break;
        if (typeof id === 'string') due.push(id);
      }
      let released = 0;
      for (const id of due) if (await settle(id, false, now)) released++;
      if (dayOf(now) !== purgedOn) {
        await usage.purge(now);
        purgedOn = dayOf(now);
      }
      return released;
    },

    async close() {
      if (options.owned) kv.close();
    },
  };
}
