/**
 * The Hono application: middleware (request id, body limit, 405), the route modules, the
 * OpenAPI document and docs page, and the error envelope for everything that goes wrong.
 * @module
 */
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { rateLimitHeaders } from '../core/ratelimit.ts';
import { ApiError, toEnvelope } from '../errors.ts';
import type { RateDecision, RateRule } from '../ports/ledger.ts';
import { asApiError } from '../services/context.ts';
import { docsPage } from './docs.ts';
import { openApiDocument } from './openapi.ts';
import { baseUrlOf, type Route, requestIdFor } from './route.ts';
import { accountRoutes } from './routes/account.ts';
import { channelRoutes } from './routes/channels.ts';
import { playlistRoutes } from './routes/playlists.ts';
import { searchRoutes } from './routes/search.ts';
import { transcriptRoutes } from './routes/transcripts.ts';
import { videoRoutes } from './routes/videos.ts';
import type { Runtime } from './runtime.ts';

/** Settings the app needs before its dependencies are ready. */
export interface HttpSettings {
  maxBodyBytes: number;
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
  app.use(
    bodyLimit({
      maxSize: settings.maxBodyBytes,
      onError: () => {
        throw new ApiError('payload_too_large', `The request body exceeds ${settings.maxBodyBytes} bytes.`);
      },
    }),
  );

  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.get('/openapi.json', (c) =>
    c.json(
      openApiDocument(
        routes.map((r) => r.meta),
        rt.deps.pricing,
        baseUrlOf(rt, c),
      ),
    ),
  );
  app.get('/docs', (c) => {
    const base = baseUrlOf(rt, c);
    return c.html(
      docsPage(
        openApiDocument(
          routes.map((r) => r.meta),
          rt.deps.pricing,
          base,
        ),
        base,
      ),
    );
  });

  const routes: Route[] = [
    ...transcriptRoutes(rt),
    ...videoRoutes(rt),
    ...playlistRoutes(rt),
    ...channelRoutes(rt),
    ...searchRoutes(rt),
    ...accountRoutes(rt),
  ];
  for (const route of routes) route.mount(app, rt);

  app.notFound((c) =>
    c.json(toEnvelope(new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`)), 404),
  );
  app.onError((error, c) => {
    const e = asApiError(error);
    if (e.status >= 500) {
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
