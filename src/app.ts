/**
 * The composition root: options → ports and settings → services → the Hono app.
 * @module
 */
import type { Hono } from 'hono';
import { createYouTubeUpstream } from './drivers/youtube/index.ts';
import { buildHttpApp } from './http/app.ts';
import type { Runtime, Services } from './http/runtime.ts';
import { type AppOptions, DEFAULT_LIMITS, type Deps, resolveDeps } from './options.ts';
import { Accounts } from './services/accounts.ts';
import { Batches } from './services/batches.ts';
import { Billing } from './services/billing.ts';
import { ResponseCache } from './services/cache.ts';
import { Channels } from './services/channels.ts';
import { Pager } from './services/paging.ts';
import { Playlists } from './services/playlists.ts';
import { Search } from './services/search.ts';
import { Signups } from './services/signup.ts';
import { Transcripts } from './services/transcripts.ts';
import { Videos } from './services/videos.ts';

export type { AppOptions } from './options.ts';

/** A running tubescribe: the app, its services once ready, and a way to stop background work. */
export interface Tubescribe {
  /** The Hono app (mount it, or call `app.fetch`). */
  app: Hono;
  /** `app.fetch`, bound. */
  fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /** Resolves once storage and secrets are loaded (requests wait for it anyway). */
  ready: Promise<Runtime>;
  /** Stops timers and closes storage connections. */
  close(): Promise<void>;
}

/** The services over resolved dependencies. */
export function createServices(deps: Deps): Services {
  const cache = new ResponseCache(deps.kv, deps.clock, deps.cache, deps.logger);
  const pager = new Pager(deps.secret, deps.clock, deps.limits.cursorMaxAgeMs);
  const shared = { upstream: deps.upstream, cache, ttl: deps.cache.ttl, deadlineMs: deps.limits.deadlineMs };
  const billing = new Billing({
    ledger: deps.ledger,
    pricing: deps.pricing,
    billing: deps.billing,
    logger: deps.logger,
    reservationTtlMs: deps.limits.reservationTtlMs,
  });
  const transcripts = new Transcripts({ ...shared, clock: deps.clock });
  const videos = new Videos(shared);
  const accounts = new Accounts(deps);
  return {
    accounts,
    signups: new Signups({
      ...deps,
      accounts,
      settings: deps.signup,
      mode: deps.signupMode,
      disposable: deps.disposableDomains,
    }),
    billing,
    batches: new Batches({
      billing,
      transcripts,
      videos,
      clock: deps.clock,
      pricing: deps.pricing,
      deadlineMs: deps.limits.deadlineMs,
    }),
    transcripts,
    videos,
    playlists: new Playlists({ ...shared, pager }),
    channels: new Channels({ ...shared, pager }),
    search: new Search({ ...shared, pager }),
  };
}

/** Builds tubescribe from options (every field optional). */
export function createTubescribe(options: AppOptions = {}): Tubescribe {
  let timer: ReturnType<typeof setInterval> | undefined;
  let closed = false;
  const ready = resolveDeps(options, (base) =>
    createYouTubeUpstream({ clock: base.clock, random: base.random, logger: base.logger }),
  ).then((deps) => {
    const runtime: Runtime = { deps, services: createServices(deps) };
    const every = deps.limits.reconcileIntervalMs;
    if (every > 0 && !closed) {
      timer = setInterval(() => {
        deps.ledger.reconcile().catch((error: unknown) => {
          deps.logger.log('error', 'reconcile failed', { error: String(error) });
        });
      }, every);
      (timer as { unref?: () => void }).unref?.();
    }
    return runtime;
  });
  const app = buildHttpApp(ready, {
    maxBodyBytes: options.limits?.maxBodyBytes ?? DEFAULT_LIMITS.maxBodyBytes,
    routes: options.routes ?? 'all',
  });
  return {
    app,
    fetch: (request, env) => app.fetch(request, env),
    ready,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      const runtime = await ready.catch(() => undefined);
      if (!runtime) return;
      if (!options.ledger) await runtime.deps.ledger.close?.();
      if (!options.kv) await runtime.deps.kv.close?.();
    },
  };
}

/**
 * Builds the tubescribe HTTP application: a Hono app whose `fetch(Request) → Response` every
 * runtime adapter mounts. Use {@link createTubescribe} to also get `close()`.
 */
export function createApp(options: AppOptions = {}): Hono {
  return createTubescribe(options).app;
}
