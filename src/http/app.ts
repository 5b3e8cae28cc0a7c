/**
 * The Hono application: middleware (start-up, request id and log, 405, body limit), the route
 * modules of `routes/index.ts` plus the system routes (health, OpenAPI document, docs page), and
 * the error envelope for everything that goes wrong.
 * @module
 */
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { newId } from '../core/api-keys.ts';
import { ApiError, toEnvelope } from '../errors.ts';
import { asApiError, isTimeout } from '../services/context.ts';
import { payloadTooLarge } from './body.ts';
import { clientAddress } from './client.ts';
import type { AppContext, AppEnv, HttpDeps, MountDeps } from './context.ts';
import { mountMcp } from './mcp/endpoint.ts';
import type { Route } from './route.ts';
import { ROUTE_MODULES } from './routes/index.ts';
import { systemRoutes } from './routes/system.ts';

/** Builds the app over the services and settings. */
export function createHttpApp(deps: HttpDeps): Hono<AppEnv> {
  const { services, settings, clock, random, logger } = deps;
  const app = new Hono<AppEnv>();
  let started = false;

  app.use(async (c, next) => {
    if (!started) {
      await deps.start();
      started = true;
    }
    const requestId = newId('req', random, 16);
    c.set('requestId', requestId);
    c.header('X-Request-Id', requestId);
    const began = clock.now();
    await next();
    logger.log('info', 'request', {
      id: requestId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: clock.now() - began,
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
  // one (chunked) are counted while body.ts reads them. (Hono's bodyLimit rebuilds the Request,
  // which fails on Node without overridden globals.)
  const { maxBodyBytes } = settings.limits;
  app.use(async (c, next) => {
    const declared = Number(c.req.header('content-length') ?? '0');
    if (declared > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
    await next();
  });

  const routeDeps = { services, settings };
  const routes: Route[] = [
    ...systemRoutes(routeDeps, () => routes),
    ...ROUTE_MODULES.filter((m) => m.sets.includes(settings.routes)).flatMap((m) => m.routes(routeDeps)),
  ];
  const mountDeps: MountDeps = {
    ...routeDeps,
    address: (c: AppContext) => clientAddress(c, settings.trustProxy, deps.clientAddress),
  };
  for (const route of routes) route.mount(app, mountDeps);
  if (settings.routes !== 'signup') mountMcp(app, mountDeps, logger);

  app.notFound((c) =>
    c.json(toEnvelope(new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`)), 404),
  );
  app.onError((error, c) => {
    const e = asApiError(error);
    if (c.req.raw.signal.aborted && !isTimeout(error)) {
      // The client went away: nobody reads this answer, and it is no server fault.
      logger.log('info', 'client closed the request', { path: c.req.path });
    } else if (e.status >= 500) {
      const cause = e.cause instanceof Error ? { error: e.cause.message, stack: e.cause.stack } : {};
      logger.log(e.status === 500 ? 'error' : 'warn', e.message, {
        code: e.code,
        path: c.req.path,
        ...cause,
      });
    }
    if (e.retryAfter !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(e.retryAfter))));
    return c.json(toEnvelope(e), e.status as 400);
  });
  return app;
}
