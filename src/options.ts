/**
 * The options of `createApp` / `createTubescribe`: ports to use instead of the defaults, what only
 * the runtime knows (handed in by the adapters), and configuration. Every field is optional;
 * `settings.ts` resolves the configuration and `defaults.ts` fills in the ports.
 * @module
 */
import type { PlanAssignment } from './core/plans.ts';
import type { BillingSettings, Operation } from './core/pricing.ts';
import type { SignupOverrides } from './core/signup-settings.ts';
import type { YouTubeOptions } from './drivers/youtube/index.ts';
import type { Clock } from './ports/clock.ts';
import type { Resolver } from './ports/dns.ts';
import type { ProxyFetch, UpstreamFetch } from './ports/fetch.ts';
import type { JobQueue } from './ports/jobs.ts';
import type { KeyValue } from './ports/kv.ts';
import type { Ledger, RateRule } from './ports/ledger.ts';
import type { Logger } from './ports/logger.ts';
import type { Mailer } from './ports/mailer.ts';
import type { Random } from './ports/random.ts';
import type { Upstream } from './ports/upstream.ts';
import type { BatchJobSettings } from './services/batch-jobs.ts';
import type { CacheTtls, TranscriptBodies } from './services/cache.ts';
import type { SignupMode } from './services/signup.ts';
import type { HostLookup } from './services/webhooks.ts';

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

/**
 * Which routes an app serves: `all`, `api` (without agent sign-up), or `signup` alone (the
 * contract's {signup_url} on another host, sharing the same storage).
 */
export type RouteSet = 'all' | 'api' | 'signup';

/**
 * The address of the peer that sent `request`, from what the runtime passed along with it
 * (`env`: Node's `{ incoming }`, Bun's server, Deno's connection info). Each adapter hands its
 * own in (hono's `getConnInfo` pattern); undefined when the runtime does not know.
 */
export type ClientAddressOf = (request: Request, env: unknown) => string | undefined;

/**
 * The path a host app mounted tubescribe under, when the runtime strips it from the request's URL
 * (Express/Connect `app.use('/api', …)`); used in links and the request log. Undefined = none.
 */
export type MountPathOf = (request: Request, env: unknown) => string | undefined;

/**
 * The origin a request's connection reached (`http://10.0.0.5:8787`: the server's own address,
 * not the client's `Host`), for links when no public URL is configured. Undefined = unknown.
 */
export type ServerOriginOf = (request: Request, env: unknown) => string | undefined;

/**
 * A request header (lower-case `name`) as the runtime received it, read without building the
 * request's `Headers` (the Node adapter reads `IncomingMessage.headers`). Default: `request.headers`.
 */
export type RequestHeaderOf = (request: Request, env: unknown, name: string) => string | undefined;

/**
 * Whether the client closed its connection before the answer, known without making the request's
 * `AbortSignal` (the Node adapter reads the response's state). Default: `request.signal.aborted`.
 */
export type ClientGoneOf = (request: Request, env: unknown) => boolean;

/** Settings of the default YouTube upstream (ignored when `upstream` is given). */
export type DefaultYouTubeOptions = Omit<YouTubeOptions, 'clock' | 'random' | 'logger' | 'proxyFetch'>;

/** Options of `createApp`. Every field is optional. */
export interface AppOptions {
  /** The YouTube data source. Default: the YouTube driver, configured by `youtube`. */
  upstream?: Upstream;
  /** Settings of the default YouTube driver: origin, proxies, client versions. */
  youtube?: DefaultYouTubeOptions;
  /** Document storage (accounts, keys, cache L2). Default: in memory. */
  kv?: KeyValue;
  /** Atomic counters (credits, limits). Default: the embedded ledger persisted through `kv`. */
  ledger?: Ledger;
  /**
   * The queue of batch tasks and webhook deliveries. Default: in process (jobs resume from `kv`
   * after a restart); with Redis, BullMQ (`createBullmqJobQueue` from `tubescribe/redis`).
   */
  jobs?: JobQueue;
  clock?: Clock;
  random?: Random;
  logger?: Logger;
  /** The client address of a request (the runtime adapters set it). Default: `unknown`. */
  clientAddress?: ClientAddressOf;
  /** The mount path of a request (the Node adapter's middleware sets it). Default: none. */
  mountPath?: MountPathOf;
  /** The origin a request's connection reached (the Node adapter sets it). Default: unknown. */
  serverOrigin?: ServerOriginOf;
  /** A request header without building `Headers` (the Node adapter sets it). Default: `request.headers`. */
  requestHeader?: RequestHeaderOf;
  /** Whether the client went away, without an `AbortSignal` (the Node adapter sets it). */
  clientGone?: ClientGoneOf;
  /** A fetch through an HTTP(S) proxy, for `youtube.proxies` (the runtime adapters set it). */
  proxyFetch?: ProxyFetch;
  /**
   * The YouTube driver's fetch when `youtube.fetch` is not given and no proxy is set (the Node
   * adapter sets `nodeUpstreamFetch`, lighter than Node's global fetch). Default: the global fetch.
   */
  upstreamFetch?: UpstreamFetch;
  /** Every address of a host name, to check webhook targets (the runtime adapters set it). */
  hostLookup?: HostLookup;
  /**
   * How rendered transcripts are kept in memory and answered: as bytes (default), or as a `Blob`
   * of them. Bun's `Response` copies a byte array on every answer (about 20 µs per 400 KB) and
   * takes a Blob as it is, so the Bun adapter sets `blob`; `@hono/node-server` writes bytes as
   * they are.
   */
  transcriptBodies?: TranscriptBodies;
  /** HMAC secret for cursors and sign-up codes (≥ 32 bytes). Default: generated once and kept in `kv`. */
  secret?: string | Uint8Array | undefined;
  /** Bearer token for `/admin/*`. Unset = only keys with the `admin` scope may use it. */
  adminToken?: string | undefined;
  /**
   * Bearer token for `GET /metrics` (a Prometheus scraper), besides the admin token
   * (`TUBESCRIBE_METRICS_TOKEN`). With neither set, `/metrics` answers 401.
   */
  metricsToken?: string | undefined;
  pricing?: Partial<Record<Operation, number>>;
  plans?: Readonly<Record<string, readonly RateRule[]>>;
  planAssignment?: Partial<PlanAssignment>;
  packs?: Readonly<Record<string, number>>;
  billing?: Partial<BillingSettings>;
  cache?: { memoryBytes?: number; staleMs?: number; ttl?: Partial<CacheTtls> };
  limits?: Partial<Limits>;
  /**
   * Behind trusted reverse proxies, take the client address from `X-Forwarded-For`: `true` (one
   * proxy) or the number of proxies; the entry that many hops from the right is used. It must
   * equal the real number of proxies: one too many lets clients choose their own address.
   */
  trustProxy?: boolean | number;
  /**
   * The public base URL, for links in docs and responses (`next` texts, `Location`, `servers`).
   * Default: behind `trustProxy`, the forwarded host; for a loopback host, the request's origin;
   * else the address the connection reached (`serverOrigin`); else relative paths. A client's
   * `Host` header is never echoed into them.
   */
  publicUrl?: string | undefined;
  /**
   * Origins allowed to call the API from a browser (CORS): a list, or `'*'`. Default none: no CORS
   * headers, and preflights are not answered.
   */
  corsOrigins?: readonly string[] | '*';
  /** Serves the web dashboard at `/dashboard` (sign-in by email code, keys, usage, operator pages). Default true. */
  dashboard?: boolean;
  /** Sends sign-up codes. Default: the console mailer (development: it logs the code). */
  mailer?: Mailer;
  /** Deliverability lookups for sign-up; `null` = none (`TUBESCRIBE_DNS=off`). Default: none. */
  resolver?: Resolver | null;
  /** The disposable-domain set (default: the `disposable-domains` list from npm, loaded on first use). */
  disposableDomains?: () => Promise<(domain: string) => boolean>;
  /**
   * Asynchronous batches: retention of finished jobs, batch tasks at once on this instance
   * (`instanceConcurrency`, default 10; 0 leaves them to the other instances on a shared `jobs`
   * queue, such as BullMQ on Redis: an instance that only serves the API).
   */
  batch?: Partial<Pick<BatchJobSettings, 'retentionMs' | 'instanceConcurrency' | 'webhookRetryDelaysMs'>>;
  /** Batch webhooks: `allowPrivate` lets them target loopback and private addresses (`TUBESCRIBE_WEBHOOK_PRIVATE=allow`). */
  webhooks?: { allowPrivate?: boolean };
  /** Which routes this app serves (default `all`). */
  routes?: RouteSet;
  /** Agent sign-up: `mode` (`on` default, `paused`, `off`) and the limits of core/signup-settings. */
  signup?: SignupOverrides & { mode?: SignupMode };
}
