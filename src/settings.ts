/**
 * Settings: the configuration part of `AppOptions` resolved once, purely, into the values every
 * layer reads (prices, plans, packs, TTLs, limits, sign-up rules). Every limit, price, plan and
 * TTL is configuration with a default (decisions.md). No I/O here: ports are built in
 * `defaults.ts`.
 * @module
 */
import { BATCH_DEFAULTS } from './core/batch-settings.ts';
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

/** Resolves the configuration of `options`; throws on a contradiction (an unknown plan, a short secret). */
export function resolveSettings(options: AppOptions): Settings {
  const plans = resolvePlans(options.plans);
  const planAssignment = { ...DEFAULT_PLAN_ASSIGNMENT, ...options.planAssignment };
  for (const name of [planAssignment.initial, planAssignment.afterPack]) {
    if (!hasPlan(plans, name)) throw new Error(`planAssignment names the unknown plan '${name}'.`);
  }
  return {
    adminToken: options.adminToken === '' ? undefined : options.adminToken,
    metricsToken: options.metricsToken === '' ? undefined : options.metricsToken,
    secret: secretBytes(options.secret),
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
    transcriptBodies: options.transcriptBodies ?? 'bytes',
    limits: { ...DEFAULT_LIMITS, ...options.limits },
    trustProxy: proxyHops(options.trustProxy),
    publicUrl: options.publicUrl?.replace(/\/+$/, ''),
    corsOrigins: options.corsOrigins ?? [],
    dashboard: options.dashboard ?? true,
    routes: options.routes ?? 'all',
    batch: {
      retentionMs: options.batch?.retentionMs ?? 7 * 24 * 3_600_000,
      instanceConcurrency: options.batch?.instanceConcurrency ?? BATCH_DEFAULTS.concurrency,
      deadlineMs: options.limits?.deadlineMs ?? DEFAULT_LIMITS.deadlineMs,
      maxAttempts: BATCH_DEFAULTS.maxAttempts,
      ...(options.batch?.webhookRetryDelaysMs
        ? { webhookRetryDelaysMs: options.batch.webhookRetryDelaysMs }
        : {}),
    },
    webhookPrivate: options.webhooks?.allowPrivate ?? false,
    signup: resolveSignupSettings(options.signup),
    signupMode: options.signup?.mode ?? 'on',
  };
}
