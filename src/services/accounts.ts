/**
 * Accounts and API keys: creation, authentication, revocation, credits and plans.
 *
 * Storage (KeyValue): `account:<id>` (plan, email, key ids), `apikey:<sha256>` (the key's record;
 * only the digest of a key is ever stored), `keyid:<id>` (digest and state, for revocation),
 * `email:<account key>` (one account per address). Credits live in the Ledger.
 * Callers of known keys are kept in memory ({@link PrincipalCache}); a revocation or a plan change
 * is announced to every instance before it answers, so it still holds at once everywhere.
 * @module
 */
import { apiKeyDigest, generateApiKey, isWellFormedApiKey, keyHint, newId } from '../core/api-keys.ts';
import {
  type Plan,
  type PlanAssignment,
  type Plans,
  planOf,
  requestsPerDay,
  requestsPerSecond,
} from '../core/plans.ts';
import { type CreditPacks, resolvePack } from '../core/pricing.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import type { Random } from '../ports/random.ts';
import { accountChanged, keyChanged, PrincipalCache } from './principal-cache.ts';

/** Key scopes (decisions.md). */
export const SCOPES = ['transcripts:read', 'transcripts:stream', 'data:read', 'admin'] as const;
/** One scope. */
export type Scope = (typeof SCOPES)[number];
/** The scopes of a key created without any: every scope but `admin`. */
export const DEFAULT_SCOPES: readonly Scope[] = ['transcripts:read', 'transcripts:stream', 'data:read'];

/** True when `value` names a scope. */
export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/**
 * True when a key with `scopes` may use an endpoint that needs `needed`. The `admin` scope is full
 * access (api-spec.md: "admin (full access and team management)"), so it satisfies every scope.
 */
export function hasScope(scopes: readonly Scope[], needed: Scope): boolean {
  return scopes.includes(needed) || scopes.includes('admin');
}

/** The stored account document. */
export interface AccountRecord {
  account_id: string;
  plan: string;
  email?: string;
  created_at: string;
  keys: string[];
}

/** The stored key document (under the key's digest). */
export interface KeyRecord {
  key_id: string;
  account_id: string;
  scopes: Scope[];
  hint: string;
  created_at: string;
}

interface KeyIdRecord {
  digest: string;
  account_id: string;
  revoked_at?: string;
}

/** Who is calling. */
export interface Principal {
  accountId: string;
  keyId: string;
  scopes: readonly Scope[];
  plan: Plan;
}

/** Dependencies of {@link Accounts}. */
export interface AccountsDeps {
  kv: KeyValue;
  ledger: Ledger;
  clock: Clock;
  random: Random;
  plans: Plans;
  planAssignment: PlanAssignment;
  packs: CreditPacks;
}

/** What creating a key returns (the admin API's 201 body). */
export interface CreatedKey {
  api_key: string;
  key_id: string;
  account_id: string;
  credits: number;
  plan: string;
}

/** The account and its keys, as the admin API shows it. */
export interface AccountView {
  account_id: string;
  credits: number;
  plan: string;
  email?: string;
  created_at: string;
  keys: {
    key_id: string;
    hint: string;
    scopes: Scope[];
    created_at: string;
    revoked: boolean;
    /** When the key was last used (to the minute); absent when never, or not recorded. */
    last_used_at?: string;
  }[];
}

/** Accounts and keys. */
export class Accounts {
  private readonly principals: PrincipalCache<Principal>;

  constructor(private readonly deps: AccountsDeps) {
    this.principals = new PrincipalCache(deps.ledger);
  }

  /**
   * Creates a key, on the account of `email` when one exists (one account per address), else on a
   * new account. `credits` are granted once (idempotent per new key).
   */
  async createKey(input: {
    credits?: number;
    plan?: string;
    scopes?: readonly Scope[];
    email?: string;
    emailKey?: string;
  }): Promise<CreatedKey> {
    const { kv, ledger, random, clock } = this.deps;
    if (input.plan !== undefined) planOf(this.deps.plans, input.plan);
    const now = new Date(clock.now()).toISOString();
    const existingId = input.emailKey ? await kv.get<string>(`email:${input.emailKey}`) : undefined;
    let planChanged = false;
    let account = existingId ? await kv.get<AccountRecord>(`account:${existingId}`) : undefined;
    if (!account) {
      account = {
        account_id: newId('acc', random),
        plan: input.plan ?? this.deps.planAssignment.initial,
        created_at: now,
        keys: [],
      };
      if (input.email !== undefined) account.email = input.email;
    } else if (input.plan !== undefined && input.plan !== account.plan) {
      account.plan = input.plan;
      planChanged = true;
    }
    const apiKey = generateApiKey(random);
    const digest = await apiKeyDigest(apiKey);
    const keyId = newId('key', random);
    const record: KeyRecord = {
      key_id: keyId,
      account_id: account.account_id,
      scopes: [...(input.scopes && input.scopes.length > 0 ? new Set(input.scopes) : DEFAULT_SCOPES)],
      hint: keyHint(apiKey),
      created_at: now,
    };
    account.keys.push(keyId);
    // The key becomes usable only with its last write, after the account exists.
    await kv.set(`account:${account.account_id}`, account);
    if (planChanged) await this.principals.announce(accountChanged(account.account_id));
    if (input.emailKey) await kv.set(`email:${input.emailKey}`, account.account_id);
    await kv.set<KeyIdRecord>(`keyid:${keyId}`, { digest, account_id: account.account_id });
    await kv.set(`apikey:${digest}`, record);
    if (input.credits !== undefined && input.credits > 0) {
      await ledger.grant(account.account_id, input.credits, `key-create:${keyId}`);
    }
    const credits = (await ledger.credits(account.account_id)).balance;
    return { api_key: apiKey, key_id: keyId, account_id: account.account_id, credits, plan: account.plan };
  }

  /** The caller behind `rawKey`: `invalid_api_key` for malformed, unknown or revoked keys. */
  async authenticate(rawKey: string): Promise<Principal> {
    const known = await this.principals.get(rawKey);
    if (known) return known;
    if (!isWellFormedApiKey(rawKey)) throw new ApiError('invalid_api_key', 'The API key is not valid.');
    const generation = this.principals.generation;
    const record = await this.deps.kv.get<KeyRecord>(`apikey:${await apiKeyDigest(rawKey)}`);
    if (!record) throw new ApiError('invalid_api_key', 'The API key is not valid or was revoked.');
    const account = await this.deps.kv.get<AccountRecord>(`account:${record.account_id}`);
    if (!account) throw new ApiError('invalid_api_key', 'The API key is not valid or was revoked.');
    const principal: Principal = {
      accountId: account.account_id,
      keyId: record.key_id,
      scopes: record.scopes,
      plan: this.planFor(account),
    };
    this.principals.set(rawKey, principal, generation);
    return principal;
  }

  /** Revokes a key at once; `key_not_found` when there is no such key. */
  async revoke(keyId: string): Promise<void> {
    const ref = await this.deps.kv.get<KeyIdRecord>(`keyid:${keyId}`);
    if (!ref) throw new ApiError('key_not_found', `No key with id ${keyId}.`);
    await this.deps.kv.delete(`apikey:${ref.digest}`);
    await this.principals.announce(keyChanged(keyId));
    if (!ref.revoked_at) {
      await this.deps.kv.set<KeyIdRecord>(`keyid:${keyId}`, {
        ...ref,
        revoked_at: new Date(this.deps.clock.now()).toISOString(),
      });
    }
  }

  /** The account with its keys; `account_not_found` when unknown. */
  async view(accountId: string): Promise<AccountView> {
    const account = await this.load(accountId);
    const keys: AccountView['keys'] = [];
    const used = (await this.deps.ledger.keysLastUsed?.(account.keys)) ?? {};
    for (const keyId of account.keys) {
      const ref = await this.deps.kv.get<KeyIdRecord>(`keyid:${keyId}`);
      const record =
        ref && !ref.revoked_at ? await this.deps.kv.get<KeyRecord>(`apikey:${ref.digest}`) : undefined;
      keys.push({
        key_id: keyId,
        hint: record?.hint ?? '',
        scopes: record?.scopes ?? [],
        created_at: record?.created_at ?? '',
        revoked: !record,
        ...(used[keyId] !== undefined ? { last_used_at: new Date(used[keyId]).toISOString() } : {}),
      });
    }
    const view: AccountView = {
      account_id: account.account_id,
      credits: (await this.deps.ledger.credits(accountId)).balance,
      plan: account.plan,
      created_at: account.created_at,
      keys,
    };
    if (account.email !== undefined) view.email = account.email;
    return view;
  }

  /**
   * Adds credits: an `amount`, or a named `pack` (which also moves the account to the paid plan).
   * With an `idempotencyKey`, repeating the call adds nothing; without one, every call grants.
   */
  async grant(
    accountId: string,
    input: { amount?: number; pack?: string },
    idempotencyKey: string = newId('grant', this.deps.random),
  ): Promise<{ credits: number; plan: string; applied: boolean }> {
    const account = await this.load(accountId);
    const amount = input.pack !== undefined ? resolvePack(this.deps.packs, input.pack) : (input.amount ?? 0);
    const result = await this.deps.ledger.grant(accountId, amount, `admin:${accountId}:${idempotencyKey}`);
    if (input.pack !== undefined && account.plan !== this.deps.planAssignment.afterPack) {
      account.plan = this.deps.planAssignment.afterPack;
      await this.deps.kv.set(`account:${accountId}`, account);
      await this.principals.announce(accountChanged(accountId));
    }
    return { credits: result.balance, plan: account.plan, applied: result.applied };
  }

  /** `GET /v1/account`. */
  async me(principal: Principal): Promise<{
    account_id: string;
    credits: number;
    plan: string;
    limits: { requests_per_second: number; requests_per_day: number | null };
  }> {
    return {
      account_id: principal.accountId,
      credits: (await this.deps.ledger.credits(principal.accountId)).balance,
      plan: principal.plan.name,
      limits: {
        requests_per_second: requestsPerSecond(principal.plan),
        requests_per_day: requestsPerDay(principal.plan),
      },
    };
  }

  private async load(accountId: string): Promise<AccountRecord> {
    const account = /^acc_[A-Za-z0-9]{1,64}$/.test(accountId)
      ? await this.deps.kv.get<AccountRecord>(`account:${accountId}`)
      : undefined;
    if (!account) throw new ApiError('account_not_found', `No account with id ${accountId}.`);
    return account;
  }

  private planFor(account: AccountRecord): Plan {
    return this.deps.plans[account.plan] ?? planOf(this.deps.plans, this.deps.planAssignment.initial);
  }
}
