/**
 * Settings: the configuration part of `AppOptions` resolved once, purely, into the values every
 * layer reads (prices, plans, packs, TTLs, limits, sign-up rules). Every limit, price, plan and
 * TTL is configuration with a default (decisions.md). No I/O here: ports are built in
 * `defaults.ts`.
 * @module
 */
import { BATCH_DEFAULTS } from './core/batch-settings.ts';
import { checkNumber, checkNumbers, type NumberBound } from './core/option-numbers.ts';
import {
  DEFAULT_PLAN_ASSIGNMENT,
  hasPlan,
  type PlanAssignment,
  type Plans,
  resolvePlans,
} from './core/plans.ts';
import {
  type BillingSettings,
  type CreditPacks,
  type Pricing,
  resolveBilling,
  resolvePacks,
  resolvePricing,
} from './core/pricing.ts';
import { resolveSignupSettings, type SignupSettings } from './core/signup-settings.ts';
import type { AppOptions, Limits, RouteSet } from './options.ts';
import type { BatchJobSettings } from './services/batch-jobs.ts';
import type { CacheTtls, TranscriptBodies } from './services/cache.ts';
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
  comments: 10 * 60_000,
});

/** The default limits. */
export const DEFAULT_LIMITS: Readonly<Limits> = Object.freeze({
  maxBodyBytes: 1024 * 1024,
  deadlineMs: 10_000,
  reservationTtlMs: 120_000,
  reconcileIntervalMs: 30_000,
  authFailures: { limit: 20, windowSeconds: 60 },
  cursorMaxAgeMs: 24 * 3_600_000,
});

/** The resolved configuration. */
export interface Settings {
  /** Bearer token for `/admin/*`; undefined = only keys with the `admin` scope. */
  adminToken: string | undefined;
  /** Bearer token for `GET /metrics` besides the admin token; undefined = only the admin token. */
  metricsToken: string | undefined;
  /** The configured HMAC secret, or undefined when it is elected through storage at start-up. */
  secret: Uint8Array | undefined;
  pricing: Pricing;
  plans: Plans;
  planAssignment: PlanAssignment;
  packs: CreditPacks;
  billing: Readonly<BillingSettings>;
  cache: { memoryBytes: number; staleMs: number; ttl: CacheTtls };
  /** How rendered transcripts are kept and answered (`AppOptions.transcriptBodies`). */
  transcriptBodies: TranscriptBodies;
  limits: Limits;
  /** Trusted reverse proxies in front (0 = none). */
  trustProxy: number;
  /** The public base URL without a trailing slash, or undefined (see `http/public-url.ts`). */
  publicUrl: string | undefined;
  /** Origins allowed by CORS (`'*'` = any); empty = CORS off. */
  corsOrigins: readonly string[] | '*';
  /** Whether `/dashboard` is served. */
  dashboard: boolean;
  routes: RouteSet;
  batch: BatchJobSettings;
  /** Batch webhooks may target loopback and private addresses. */
  webhookPrivate: boolean;
  signup: SignupSettings;
  signupMode: SignupMode;
}

/** The configured secret's bytes; at least 32 of them. */
function secretBytes(configured: string | Uint8Array | undefined): Uint8Array | undefined {
  if (configured === undefined) return undefined;
  const bytes = typeof configured === 'string' ? new TextEncoder().encode(configured) : configured;
  if (bytes.length < 32) throw new Error('The secret (TUBESCRIBE_SECRET) must be at least 32 bytes long.');
  return bytes;
}

/** The number of trusted proxies an option names (`true` = one). */
function proxyHops(trustProxy: boolean | number | undefined): number {
  if (trustProxy === true) return 1;
  if (trustProxy === false || trustProxy === undefined) return 0;
  return Math.max(0, Math.floor(trustProxy));
}

/** The cache options with their defaults; numbers checked. */
function resolveCache(cache: AppOptions['cache']): Settings['cache'] {
  const ttl = checkNumbers('cache.ttl.', { ...DEFAULT_CACHE_TTLS, ...cache?.ttl }, TTL_BOUNDS);
  return checkNumbers(
    'cache.',
    { memoryBytes: cache?.memoryBytes ?? 64 * 1024 * 1024, staleMs: cache?.staleMs ?? 24 * 3_600_000, ttl },
    { memoryBytes: 'whole ≥ 0', staleMs: '≥ 0' },
  );
}

/** Every cache lifetime: any length from 0. */
const TTL_BOUNDS = Object.fromEntries(Object.keys(DEFAULT_CACHE_TTLS).map((name) => [name, '≥ 0'])) as Record<
  keyof CacheTtls,
  NumberBound
>;

/** The limits with their defaults (`authFailures` merged field by field); numbers checked. */
function resolveLimits(limits: Partial<Limits> = {}): Limits {
  const authFailures = checkNumbers(
    'limits.authFailures.',
    { ...DEFAULT_LIMITS.authFailures, ...limits.authFailures },
    { limit: 'whole ≥ 1', windowSeconds: '> 0' },
  );
  return checkNumbers(
    'limits.',
    { ...DEFAULT_LIMITS, ...limits, authFailures },
    {
      maxBodyBytes: 'whole ≥ 1',
      deadlineMs: '> 0',
      reservationTtlMs: '> 0',
      reconcileIntervalMs: '≥ 0',
      cursorMaxAgeMs: '> 0',
    },
  );
}

/** The batch settings with their defaults; numbers checked. */
function resolveBatch(batch: AppOptions['batch'], deadlineMs: number): BatchJobSettings {
  const delays = batch?.webhookRetryDelaysMs;
  if (delays !== undefined) {
    if (!Array.isArray(delays) || delays.length === 0)
      throw new Error('The option batch.webhookRetryDelaysMs must be a list of at least one delay.');
    for (const [i, delay] of delays.entries()) checkNumber(`batch.webhookRetryDelaysMs[${i}]`, delay, '≥ 0');
  }
  return {
    ...checkNumbers(
      'batch.',
      {
        retentionMs: batch?.retentionMs ?? 7 * 24 * 3_600_000,
        instanceConcurrency: batch?.instanceConcurrency ?? BATCH_DEFAULTS.concurrency,
      },
      { retentionMs: '≥ 0', instanceConcurrency: 'whole ≥ 0' },
    ),
    deadlineMs,
    maxAttempts: BATCH_DEFAULTS.maxAttempts,
    ...(delays ? { webhookRetryDelaysMs: delays } : {}),
  };
}

/** Resolves the configuration of `options`; throws on a contradiction (an unknown plan, a short secret). */
export function resolveSettings(options: AppOptions): Settings {
  const plans = resolvePlans(options.plans);
  const planAssignment = { ...DEFAULT_PLAN_ASSIGNMENT, ...options.planAssignment };
  for (const name of [planAssignment.initial, planAssignment.afterPack]) {
    if (!hasPlan(plans, name)) throw new Error(`planAssignment names the unknown plan '${name}'.`);
  }
  const limits = resolveLimits(options.limits);
  return {
    adminToken: options.adminToken === '' ? undefined : options.adminToken,
    metricsToken: options.metricsToken === '' ? undefined : options.metricsToken,
    secret: secretBytes(options.secret),
    pricing: resolvePricing(options.pricing),
    plans,
    planAssignment,
    packs: resolvePacks(options.packs),
    billing: resolveBilling(options.billing),
    cache: resolveCache(options.cache),
    transcriptBodies: options.transcriptBodies ?? 'bytes',
    limits,
    trustProxy: proxyHops(options.trustProxy),
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    corsOrigins: options.corsOrigins ?? [],
    dashboard: options.dashboard ?? true,
    routes: options.routes ?? 'all',
    batch: resolveBatch(options.batch, limits.deadlineMs),
    webhookPrivate: options.webhooks?.allowPrivate ?? false,
    signup: resolveSignupSettings(options.signup),
    signupMode: options.signup?.mode ?? 'on',
  };
}
