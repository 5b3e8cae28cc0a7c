/**
 * The server's settings from `TUBESCRIBE_*` environment variables, each overridden by the flag of
 * the same name (`TUBESCRIBE_PORT` ↔ `--port`, `TUBESCRIBE_ADMIN_TOKEN` ↔ `--admin-token`), as
 * decisions.md's Operator interface says.
 * @module
 */
import { existsSync } from 'node:fs';
import { potProviderUrl } from '../drivers/youtube/po-token.ts';
import { type ProfileOverrides, profilesFromEnv } from '../drivers/youtube/profiles.ts';
import type { LogLevel } from '../ports/logger.ts';
import { type Args, flag } from './args.ts';
import { exposureOf } from './exposure.ts';
import { type PlanConfig, parsePlanConfig } from './plans.ts';

/** Where keys, credits and the cache live (`TUBESCRIBE_STORAGE`). */
export type StorageSpec = { kind: 'memory' } | { kind: 'fs'; dir: string } | { kind: 'redis'; url: string };

/** Where YouTube data comes from (`TUBESCRIBE_UPSTREAM`). */
export type UpstreamSpec = { kind: 'youtube' } | { kind: 'fixtures'; dir: string };

/** Everything `serve` and the key commands need. */
export interface Config {
  port: number;
  host: string;
  storage: StorageSpec;
  upstream: UpstreamSpec;
  youtubeOrigin: string | undefined;
  /** Outbound proxies (`TUBESCRIBE_PROXY`, comma-separated), rotated. */
  proxies: string[];
  /** YouTube client overrides (`TUBESCRIBE_YOUTUBE_CLIENTS`). */
  youtubeClients: ProfileOverrides;
  /** A bgutil PO-token provider for WEB caption URLs (`TUBESCRIBE_POT_PROVIDER`). */
  potProvider: string | undefined;
  adminToken: string | undefined;
  /** Bearer token for `GET /metrics` besides the admin token (`TUBESCRIBE_METRICS_TOKEN`). */
  metricsToken: string | undefined;
  secret: string | undefined;
  mailer: string;
  dns: string;
  log: LogLevel | 'silent';
  /** Reverse proxies in front (their X-Forwarded-For entries are trusted). */
  trustProxy: number;
  /** The public base URL for links in docs and responses. */
  publicUrl: string | undefined;
  /** Origins allowed by CORS (`TUBESCRIBE_CORS_ORIGINS`: comma-separated, or `*`); empty = off. */
  corsOrigins: readonly string[] | '*';
  /** Batch webhooks may target loopback and private addresses (`TUBESCRIBE_WEBHOOK_PRIVATE=allow`). */
  webhookPrivate: boolean;
  /** Whether `/dashboard` is served (`TUBESCRIBE_DASHBOARD`: on, the default, or off). */
  dashboard: boolean;
  /** Rate-limit plans (`TUBESCRIBE_PLANS`, JSON) and the plan of new accounts (`TUBESCRIBE_DEFAULT_PLAN`). */
  plans: PlanConfig;
  /**
   * Batch tasks at once on this instance (`TUBESCRIBE_BATCH_CONCURRENCY`, default 10); 0, with
   * redis:// storage only: none, the other instances on that Redis do the batch work.
   */
  batchConcurrency: number | undefined;
  /**
   * Agent sign-up: on, paused (503 agent_signup_busy) or off (503 agent_signup_disabled): as
   * requested, except `off` when the console mailer serves a non-loopback address (exposure.ts).
   */
  signup: 'on' | 'paused' | 'off';
  /** The console mailer may log sign-up codes: it is the mailer and the host is loopback only. */
  revealCodes: boolean;
  /** Why sign-up was switched off for safety, to print at start-up. */
  signupWarning: string | undefined;
}

const DEFAULTS = {
  port: '8787',
  host: '127.0.0.1',
  storage: 'fs:./.tubescribe',
  upstream: 'youtube',
  mailer: 'console',
  dns: 'system',
  log: 'info',
};

/** A configuration mistake: printed without a stack, exit code 2. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** `TUBESCRIBE_CORS_ORIGINS`: `*` or comma-separated origins, each `scheme://host[:port]`. */
function corsOriginsOf(text: string | undefined): readonly string[] | '*' {
  const value = (text ?? '').trim();
  if (value === '*') return '*';
  const origins = value
    .split(',')
    .map((origin) => origin.trim().replace(/\/+$/, ''))
    .filter((origin) => origin !== '');
  for (const origin of origins) {
    if (!URL.canParse(origin) || new URL(origin).origin !== origin) {
      throw new ConfigError(
        `TUBESCRIBE_CORS_ORIGINS must be * or origins like https://app.example.com, not "${origin}".`,
      );
    }
  }
  return origins;
}

/** The settings a flag may give instead of the environment (`--port 9000` for TUBESCRIBE_PORT). */
const FLAG_SETTINGS = [
  'PORT',
  'HOST',
  'STORAGE',
  'UPSTREAM',
  'YOUTUBE_ORIGIN',
  'PROXY',
  'POT_PROVIDER',
  'ADMIN_TOKEN',
  'METRICS_TOKEN',
  'SECRET',
  'MAILER',
  'DNS',
  'LOG',
  'TRUST_PROXY',
  'PUBLIC_URL',
  'CORS_ORIGINS',
  'SIGNUP',
  'WEBHOOK_PRIVATE',
  'DASHBOARD',
  'PLANS',
  'DEFAULT_PLAN',
  'BATCH_CONCURRENCY',
] as const;
type FlagSetting = (typeof FLAG_SETTINGS)[number];

const flagOf = (name: FlagSetting): string => name.toLowerCase().replace(/_/g, '-');
const SETTING_FLAGS: ReadonlySet<string> = new Set([...FLAG_SETTINGS.map(flagOf), 'help', 'h']);

/**
 * Refuses a flag that neither `command` (its `own` flags) nor any setting takes: a mistyped
 * `--credit 100` or `--prot 9000` must stop the command, not pass as nothing.
 */
export function checkFlags(args: Args, command: string, own: readonly string[] = []): void {
  for (const name of args.flags.keys()) {
    if (own.includes(name) || SETTING_FLAGS.has(name)) continue;
    const takes =
      own.length > 0 ? ` (it takes ${own.map((f) => `--${f}`).join(', ')} and the settings' flags)` : '';
    throw new ConfigError(`${command} has no --${name} flag${takes}; see tubescribe help.`);
  }
}

/** Reads a setting: the flag, else the environment variable, else the default. */
function setting(args: Args, env: Record<string, string | undefined>, name: FlagSetting): string | undefined {
  const fromFlag = flag(args, flagOf(name));
  if (fromFlag !== undefined && fromFlag !== '') return fromFlag;
  const fromEnv = env[`TUBESCRIBE_${name}`];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

/** The storage a `TUBESCRIBE_STORAGE` value names. */
function storageSpec(text: string): StorageSpec {
  if (text === 'memory') return { kind: 'memory' };
  if (text.startsWith('fs:')) {
    const dir = text.slice(3);
    if (dir === '') throw new ConfigError('TUBESCRIBE_STORAGE=fs: needs a folder, e.g. fs:./.tubescribe');
    return { kind: 'fs', dir };
  }
  if (/^rediss?:\/\//.test(text)) return { kind: 'redis', url: text };
  throw new ConfigError(`TUBESCRIBE_STORAGE must be memory, fs:<dir> or redis://…, not "${text}".`);
}

/** The upstream a `TUBESCRIBE_UPSTREAM` value names. */
function upstreamSpec(text: string): UpstreamSpec {
  if (text === 'youtube') return { kind: 'youtube' };
  if (text.startsWith('fixtures:')) {
    const dir = text.slice('fixtures:'.length);
    // Else every video would answer 404 from a folder that is not there.
    if (!existsSync(dir)) throw new ConfigError(`TUBESCRIBE_UPSTREAM=${text}: there is no folder ${dir}.`);
    return { kind: 'fixtures', dir };
  }
  throw new ConfigError(`TUBESCRIBE_UPSTREAM must be youtube or fixtures:<dir>, not "${text}".`);
}

/**
 * `value` when it is an absolute http(s) URL (without a query or fragment when `base`), else a
 * ConfigError naming `TUBESCRIBE_<name>` (a password in the value is not repeated).
 */
function httpUrl(name: string, value: string, example: string, base = false): string {
  if (!/^https?:\/\/[^/?#]/i.test(value) || !URL.canParse(value) || (base && /[?#]/.test(value))) {
    const shown = value.replace(/\/\/[^@/]*@/, '//***@');
    throw new ConfigError(`TUBESCRIBE_${name} must be an http(s) URL like ${example}, not "${shown}".`);
  }
  return value;
}

/** `read()`'s value; its error (a setting it refused) as a ConfigError, so the command exits 2. */
export function asConfigError<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw error instanceof ConfigError ? error : new ConfigError((error as Error).message);
  }
}

/** `text` as a whole number from 0 to `max` (digits only), or undefined when it is not one. */
function wholeNumberUpTo(text: string, max: number): number | undefined {
  const value = Number(text);
  return /^\d+$/.test(text) && value <= max ? value : undefined;
}

/** The most batch tasks one instance may run at once (`TUBESCRIBE_BATCH_CONCURRENCY`). */
const MAX_BATCH_CONCURRENCY = 1000;

/** `TUBESCRIBE_BATCH_CONCURRENCY`: a whole number; 0 only where other instances share the queue. */
function batchConcurrencyOf(text: string | undefined, storage: StorageSpec): number | undefined {
  if (text === undefined) return undefined;
  const value = wholeNumberUpTo(text.trim(), MAX_BATCH_CONCURRENCY);
  if (value === undefined) {
    throw new ConfigError(
      `TUBESCRIBE_BATCH_CONCURRENCY must be a whole number from 0 to ${MAX_BATCH_CONCURRENCY}, not "${text}".`,
    );
  }
  if (value === 0 && storage.kind !== 'redis') {
    throw new ConfigError(
      'TUBESCRIBE_BATCH_CONCURRENCY=0 leaves batch work to other instances, which needs redis:// storage: ' +
        `with ${storage.kind} storage no batch job would ever run.`,
    );
  }
  return value;
}

/** A storage or upstream spec as text for logs, without a password. */
export function describeSpec(spec: StorageSpec | UpstreamSpec): string {
  if (spec.kind === 'redis') return spec.url.replace(/\/\/[^@]*@/, '//***@');
  return 'dir' in spec ? `${spec.kind}:${spec.dir}` : spec.kind;
}

/** The configuration of a command line in an environment. */
export function loadConfig(args: Args, env: Record<string, string | undefined>): Config {
  const get = (name: FlagSetting) => setting(args, env, name);
  const portText = get('PORT') ?? DEFAULTS.port;
  const port = wholeNumberUpTo(portText, 65535);
  if (port === undefined) throw new ConfigError(`TUBESCRIBE_PORT must be 0–65535, not "${portText}".`);
  const log = (get('LOG') ?? DEFAULTS.log).toLowerCase();
  if (!['debug', 'info', 'warn', 'error', 'silent'].includes(log)) {
    throw new ConfigError(`TUBESCRIBE_LOG must be debug, info, warn, error or silent, not "${log}".`);
  }
  const storage = storageSpec(get('STORAGE') ?? DEFAULTS.storage);
  const upstream = upstreamSpec(get('UPSTREAM') ?? DEFAULTS.upstream);
  const secret = get('SECRET');
  if (secret !== undefined && new TextEncoder().encode(secret).length < 32) {
    throw new ConfigError('TUBESCRIBE_SECRET must be at least 32 bytes long.');
  }
  const trustText = get('TRUST_PROXY') ?? '0';
  const trustProxy = trustText === 'true' ? 1 : trustText === 'false' ? 0 : Number(trustText);
  if (!Number.isInteger(trustProxy) || trustProxy < 0 || trustProxy > 10) {
    throw new ConfigError(
      `TUBESCRIBE_TRUST_PROXY must be the number of reverse proxies (0–10), not "${trustText}".`,
    );
  }
  const webhookPrivate = (get('WEBHOOK_PRIVATE') ?? 'deny').toLowerCase();
  if (webhookPrivate !== 'allow' && webhookPrivate !== 'deny') {
    throw new ConfigError(`TUBESCRIBE_WEBHOOK_PRIVATE must be allow or deny, not "${webhookPrivate}".`);
  }
  const dashboard = (get('DASHBOARD') ?? 'on').toLowerCase();
  if (dashboard !== 'on' && dashboard !== 'off') {
    throw new ConfigError(`TUBESCRIBE_DASHBOARD must be on or off, not "${dashboard}".`);
  }
  const signup = (get('SIGNUP') ?? 'on').toLowerCase();
  if (signup !== 'on' && signup !== 'paused' && signup !== 'off') {
    throw new ConfigError(`TUBESCRIBE_SIGNUP must be on, paused or off, not "${signup}".`);
  }
  const plans = asConfigError(() => parsePlanConfig(get('PLANS'), get('DEFAULT_PLAN')));
  const batchConcurrency = batchConcurrencyOf(get('BATCH_CONCURRENCY'), storage);
  const potProvider = get('POT_PROVIDER');
  if (potProvider !== undefined) asConfigError(() => potProviderUrl(potProvider));
  const publicText = get('PUBLIC_URL');
  const publicUrl =
    publicText === undefined
      ? undefined
      : httpUrl('PUBLIC_URL', publicText, 'https://api.example.com/tubescribe', true);
  const youtubeOrigin = get('YOUTUBE_ORIGIN');
  const host = get('HOST') ?? DEFAULTS.host;
  const mailer = get('MAILER') ?? DEFAULTS.mailer;
  const exposure = exposureOf(mailer, host, signup);
  return {
    potProvider,
    webhookPrivate: webhookPrivate === 'allow',
    dashboard: dashboard === 'on',
    plans,
    batchConcurrency,
    signup: exposure.signup,
    revealCodes: exposure.revealCodes,
    signupWarning: exposure.warning,
    trustProxy,
    publicUrl,
    corsOrigins: corsOriginsOf(get('CORS_ORIGINS')),
    port,
    host,
    storage,
    upstream,
    youtubeOrigin:
      youtubeOrigin === undefined
        ? undefined
        : httpUrl('YOUTUBE_ORIGIN', youtubeOrigin, 'http://127.0.0.1:9000'),
    proxies: (get('PROXY') ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter((p) => p !== '')
      .map((p) => httpUrl('PROXY', p, 'http://user:pass@proxy.example.com:8080')),
    youtubeClients: asConfigError(() => profilesFromEnv(env)),
    adminToken: get('ADMIN_TOKEN'),
    metricsToken: get('METRICS_TOKEN'),
    secret,
    mailer,
    dns: get('DNS') ?? DEFAULTS.dns,
    log: log as LogLevel | 'silent',
  };
}
