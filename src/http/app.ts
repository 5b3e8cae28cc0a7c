/**
 * The Hono application: middleware (request id, body limit, 405), the route modules (the system
 * routes among them: health, OpenAPI document, docs page), and the error envelope for everything
 * that goes wrong.
 * @module
 */
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { rateLimitHeaders } from '../core/ratelimit.ts';
import { ApiError, toEnvelope } from '../errors.ts';
import type { RateDecision, RateRule } from '../ports/ledger.ts';
import { asApiError, isTimeout } from '../services/context.ts';
import { payloadTooLarge, type Route, requestIdFor } from './route.ts';
import { accountRoutes } from './routes/account.ts';
import { channelRoutes } from './routes/channels.ts';
import { playlistRoutes } from './routes/playlists.ts';
import { searchRoutes } from './routes/search.ts';
import { signupRoutes } from './routes/signup.ts';
import { systemRoutes } from './routes/system.ts';
import { transcriptRoutes } from './routes/transcripts.ts';
import { videoRoutes } from './routes/videos.ts';
import type { Runtime } from './runtime.ts';

/** Settings the app needs before its dependencies are ready. */
export interface HttpSettings {
  maxBodyBytes: number;
  /** Which routes to serve: everything, the data API without sign-up, or sign-up alone. */
  routes: 'all' | 'api' | 'signup';
}

/** A rate-limit decision carried by a 429's cause, for the response headers. */
interface RateCause {
  rateLimit: RateDecision;
  rules?: RateRule[];
}

/**
 * Builds the app. `ready` resolves to the runtime once storage and secrets are loaded; requests
 * wait for it.
 */
export function buildHttpApp(ready: Promise<Runtime>, settings: HttpSettings): Hono {
  const app = new Hono();
  const rt = {} as Runtime;
  let loaded = false;
  const loading = ready.then((value) => {
    Object.assign(rt, value);
    loaded = true;
  });
  loading.catch(() => {});

  app.use(async (c, next) => {
    if (!loaded) await loading;
    const requestId = requestIdFor(rt);
    c.set('requestId' as never, requestId as never);
    c.header('X-Request-Id', requestId);
    const started = rt.deps.clock.now();
    await next();
    rt.deps.logger.log('info', 'request', {
      id: requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: rt.deps.clock.now() - started,
    });
  });
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (c, methods) =>
        c.json(
          toEnvelope(
            new ApiError(
              'method_not_allowed',
              `${c.req.method} is not allowed here; use ${methods.join(', ')}.`,
            ),
          ),
          405,
          { Allow: methods.join(', ') },
        ),
    }),
  );
  // A declared Content-Length over the limit is refused before anything is read; bodies without
  // one (chunked) are counted while route.ts reads them. (Hono's bodyLimit rebuilds the Request,
  // which fails on Node without overridden globals.)
  app.use(async (c, next) => {
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > settings.maxBodyBytes) throw payloadTooLarge(settings.maxBodyBytes);
    await next();
  });

  const api = settings.routes !== 'signup';
  const routes: Route[] = [
    ...systemRoutes(rt, () => routes),
    ...(api
      ? [
          ...transcriptRoutes(rt),
          ...videoRoutes(rt),
          ...playlistRoutes(rt),
          ...channelRoutes(rt),
          ...searchRoutes(rt),
          ...accountRoutes(rt),
        ]
      : []),
    ...(settings.routes !== 'api' ? signupRoutes(rt) : []),
  ];
  for (const route of routes) route.mount(app, rt);

  app.notFound((c) =>
    c.json(toEnvelope(new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`)), 404),
  );
  app.onError((error, c) => {
    const e = asApiError(error);
    if (c.req.raw.signal.aborted && !isTimeout(error)) {
      // The client went away: nobody reads this answer, and it is no server fault.
      rt.deps?.logger.log('info', 'client closed the request', { path: c.req.path });
    } else if (e.status >= 500) {
      const cause = e.cause instanceof Error ? { error: e.cause.message, stack: e.cause.stack } : {};
      rt.deps?.logger.log(e.status === 500 ? 'error' : 'warn', e.message, {
        code: e.code,
        path: c.req.path,
        ...cause,
      });
    }
    if (e.retryAfter !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(e.retryAfter))));
    const cause = e.cause as RateCause | undefined;
    if (cause && typeof cause === 'object' && 'rateLimit' in cause && cause.rateLimit) {
      const rules = cause.rules ?? cause.rateLimit.rules.map((s) => ({ limit: s.limit, window: 1 }));
      for (const [k, v] of Object.entries(rateLimitHeaders(cause.rateLimit, rules))) c.header(k, v);
    }
    return c.json(toEnvelope(e), e.status as 400);
  });
  return app;
}
