/**
 * Usage metering and keys' last uses in the Deno KV ledger (`ledger-kv.ts`).
 *
 * A request is counted with KV's `sum` mutation (a bigint added to a 64-bit counter inside the
 * commit; sums never conflict), on one key per day, account and field, and the same per day for every
 * account: `use,<day>,<account>,<field>` and `use-all,<day>,<field>`, where a field is `requests`,
 * `credits` or `op:<operation>`. The sums ride in the same atomic commit as the spend (or the
 * release) they meter; a free request is one commit of sums alone. Days come first in the keys so
 * that days older than {@link USAGE_DAYS_KEPT} are one key range, deleted by the reconciler
 * (`sum` cannot carry an `expireIn`).
 *
 * A key's last use is `used,<key id>` (epoch ms), written under a versionstamp check.
 * @module
 */
import { utcDay } from '../../core/usage.ts';
import type { UsageDayRecord } from '../../ports/ledger.ts';
import type { DenoKv, DenoKvAtomicOperation, DenoKvKey, DenoKvKeyPart } from './kv-types.ts';

/** Days of use kept (GET /v1/usage reports at most 90). */
export const USAGE_DAYS_KEPT = 100;
/** Old usage keys deleted per reconciliation at most. */
const PURGE_LIMIT = 1000;
/** Mutations per delete commit (KV allows 1000 per atomic operation). */
const PURGE_BATCH = 200;
const DAY_MS = 86_400_000;
/** 2^64: KV sums are added modulo this. */
const U64_WRAP = 1n << 64n;

/** A 64-bit unsigned KV value (`Deno.KvU64`), as a sum reads back. */
interface U64 {
  readonly value: bigint;
}

/** Usage keys and their reading, over one ledger's key prefix. */
export class KvUsage {
  constructor(
    private readonly kv: DenoKv,
    private readonly key: (...parts: DenoKvKeyPart[]) => DenoKvKey,
  ) {}

  /** `ops` with one request of `operation` and its `credits` added on `day` for `account`. */
  add(
    ops: DenoKvAtomicOperation,
    account: string,
    day: string,
    operation: string,
    credits: number,
  ): DenoKvAtomicOperation {
    return this.count(ops, account, day, operation, credits, BigInt);
  }

  /**
   * `ops` with one request of `operation` and its `credits` taken back on `day` for `account` (a
   * voided payment): the same sums, subtracted (a KV sum wraps modulo 2^64, so adding 2^64 − n
   * subtracts n).
   */
  remove(
    ops: DenoKvAtomicOperation,
    account: string,
    day: string,
    operation: string,
    credits: number,
  ): DenoKvAtomicOperation {
    return this.count(ops, account, day, operation, credits, (n) => U64_WRAP - BigInt(n));
  }

  /** The sums of one request and its credits, each amount `n` added as `amount(n)`. */
  private count(
    ops: DenoKvAtomicOperation,
    account: string,
    day: string,
    operation: string,
    credits: number,
    amount: (n: number) => bigint,
  ): DenoKvAtomicOperation {
    let out = ops;
    for (const scope of [
      ['use', day, account],
      ['use-all', day],
    ]) {
      out = out
        .sum(this.key(...scope, 'requests'), amount(1))
        .sum(this.key(...scope, `op:${operation}`), amount(1));
      if (credits > 0) out = out.sum(this.key(...scope, 'credits'), amount(credits));
    }
    return out;
  }

  /** One account's (or, without one, every account's) recorded days among `dates`. */
  async days(account: string | undefined, dates: readonly string[]): Promise<UsageDayRecord[]> {
    const read = async (date: string): Promise<UsageDayRecord | undefined> => {
      const day: UsageDayRecord = { date, requests: 0, credits: 0, by_operation: {} };
      const scope = account === undefined ? this.key('use-all', date) : this.key('use', date, account);
      for await (const { key, value } of this.kv.list<U64>({ prefix: scope })) {
        const field = key[scope.length];
        const n = Number(value.value);
        if (field === 'requests') day.requests = n;
        else if (field === 'credits') day.credits = n;
        else if (typeof field === 'string' && field.startsWith('op:')) day.by_operation[field.slice(3)] = n;
      }
      return day.requests > 0 ? day : undefined;
    };
    const out = await Promise.all(dates.map(read));
    return out.filter((d): d is UsageDayRecord => d !== undefined);
  }

  /** Deletes (up to a bound) the usage keys of days more than {@link USAGE_DAYS_KEPT} before `now`. */
  async purge(now: number): Promise<number> {
    const cutoff = utcDay(now - USAGE_DAYS_KEPT * DAY_MS);
    const old: DenoKvKey[] = [];
    for (const scope of ['use', 'use-all']) {
      const selector = { prefix: this.key(scope), end: this.key(scope, cutoff) };
      for await (const { key } of this.kv.list({ ...selector }, { limit: PURGE_LIMIT - old.length })) {
        old.push(key);
      }
      if (old.length >= PURGE_LIMIT) break;
    }
    for (let i = 0; i < old.length; i += PURGE_BATCH) {
      const ops = this.kv.atomic();
      for (const key of old.slice(i, i + PURGE_BATCH)) ops.delete(key);
      await ops.commit();
    }
    return old.length;
  }
}
