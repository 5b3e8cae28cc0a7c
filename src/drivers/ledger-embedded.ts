/**
 * The embedded Ledger: exact within one process. Every operation runs under an in-process lock,
 * and every change is persisted through the KeyValue before the operation answers, so a restart
 * on the same storage keeps every balance, hold and grant.
 *
 * Persistence layout (all under `prefix`):
 * - `acct:<account>` — one document per account holding its counters, its open holds and the
 *   idempotency keys of its grants. Every credit operation rewrites exactly one such document,
 *   so a crash can never persist half of an operation.
 * - `rl:<window key>` — rate-limit windows of an hour or longer (shorter ones are kept in memory
 *   only: they are over within a minute), `once:<key>`, `ctr:<key>` — with their TTLs.
 *
 * Not shared between processes: two processes on one folder are refused by the CLI's lock.
 * @module
 */
import { evaluateHit, windowKey, windowOf } from '../core/ratelimit.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { AccountCredits, Ledger, RateDecision, RateRule, ReserveResult } from '../ports/ledger.ts';

interface Hold {
  cost: number;
  expiresAt: number;
}

interface AccountDoc {
  balance: number;
  reserved: number;
  spent: number;
  granted: number;
  holds: Record<string, Hold>;
  grants: Record<string, number>;
}

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

const emptyAccount = (): AccountDoc => ({
  balance: 0,
  reserved: 0,
  spent: 0,
  granted: 0,
  holds: {},
  grants: {},
});

/**
 * Creates the embedded ledger. Its persisted state is loaded before the first operation runs
 * (every operation waits for it); a failed load rejects that operation and is tried again by
 * the next one.
 */
export function createEmbeddedLedger(options: EmbeddedLedgerOptions): Ledger {
  const { clock, kv } = options;
  const prefix = options.prefix ?? 'ledger:';
  const persistFrom = options.persistWindowsFrom ?? 3600;

  const accounts = new Map<string, AccountDoc>();
  const holdOwner = new Map<string, string>(); // reservation id → account
  const grantOwner = new Map<string, string>(); // grant idempotency key → account
  const recent = new Map<string, { result: ReserveResult; expiresAt: number }>(); // reserve idempotency
  const expiring = new Map<string, Expiring>(); // rl:, once:, ctr: entries

  async function load(): Promise<void> {
    if (!kv) return;
    for (const key of await kv.list(prefix)) {
      const name = key.slice(prefix.length);
      if (name.startsWith('acct:')) {
        const doc = await kv.get<AccountDoc>(key);
        if (!doc) continue;
        const account = name.slice(5);
        accounts.set(account, doc);
        for (const id of Object.keys(doc.holds)) holdOwner.set(id, account);
        for (const g of Object.keys(doc.grants)) grantOwner.set(g, account);
      } else {
        const entry = await kv.get<Expiring>(key);
        if (entry) expiring.set(name, entry);
      }
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

  /** Persists `doc` for `account`, then makes it the live state (a failed write changes nothing). */
  async function saveAccount(account: string, doc: AccountDoc): Promise<void> {
    if (kv) await kv.set(`${prefix}acct:${account}`, doc);
    accounts.set(account, doc);
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

  const copy = (doc: AccountDoc): AccountDoc => ({
    ...doc,
    holds: { ...doc.holds },
    grants: { ...doc.grants },
  });

  async function settle(reservationId: string, spend: boolean): Promise<boolean> {
    const account = holdOwner.get(reservationId);
    const current = account === undefined ? undefined : accounts.get(account);
    const hold = current?.holds[reservationId];
    if (account === undefined || !current || !hold) return false;
    const doc = copy(current);
    delete doc.holds[reservationId];
    doc.reserved -= hold.cost;
    if (spend) doc.spent += hold.cost;
    else doc.balance += hold.cost;
    await saveAccount(account, doc);
    holdOwner.delete(reservationId);
    return true;
  }

  return {
    credits(account: string): Promise<AccountCredits> {
      return serial(() => {
        const doc = accounts.get(account) ?? emptyAccount();
        return { balance: doc.balance, reserved: doc.reserved, spent: doc.spent, granted: doc.granted };
      });
    },

    reserve(account, cost, reservationId, ttlMs): Promise<ReserveResult> {
      return serial(async () => {
        const now = clock.now();
        const seen = recent.get(reservationId);
        if (seen && seen.expiresAt > now) return seen.result;
        const current = accounts.get(account) ?? emptyAccount();
        if (holdOwner.has(reservationId) || current.balance < cost) {
          return { ok: false, balance: current.balance };
        }
        const doc = copy(current);
        doc.balance -= cost;
        doc.reserved += cost;
        doc.holds[reservationId] = { cost, expiresAt: now + ttlMs };
        await saveAccount(account, doc);
        holdOwner.set(reservationId, account);
        const result = { ok: true, balance: doc.balance };
        recent.set(reservationId, { result, expiresAt: now + ttlMs });
        return result;
      });
    },

    commit(reservationId): Promise<boolean> {
      return serial(() => settle(reservationId, true));
    },

    release(reservationId): Promise<boolean> {
      return serial(() => settle(reservationId, false));
    },

    grant(account, amount, idempotencyKey) {
      return serial(async () => {
        const current = accounts.get(account) ?? emptyAccount();
        if (grantOwner.has(idempotencyKey)) return { applied: false, balance: current.balance };
        const doc = copy(current);
        doc.balance += amount;
        doc.granted += amount;
        doc.grants[idempotencyKey] = amount;
        await saveAccount(account, doc);
        grantOwner.set(idempotencyKey, account);
        return { applied: true, balance: doc.balance };
      });
    },

    hit(bucket: string, rules: readonly RateRule[]): Promise<RateDecision> {
      return serial(async () => {
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
            await saveExpiring(name, { value, expiresAt: windowOf(rule, now).end }, persist);
          }
        }
        return decision;
      });
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
          const hold = accounts.get(account)?.holds[id];
          if (hold && hold.expiresAt <= now && (await settle(id, false))) released++;
        }
        for (const [name, entry] of expiring) if (entry.expiresAt <= now) expiring.delete(name);
        for (const [id, entry] of recent) if (entry.expiresAt <= now) recent.delete(id);
        return released;
      });
    },
  };
}
