/**
 * The composition root, synchronous: options → settings (pure) and ports (defaults filled in) →
 * services → the Hono app. The one asynchronous step, start-up (electing the shared secret and
 * starting the reconciler), is explicit: `start()`, which the first request also awaits.
 * @module
 */
import type { Hono } from 'hono';
import { type Ports, resolvePorts } from './defaults.ts';
import { backgroundTurn } from './drivers/background-turn.ts';
import { createHttpApp } from './http/app.ts';
import type { AppEnv } from './http/context.ts';
import type { AppOptions } from './options.ts';
import { Accounts } from './services/accounts.ts';
import { AuthGuard } from './services/auth-guard.ts';
import { BatchJobs } from './services/batch-jobs.ts';
import { Batches } from './services/batches.ts';
import { Billing } from './services/billing.ts';
import { ResponseCache } from './services/cache.ts';
import { Channels } from './services/channels.ts';
import { Comments } from './services/comments.ts';
import { Dashboard } from './services/dashboard.ts';
import { EmailSignin } from './services/email-signin.ts';
import type { Services } from './services/index.ts';
import { createMetrics, type Metrics } from './services/metrics.ts';
import { Pager } from './services/paging.ts';
import { Playlists } from './services/playlists.ts';
import { Readiness } from './services/readiness.ts';
import { Search } from './services/search.ts';
import { SharedSecret } from './services/secret.ts';
import { Sessions } from './services/sessions.ts';
import { Signups } from './services/signup.ts';
import { Transcripts } from './services/transcripts.ts';
import { UpstreamStatus } from './services/upstream-health.ts';
import { ledgerUsageReader, Usage } from './services/usage.ts';
import { Videos } from './services/videos.ts';
import { WebhookSender } from './services/webhooks.ts';
import { resolveSettings, type Settings } from './settings.ts';

/** A tubescribe instance: the app, what it is made of, and its start and stop. */
export interface Tubescribe {
  /** The Hono app (mount it, or call `app.fetch`). */
  app: Hono<AppEnv>;
  /** `app.fetch`, bound. */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  settings: Settings;
  ports: Ports;
  services: Services;
  /** The HMAC secret (cursors, sign-up codes): configured, or elected by `start()`. */
  secret: SharedSecret;
  /**
   * Start-up: elects the shared secret (unless one is configured), starts the reconciler, and
   * starts working batch jobs (resuming the ones a restart interrupted). It also kicks off the
   * upstream's own start-up (the YouTube driver's visitorData) without waiting for it: a request
   * that comes first shares that work, and a failure there only logs.
   * Idempotent; the first request awaits it, so calling it is optional, but a server calls it
   * before listening to fail early. A failed start is tried again by the next call.
   */
  start(): Promise<void>;
  /** Stops the reconciler and the upstream's background work, and closes the storage the app opened itself. */
  close(): Promise<void>;
}

/** Whether the secret is known (configured, or elected by start-up). */
function secretElected(secret: SharedSecret): boolean {
  try {
    return secret.bytes.length > 0;
  } catch {
    return false;
  }
}

/** The services over the ports and settings, each given only what it uses. */
function createServices(ports: Ports, settings: Settings, secret: SharedSecret, metrics: Metrics): Services {
  const { upstream, kv, ledger, clock, random, logger } = ports;
  metrics.watchCircuits(() => upstream.health?.() ?? []);
  const cache = new ResponseCache(kv, clock, settings.cache, logger, metrics, backgroundTurn);
  const pager = new Pager(secret, clock, settings.limits.cursorMaxAgeMs);
  const source = { upstream, cache, ttl: settings.cache.ttl, deadlineMs: settings.limits.deadlineMs };
  const billing = new Billing({
    ledger,
    pricing: settings.pricing,
    billing: settings.billing,
    logger,
    reservationTtlMs: settings.limits.reservationTtlMs,
    metrics,
  });
  const transcripts = new Transcripts({
    ...source,
    clock,
    bodies: settings.transcriptBodies,
    backgroundTurn,
  });
  const videos = new Videos(source);
  const batches = new Batches({
    billing,
    transcripts,
    videos,
    clock,
    pricing: settings.pricing,
    deadlineMs: settings.limits.deadlineMs,
  });
  const webhookPolicy = {
    allowPrivate: settings.webhookPrivate,
    ...(ports.hostLookup ? { lookup: ports.hostLookup } : {}),
  };
  const { plans, planAssignment } = settings;
  const accounts = new Accounts({ kv, ledger, clock, random, plans, planAssignment, packs: settings.packs });
  const signups = new Signups({
    kv,
    ledger,
    clock,
    random,
    logger,
    secret,
    accounts,
    mailer: ports.mailer,
    resolver: ports.resolver,
    disposable: ports.disposableDomains,
    settings: settings.signup,
    mode: settings.signupMode,
    plans,
    planAssignment,
  });
  return {
    accounts,
    auth: new AuthGuard({
      accounts,
      ledger,
      adminToken: settings.adminToken,
      failures: settings.limits.authFailures,
      clock,
    }),
    signups,
    billing,
    batches,
    batchJobs: new BatchJobs({
      kv,
      ledger,
      queue: ports.jobs,
      clock,
      random,
      logger,
      pricing: settings.pricing,
      billing,
      batches,
      webhooks: new WebhookSender({ policy: webhookPolicy, clock, logger }),
      webhookPolicy,
      settings: settings.batch,
      metrics,
      backgroundTurn,
    }),
    transcripts,
    videos,
    comments: new Comments({ ...source, pager }),
    playlists: new Playlists({ ...source, pager }),
    channels: new Channels({ ...source, pager }),
    search: new Search({ ...source, pager }),
    pager,
    upstream: new UpstreamStatus(upstream),
    readiness: new Readiness({ kv, ledger, secretReady: () => secretElected(secret), metrics }),
    metrics,
    usage: new Usage(ledgerUsageReader(ledger), clock),
    dashboard: {
      sessions: new Sessions({ kv, clock, random }),
      signin: new EmailSignin({ kv, ledger, clock, secret, signups, settings: settings.signup }),
      data: new Dashboard({ kv, ledger, accounts, batchRetentionMs: settings.batch.retentionMs }),
    },
  };
}

/** Builds tubescribe from options (every field optional). Nothing is awaited here. */
export function createTubescribe(options: AppOptions = {}): Tubescribe {
  const settings = resolveSettings(options);
  if (settings.batch.instanceConcurrency === 0 && options.jobs?.shared !== true) {
    throw new Error(
      'The option batch.instanceConcurrency is 0 (run no batch tasks here), but the job queue is not ' +
        'shared with other instances (as BullMQ on Redis is: jobs: createBullmqJobQueue(…)): no batch job ' +
        'would ever run.',
    );
  }
  const metrics = createMetrics();
  const ports = resolvePorts(options, metrics);
  const secret = new SharedSecret(settings.secret);
  const services = createServices(ports, settings, secret, metrics);
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  let starting: Promise<void> | undefined;

  const startReconciler = () => {
    const every = settings.limits.reconcileIntervalMs;
    if (every <= 0 || closed || timer) return;
    timer = setInterval(() => {
      ports.ledger.reconcile().catch((error: unknown) => {
        ports.logger.log('error', 'reconcile failed', { error: String(error) });
      });
    }, every);
    (timer as { unref?: () => void }).unref?.();
  };
  let upstreamStarted = false;
  /** The upstream's own start-up (visitorData), not awaited: a failure only logs. */
  const startUpstream = () => {
    if (upstreamStarted || closed || !ports.upstream.start) return;
    upstreamStarted = true;
    ports.upstream.start().catch((error: unknown) => {
      ports.logger.log('warn', 'upstream start-up failed', { error: String(error) });
    });
  };
  const start = (): Promise<void> => {
    startUpstream();
    starting ??= (async () => {
      await secret.elect(ports);
      await services.batchJobs.start();
      startReconciler();
    })().catch((error: unknown) => {
      starting = undefined;
      throw error;
    });
    return starting;
  };

  const app = createHttpApp({
    services,
    settings,
    clock: ports.clock,
    random: ports.random,
    logger: ports.logger,
    start,
    ...(options.clientAddress ? { clientAddress: options.clientAddress } : {}),
    ...(options.mountPath ? { mountPath: options.mountPath } : {}),
    ...(options.serverOrigin ? { serverOrigin: options.serverOrigin } : {}),
    ...(options.requestHeader ? { requestHeader: options.requestHeader } : {}),
    ...(options.clientGone ? { clientGone: options.clientGone } : {}),
  });
  return {
    app,
    fetch: (request, env) => app.fetch(request, env),
    settings,
    ports,
    services,
    secret,
    start,
    async close() {
      closed = true;
      services.batchJobs.stop(); // hand running batch tasks back before the queue waits for them
      if (timer) clearInterval(timer);
      ports.upstream.stop?.();
      if (!options.jobs) await ports.jobs.close();
      if (!options.ledger) await ports.ledger.close?.();
      if (!options.kv) await ports.kv.close?.();
    },
  };
}

/**
 * Builds the tubescribe HTTP application: a Hono app whose `fetch(Request) → Response` every
 * runtime adapter mounts. Use {@link createTubescribe} to also get `start()` and `close()`.
 */
export function createApp(options: AppOptions = {}): Hono<AppEnv> {
  return createTubescribe(options).app;
}
