/**
 * Options of `createApp` and their resolution into the dependencies every layer shares.
 * Every limit, price, plan and TTL is configuration with a default (decisions.md).
 * @module
 */

import { fromHex, toHex } from './core/digest.ts';
import { DEFAULT_PLAN_ASSIGNMENT, type PlanAssignment, type Plans, resolvePlans } from './core/plans.ts';
import {
  type BillingSettings,
  type CreditPacks,
  type Operation,
  type Pricing,
  resolveBilling,
  resolvePacks,
  resolvePricing,
} from './core/pricing.ts';
import { resolveSignupSettings, type SignupOverrides, type SignupSettings } from './core/signup-settings.ts';
import { loadDisposableDomains } from './drivers/disposable.ts';
import { createMemoryKv } from './drivers/kv-unstorage.ts';
import { createEmbeddedLedger } from './drivers/ledger-embedded.ts';
import { createConsoleMailer } from './drivers/mailer-console.ts';
import { guardKv, guardLedger } from './drivers/storage-guard.ts';
import { createJsonLogger, cryptoRandom, systemClock } from './drivers/system.ts';
import type { Clock } from './ports/clock.ts';
import type { Resolver } from './ports/dns.ts';
import type { KeyValue } from './ports/kv.ts';
import type { Ledger, RateRule } from './ports/ledger.ts';
import type { Logger } from './ports/logger.ts';
import type { Mailer } from './ports/mailer.ts';
import type { Random } from './ports/random.ts';
import type { Upstream } from './ports/upstream.ts';
import type { CacheTtls } from './services/cache.ts';
import type { SignupMode } from './services/signup.ts';

/** The default cache lifetimes. */
export const DEFAULT_CACHE_TTLS: Readonly<CacheTtls> = Object.freeze({
  player: 10 * 60_000,
  captions: 24 * 3_600_000,
  extras: 60 * 60_000,
  channel: 60 * 60_000,
  channelPage: 15 * 60_000,
  latest: 10 * 60_000,
  playlist: 30 * 60_000,
  search: 10 * 60_000,
  suggestions: 60 * 60_000,
});

/** Request and abuse limits. */
export interface Limits {
  /** Largest accepted request body. Default 1 MiB. */
  maxBodyBytes: number;
  /** Deadline for the whole upstream work of one API call. Default 10 s. */
  deadlineMs: number;
  /** Lifetime of a credit reservation before the reconciler returns it. Default 2 min. */
  reservationTtlMs: number;
  /** How often expired reservations are returned. Default 30 s; 0 = never (tests call reconcile). */
  reconcileIntervalMs: number;
  /** Failed authentications allowed per client address (IPv4 address, IPv6 /64). Default 20 per minute. */
  authFailures: { limit: number; windowSeconds: number };
  /** Oldest cursor accepted. Default 24 h. */
  cursorMaxAgeMs: number;
}

/** The default limits. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  deadlineMs: 10_000,
  reservationTtlMs: 120_000,
  reconcileIntervalMs: 30_000,
  authFailures: { limit: 20, windowSeconds: 60 },
  cursorMaxAgeMs: 24 * 3_600_000,
});

/** Options of `createApp`. Every field is optional. */
export interface AppOptions {
  /** The YouTube data source. Default: the YouTube driver (`createYouTubeUpstream()`). */
  upstream?: Upstream;
  /** Document storage (accounts, keys, cache L2). Default: in memory. */
  kv?: KeyValue;
  /** Atomic counters (credits, limits). Default: the embedded ledger persisted through `kv`. */
  ledger?: Ledger;
  clock?: Clock;
  random?: Random;
  logger?: Logger;
  /** HMAC secret for cursors and sign-up codes (≥ 32 bytes). Default: generated once and kept in `kv`. */
  secret?: string | Uint8Array;
  /** Bearer token for `/admin/*`. Unset = only keys with the `admin` scope may use it. */
  adminToken?: string;
  pricing?: Partial<Record<Operation, number>>;
  plans?: Readonly<Record<string, readonly RateRule[]>>;
  planAssignment?: Partial<PlanAssignment>;
  packs?: Readonly<Record<string, number>>;
  billing?: Partial<BillingSettings>;
  cache?: { memoryBytes?: number; staleMs?: number; ttl?: Partial<CacheTtls> };
  limits?: Partial<Limits>;
  /**
   * Behind trusted reverse proxies, take the client address from `X-Forwarded-For`: `true` (one
   * proxy) or the number of proxies; the entry that many hops from the right is used.
   */
  trustProxy?: boolean | number;
  /** The public base URL, for links in docs and responses. Default: the request's origin. */
  publicUrl?: string;
  /** Sends sign-up codes. Default: the console mailer (development: it logs the code). */
  mailer?: Mailer;
  /** Deliverability lookups for sign-up; `null` = none (`TUBESCRIBE_DNS=off`). Default: none. */
  resolver?: Resolver | null;
  /** The disposable-domain set (default: the `disposable-domains` list from npm, loaded on first use). */
  disposableDomains?: () => Promise<(domain: string) => boolean>;
  /**
   * Which routes this app serves: `all` (default), `api` (without agent sign-up), or `signup`
   * alone (the contract's {signup_url} on another host, sharing the same storage).
   */
  routes?: 'all' | 'api' | 'signup';
  /** Agent sign-up: `mode` (`on` default, `paused`, `off`) and the limits of core/signup-settings. */
  signup?: SignupOverrides & { mode?: SignupMode };
}

/** Everything resolved. */
export interface Deps {
  upstream: Upstream;
  kv: KeyValue;
  ledger: Ledger;
  clock: Clock;
  random: Random;
  logger: Logger;
  secret: Uint8Array;
  adminToken: string | undefined;
  pricing: Pricing;
  plans: Plans;
  planAssignment: PlanAssignment;
  packs: CreditPacks;
  billing: Readonly<BillingSettings>;
  cache: { memoryBytes: number; staleMs: number; ttl: CacheTtls };
  limits: Limits;
  trustProxy: boolean | number;
  publicUrl: string | undefined;
  mailer: Mailer;
  resolver: Resolver | undefined;
  disposableDomains: () => Promise<(domain: string) => boolean>;
  signup: SignupSettings;
  signupMode: SignupMode;
}

/** Resolves the options: validates configuration, opens default storage, loads the secret. */
export async function resolveDeps(
  options: AppOptions,
  defaultUpstream: (base: { clock: Clock; random: Random; logger: Logger }) => Upstream,
): Promise<Deps> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandom;
  const logger = options.logger ?? createJsonLogger({ clock });
  const kv = guardKv(options.kv ?? createMemoryKv(clock));
  const ledger = guardLedger(options.ledger ?? (await createEmbeddedLedger({ clock, kv })));
  const plans = resolvePlans(options.plans);
  const planAssignment = { ...DEFAULT_PLAN_ASSIGNMENT, ...options.planAssignment };
  for (const name of [planAssignment.initial, planAssignment.afterPack]) {
    if (!(name in plans)) throw new Error(`planAssignment names the unknown plan '${name}'.`);
  }
  return {
    upstream: options.upstream ?? defaultUpstream({ clock, random, logger }),
    kv,
    ledger,
    clock,
    random,
    logger,
    secret: await loadSecret(options.secret, kv, ledger, random),
    adminToken: options.adminToken === '' ? undefined : options.adminToken,
    pricing: resolvePricing(options.pricing),
    plans,
    planAssignment,
    packs: resolvePacks(options.packs),
    billing: resolveBilling(options.billing),
    cache: {
      memoryBytes: options.cache?.memoryBytes ?? 64 * 1024 * 1024,
      staleMs: options.cache?.staleMs ?? 24 * 3_600_000,
      ttl: { ...DEFAULT_CACHE_TTLS, ...options.cache?.ttl },
    },
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    trustProxy: options.trustProxy ?? false,
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    mailer: options.mailer ?? createConsoleMailer(logger),
    resolver: options.resolver ?? undefined,
    disposableDomains: options.disposableDomains ?? loadDisposableDomains,
    signup: resolveSignupSettings(options.signup),
    signupMode: options.signup?.mode ?? 'on',
  };
}

const SECRET_KEY = 'config:secret';

/**
 * The HMAC secret: the configured one, else the one kept in storage, else a new one that exactly
 * one instance generates (consume-once election) and the others wait for.
 */
async function loadSecret(
  configured: string | Uint8Array | undefined,
  kv: KeyValue,
  ledger: Ledger,
  random: Random,
): Promise<Uint8Array> {
  if (configured !== undefined) {
    const bytes = typeof configured === 'string' ? new TextEncoder().encode(configured) : configured;
    if (bytes.length < 32) throw new Error('The secret (TUBESCRIBE_SECRET) must be at least 32 bytes long.');
    return bytes;
  }
  for (let attempt = 0; attempt < 100; attempt++) {
    const stored = await kv.get<string>(SECRET_KEY);
    const bytes = stored ? fromHex(stored) : undefined;
    if (bytes && bytes.length >= 32) return bytes;
    if (await ledger.consumeOnce(`${SECRET_KEY}:init`, 60_000)) {
      const secret = random.bytes(32);
      await kv.set(SECRET_KEY, toHex(secret));
      return secret;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('Timed out waiting for another instance to create the shared secret.');
}
