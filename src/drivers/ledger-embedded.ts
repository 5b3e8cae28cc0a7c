/**
 * The embedded Ledger: exact within one process. Every operation runs under an in-process lock,
 * and every change is persisted through the KeyValue before the operation answers, so a restart
 * on the same storage keeps every balance, hold and grant.
 *
 * Persistence layout (all under `prefix`):
 * - credits: one journal entry per operation (`op:<seq>`), folded into one document per account
 *   (`acct:<account>`) every {@link COMPACT_EVERY} entries (`ledger-journal.ts`): no call
 *   rewrites a whole account document, and a crash never persists half of an operation.
 * - `rl:<window key>` — rate-limit windows of an hour or longer (shorter ones are kept in memory
 *   only: they are over within a minute), `once:<key>`, `ctr:<key>`, `used:<key id>` (an API
 *   key's last use, written at most once per gap by {@link Ledger.touchKey}) — with their TTLs.
 *
 * Payments ({@link Ledger.admitPaid}: an answer already made, admitted and paid in one step) are
 * one `pay` entry, with no hold. A call that fails changed nothing (its entry is written before
 * the live state changes, and the next operation's entry takes the same key), so there is nothing
 * for {@link Ledger.voidPayment} to undo; and payments are not remembered per id, as nothing in a
 * process sends a call twice (remembering a minute of them would keep an object per request).
 *
 * Broadcasts ({@link Ledger.broadcast}) reach the listeners of this ledger at once: it is never
 * shared between processes (two processes on one folder are refused by the CLI's lock).
 * @module
 */
import { evaluateHit, windowKey, windowOf } from '../core/ratelimit.ts';
import { dayMemo } from '../core/usage.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type {
  AccountCredits,
  Ledger,
  RateDecision,
  RateRule,
  ReserveResult,
  UsageDayRecord,
  UsageTag,
} from '../ports/ledger.ts';
import {
  type AccountDoc,
  type AccountState,
  applyOp,
  compact,
  emptyAccount,
  fromDoc,
  type Op,
  opKey,
} from './ledger-journal.ts';

/** The recorded use of `states` summed per day, for the days of `dates` that have any. */
function daysOf(states: readonly (AccountState | undefined)[], dates: readonly string[]): UsageDayRecord[] {
  const out: UsageDayRecord[] = [];
  for (const date of dates) {
    const day: UsageDayRecord = { date, requests: 0, credits: 0, by_operation: {} };
    for (const state of states) {
      const use = state?.usage.get(date);
      if (!use) continue;
      day.requests += use.r;
      day.credits += use.c;
      for (const [op, n] of Object.entries(use.o)) day.by_operation[op] = (day.by_operation[op] ?? 0) + n;
    }
    if (day.requests > 0) out.push(day);
  }
  return out;
}

/** How long a key's last use is kept (`used:<key id>`): ten years, in effect for good. */
const KEY_USE_LIFETIME_MS = 3650 * 86_400_000;

/** Journal entries between two compactions. */
export const COMPACT_EVERY = 256;

interface Expiring {
  value: number;
  expiresAt: number;
}

/** Options of {@link createEmbeddedLedger}. */
export interface EmbeddedLedgerOptions {
  clock: Clock;
  /** Where to persist; omit for a purely in-memory ledger (tests, throwaway servers). */
  kv?: KeyValue;
  /** Key prefix in the KeyValue. Default `ledger:`. */
  prefix?: string;
  /** Rate windows at least this long (seconds) are persisted. Default 3600. */
  persistWindowsFrom?: number;
}

/**
 * Creates the embedded ledger. Its persisted state is loaded before the first operation runs
 * (every operation waits for it); a failed load rejects that operation and is tried again by
 * the next one.
 */
export function createEmbeddedLedger(options: EmbeddedLedgerOptions): Ledger {
  const { clock, kv } = options;
  const prefix = options.prefix ?? 'ledger:';
  const persistFrom = options.persistWindowsFrom ?? 3600;
  const dayOf = dayMemo();

  const accounts = new Map<string, AccountState>();
  const holdOwner = new Map<string, string>(); // reservation id → account
  const grantOwner = new Map<string, string>(); // grant idempotency key → account
  // Reserve idempotency while a hold is open. Settling forgets the entry: a per-call object kept
  // for the hold's whole lifetime (minutes) would outlive the young generation on every call, and
  // reservation ids are generated per call, never reused once settled.
  const recent = new Map<string, { result: ReserveResult; expiresAt: number }>();
  const expiring = new Map<string, Expiring>(); // rl:, once:, ctr: entries
  const listeners: ((message: string) => void)[] = [];
  let seq = 0; // the last journal entry written
  const journal: number[] = []; // entries not folded yet
  const dirty = new Set<string>(); // accounts they touch

  async function load(): Promise<void> {
    if (!kv) return;
    const ops: Op[] = [];
    for (const key of await kv.list(prefix)) {
      const name = key.slice(prefix.length);
      if (name.startsWith('acct:')) {
        const doc = await kv.get<AccountDoc>(key);
        if (doc) accounts.set(name.slice(5), fromDoc(doc));
      } else if (name.startsWith('op:')) {
        const op = await kv.get<Op>(key);
        if (op) ops.push(op);
      } else {
        const entry = await kv.get<Expiring>(key);
        if (entry) expiring.set(name, entry);
      }
    }
    for (const op of ops.sort((a, b) => a.s - b.s)) {
      const state = stateOf(op.a);
      if (op.s > state.seq) applyOp(state, op);
      journal.push(op.s);
      dirty.add(op.a);
      seq = Math.max(seq, op.s);
    }
    for (const [account, state] of accounts) {
      seq = Math.max(seq, state.seq);
      for (const id of state.holds.keys()) holdOwner.set(id, account);
      for (const g of state.grants.keys()) grantOwner.set(g, account);
    }
  }

  let loaded = kv === undefined;
  let loading: Promise<void> | undefined;
  function ensureLoaded(): Promise<void> {
    loading ??= load().then(
      () => {
        loaded = true;
      },
      (error: unknown) => {
        for (const map of [accounts, holdOwner, grantOwner, expiring]) map.clear();
        journal.length = 0;
        dirty.clear();
        loading = undefined;
        throw error;
      },
    );
    return loading;
  }

  let tail: Promise<unknown> = Promise.resolve();
  /** Runs `fn` after every earlier operation has finished (and the state is loaded): the in-process serialisation. */
  function serial<T>(fn: () => Promise<T> | T): Promise<T> {
    const run = loaded ? tail.then(fn) : tail.then(ensureLoaded).then(fn);
    tail = run.catch(() => undefined);
    return run;
  }

  function stateOf(account: string): AccountState {
    let state = accounts.get(account);
    if (!state) {
      state = emptyAccount();
      accounts.set(account, state);
    }
    return state;
  }

  /** Persists `op` as one journal entry, then applies it (a failed write changes nothing). */
  async function record(op: Op): Promise<void> {
    if (kv) {
      await kv.set(opKey(prefix, op.s), op);
      journal.push(op.s);
      dirty.add(op.a);
      if (journal.length >= COMPACT_EVERY) {
        // Folded between two operations; a failure keeps the journal, to be folded next time.
        void serial(async () => {
          const seqs = journal.splice(0);
          const touched = new Set(dirty);
          dirty.clear();
          await compact(kv, prefix, accounts, touched, seqs, seq).catch(() => {
            journal.unshift(...seqs);
            for (const account of touched) dirty.add(account);
          });
        });
      }
    }
    seq = op.s;
    applyOp(stateOf(op.a), op);
  }

  async function saveExpiring(name: string, entry: Expiring, persist: boolean): Promise<void> {
    if (kv && persist)
      await kv.set(`${prefix}${name}`, entry, { ttlMs: Math.max(1, entry.expiresAt - clock.now()) });
    expiring.set(name, entry);
  }

  function live(name: string, now: number): Expiring | undefined {
    const entry = expiring.get(name);
    if (entry && entry.expiresAt <= now) {
      expiring.delete(name);
      return undefined;
    }
    return entry;
  }

  async function settle(reservationId: string, spend: boolean, usage?: UsageTag): Promise<boolean> {
    const account = holdOwner.get(reservationId);
    if (account === undefined || !accounts.get(account)?.holds.has(reservationId)) return false;
    const k = spend ? 'commit' : 'release';
    await record(
      usage
        ? { s: seq + 1, a: account, k, id: reservationId, o: usage.operation, d: dayOf(clock.now()) }
        : { s: seq + 1, a: account, k, id: reservationId },
    );
    holdOwner.delete(reservationId);
    recent.delete(reservationId);
    return true;
  }

  async function reserve(account: string, cost: number, reservationId: string, ttlMs: number) {
    const now = clock.now();
    const seen = recent.get(reservationId);
    if (seen && seen.expiresAt > now) return seen.result;
    const balance = accounts.get(account)?.balance ?? 0;
    if (holdOwner.has(reservationId) || balance < cost) return { ok: false, balance };
    await record({ s: seq + 1, a: account, k: 'reserve', id: reservationId, c: cost, x: now + ttlMs });
    holdOwner.set(reservationId, account);
    const result = { ok: true, balance: balance - cost };
    recent.set(reservationId, { result, expiresAt: now + ttlMs });
    return result;
  }

  async function hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision> {
    const now = clock.now();
    const names = rules.map((rule, i) => windowKey(bucket, i, rule, now));
    const decision = evaluateHit(
      names.map((name) => live(name, now)?.value),
      rules,
      now,
    );
    if (decision.allowed) {
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i]!;
        const name = names[i]!;
        const persist = rule.window === 'utc-day' || rule.window >= persistFrom;
        const value = (live(name, now)?.value ?? 0) + 1;
        const entry = expiring.get(name);
        // A window kept in memory only is counted in place (no new object per hit).
        if (!persist && entry && entry.expiresAt > now) entry.value = value;
        else await saveExpiring(name, { value, expiresAt: windowOf(rule, now).end }, persist);
      }
    }
    return decision;
  }

  return {
    credits(account: string): Promise<AccountCredits> {
      return serial(() => {
        const state = accounts.get(account) ?? emptyAccount();
        return {
          balance: state.balance,
          reserved: state.reserved,
          spent: state.spent,
          granted: state.granted,
        };
      });
    },

    reserve(account, cost, reservationId, ttlMs): Promise<ReserveResult> {
      return serial(() => reserve(account, cost, reservationId, ttlMs));
    },

    commit(reservationId, usage): Promise<boolean> {
      return serial(() => settle(reservationId, true, usage));
    },

    usage(account, dates): Promise<UsageDayRecord[]> {
      return serial(() => daysOf([accounts.get(account)], dates));
    },

    usageTotals(dates): Promise<UsageDayRecord[]> {
      return serial(() => daysOf([...accounts.values()], dates));
    },

    release(reservationId, usage): Promise<boolean> {
      return serial(() => settle(reservationId, false, usage));
    },

    meter(account, usage): Promise<void> {
      return serial(() =>
        record({ s: seq + 1, a: account, k: 'use', o: usage.operation, d: dayOf(clock.now()) }),
      );
    },

    touchKey(keyId, minGapMs): Promise<boolean> {
      return serial(async () => {
        const now = clock.now();
        const name = `used:${keyId}`;
        const last = live(name, now)?.value;
        if (last !== undefined && now - last < minGapMs) return false;
        await saveExpiring(name, { value: now, expiresAt: now + KEY_USE_LIFETIME_MS }, true);
        return true;
      });
    },

    keysLastUsed(keyIds): Promise<Record<string, number>> {
      return serial(() => {
        const now = clock.now();
        const out: Record<string, number> = {};
        for (const id of keyIds) {
          const at = live(`used:${id}`, now)?.value;
          if (at !== undefined) out[id] = at;
        }
        return out;
      });
    },

    grant(account, amount, idempotencyKey) {
      return serial(async () => {
        const balance = accounts.get(account)?.balance ?? 0;
        if (grantOwner.has(idempotencyKey)) return { applied: false, balance };
        await record({ s: seq + 1, a: account, k: 'grant', id: idempotencyKey, c: amount });
        grantOwner.set(idempotencyKey, account);
        return { applied: true, balance: balance + amount };
      });
    },

    hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision> {
      return serial(() => hit(bucket, rules));
    },

    admit(bucket, rules, reservation) {
      return serial(async () => {
        const decision = await hit(bucket, rules);
        if (!decision.allowed) return { decision };
        const { account, cost, reservationId, ttlMs } = reservation;
        return { decision, reserved: await reserve(account, cost, reservationId, ttlMs) };
      });
    },

    admitPaid(bucket, rules, payment) {
      return serial(async () => {
        const decision = await hit(bucket, rules);
        if (!decision.allowed) return { decision };
        const { account, price, cost } = payment;
        const balance = accounts.get(account)?.balance ?? 0;
        if (balance < price) return { decision, paid: { ok: false, balance } };
        await record({
          s: seq + 1,
          a: account,
          k: 'pay',
          c: cost,
          o: payment.usage.operation,
          d: dayOf(clock.now()),
        });
        return { decision, paid: { ok: true, balance: balance - cost } };
      });
    },

    // A payment that failed changed nothing (see the module comment).
    voidPayment: async () => {},

    async broadcast(message) {
      for (const listener of listeners) listener(message);
    },

    onBroadcast(listener) {
      listeners.push(listener);
    },

    consumeOnce(key, ttlMs) {
      return serial(async () => {
        const now = clock.now();
        const name = `once:${key}`;
        if (live(name, now)) return false;
        await saveExpiring(name, { value: 1, expiresAt: now + ttlMs }, true);
        return true;
      });
    },

    counter(key, by, ttlMs) {
      return serial(async () => {
        const now = clock.now();
        const name = `ctr:${key}`;
        const entry = live(name, now);
        if (by === 0) return entry?.value ?? 0;
        const next = { value: (entry?.value ?? 0) + by, expiresAt: entry?.expiresAt ?? now + ttlMs };
        await saveExpiring(name, next, true);
        return next.value;
      });
    },

    reconcile() {
      return serial(async () => {
        const now = clock.now();
        let released = 0;
        for (const [id, account] of [...holdOwner]) {
          const hold = accounts.get(account)?.holds.get(id);
          if (hold && hold.expiresAt <= now && (await settle(id, false))) released++;
        }
        for (const [name, entry] of expiring) if (entry.expiresAt <= now) expiring.delete(name);
        for (const [id, entry] of recent) if (entry.expiresAt <= now) recent.delete(id);
        return released;
      });
    },
  };
}
