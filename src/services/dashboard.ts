/**
 * What the dashboard shows and changes, scoped to one account (its keys with their names, its
 * recent batch jobs) or to the operator (every account, grants, revocations). Every account-scoped
 * call checks ownership first: another account's key id or job id is `key_not_found` /
 * `batch_not_found`, exactly as an unknown one.
 *
 * Storage: `keyname:<key id>` (a key's display name; the key record itself belongs to Accounts).
 * @module
 */

import type { BatchJobRecord } from '../core/batch-record.ts';
import { accountKey } from '../core/email.ts';
import { ApiError } from '../errors.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import type { AccountRecord, Accounts, AccountView, CreatedKey, Scope } from './accounts.ts';
import { BatchStore, JOB_COUNTER_TTL_MS, jobCounterKey, recordOf } from './batch-store.ts';

/** Dependencies of {@link Dashboard}. */
export interface DashboardDeps {
  kv: KeyValue;
  /** Reads the counter that numbers an account's batch jobs. */
  ledger: Pick<Ledger, 'counter'>;
  accounts: Accounts;
  /** How long finished batch jobs stay visible. */
  batchRetentionMs: number;
}

/** A key as the dashboard lists it. */
export interface KeyRow {
  key_id: string;
  name: string;
  hint: string;
  scopes: Scope[];
  created_at: string;
  revoked: boolean;
}

/** One account in the operator's list. */
export interface AccountRow {
  account_id: string;
  email: string;
  plan: string;
  created_at: string;
  keys: number;
}

/** Longest key name kept. */
export const MAX_KEY_NAME = 60;
/** Most accounts an operator search lists. */
const MAX_ROWS = 50;
/**
 * The most job numbers the overview looks at: jobs expire in about the order they were numbered,
 * so past the newest this many that are gone, older ones are gone too.
 */
const RECENT_JOBS_PROBED = 100;

/** Documents read at once by {@link readAll}. */
const READ_AT_ONCE = 100;

/** The documents at `keys`, read {@link READ_AT_ONCE} at a time (on Redis, not a round trip each in turn). */
async function readAll<T>(kv: KeyValue, keys: readonly string[]): Promise<(T | undefined)[]> {
  const out: (T | undefined)[] = [];
  for (let i = 0; i < keys.length; i += READ_AT_ONCE) {
    out.push(...(await Promise.all(keys.slice(i, i + READ_AT_ONCE).map((key) => kv.get<T>(key)))));
  }
  return out;
}

/** The dashboard's reads and writes. */
export class Dashboard {
  private readonly batches: BatchStore;

  constructor(private readonly deps: DashboardDeps) {
    this.batches = new BatchStore(deps.kv, deps.batchRetentionMs);
  }

  /** An account with its keys (named); `account_not_found` when unknown. */
  async account(accountId: string): Promise<{ view: AccountView; keys: KeyRow[] }> {
    const view = await this.deps.accounts.view(accountId);
    const keys: KeyRow[] = [];
    for (const key of view.keys) {
      const name = (await this.deps.kv.get<string>(`keyname:${key.key_id}`)) ?? '';
      keys.push({ ...key, name });
    }
    return { view, keys };
  }

  /** Creates a named key on the account of `email` (the signed-in address); its secret is returned once. */
  async createKey(
    accountId: string,
    email: string,
    name: string,
    scopes: readonly Scope[],
  ): Promise<CreatedKey> {
    const trimmed = name.trim().slice(0, MAX_KEY_NAME);
    if (trimmed === '')
      throw new ApiError('invalid_request', 'Give the key a name.', { details: { field: 'name' } });
    if (scopes.includes('admin'))
      throw new ApiError('insufficient_scope', 'The dashboard cannot create admin keys.');
    const created = await this.deps.accounts.createKey({ email, emailKey: accountKey(email), scopes });
    if (created.account_id !== accountId) {
      await this.deps.accounts.revoke(created.key_id);
      throw new ApiError('internal_error', 'The key landed on another account and was revoked.');
    }
    await this.deps.kv.set(`keyname:${created.key_id}`, trimmed);
    return created;
  }

  /** Names one of the account's own keys (the first key of a sign-up has none); `key_not_found` otherwise. */
  async nameKey(accountId: string, keyId: string, name: string): Promise<void> {
    const view = await this.deps.accounts.view(accountId);
    if (!view.keys.some((k) => k.key_id === keyId))
      throw new ApiError('key_not_found', `No key with id ${keyId}.`);
    await this.deps.kv.set(`keyname:${keyId}`, name.trim().slice(0, MAX_KEY_NAME));
  }

  /** Revokes one of the account's own keys; any other id is `key_not_found`. */
  async revokeOwnKey(accountId: string, keyId: string): Promise<void> {
    const view = await this.deps.accounts.view(accountId);
    if (!view.keys.some((k) => k.key_id === keyId)) {
      throw new ApiError('key_not_found', `No key with id ${keyId}.`);
    }
    await this.deps.accounts.revoke(keyId);
  }

  /** The account's most recent batch jobs (newest first), as `GET /v1/batch/{id}` reports them. */
  async recentJobs(accountId: string, limit = 10): Promise<BatchJobRecord[]> {
    // By number, newest first (see batch-store.ts), a window of `limit` numbers at a time: a
    // number whose job is gone (expired, or a submission that failed after its number) is skipped.
    const last = await this.deps.ledger.counter(jobCounterKey(accountId), 0, JOB_COUNTER_TTL_MS);
    const jobs: BatchJobRecord[] = [];
    for (let top = last; top > 0 && top > last - RECENT_JOBS_PROBED && jobs.length < limit; top -= limit) {
      const ids = await this.batches.accountJobIds(accountId, top, limit);
      const states = await Promise.all(ids.map((id) => this.batches.state(id, false)));
      for (const state of states) {
        if (jobs.length < limit && state?.header.account === accountId)
          jobs.push(recordOf(state, this.deps.batchRetentionMs));
      }
    }
    return jobs;
  }

  /** One of the account's batch jobs; another account's, an unknown or a malformed id is `batch_not_found`. */
  async job(accountId: string, id: string): Promise<BatchJobRecord> {
    const state = /^batch_[A-Za-z0-9]{1,64}$/.test(id) ? await this.batches.state(id, false) : undefined;
    if (!state || state.header.account !== accountId) {
      throw new ApiError('batch_not_found', `No batch job with id ${id}.`);
    }
    return recordOf(state, this.deps.batchRetentionMs);
  }

  /** The operator's search: accounts whose id or email contains `query` (every account when empty). */
  async searchAccounts(query: string): Promise<AccountRow[]> {
    const needle = query.trim().toLowerCase();
    const rows: AccountRow[] = [];
    for (const account of await readAll<AccountRecord>(this.deps.kv, await this.deps.kv.list('account:'))) {
      if (!account) continue;
      const email = account.email ?? '';
      if (
        needle !== '' &&
        !account.account_id.toLowerCase().includes(needle) &&
        !email.toLowerCase().includes(needle)
      ) {
        continue;
      }
      rows.push({
        account_id: account.account_id,
        email,
        plan: account.plan,
        created_at: account.created_at,
        keys: account.keys.length,
      });
    }
    rows.sort((a, b) => b.created_at.localeCompare(a.created_at));
    return rows.slice(0, MAX_ROWS);
  }
}
