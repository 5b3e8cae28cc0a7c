/**
 * The Hono application: middleware (start-up, request id and log, CORS, HEAD only on documents,
 * 405, body limit), the route
 * modules of `routes/index.ts` plus the system routes (health, OpenAPI document, docs page), and
 * the error envelope for everything that goes wrong.
 * @module
 */
import { Hono } from 'hono';
import { methodNotAllowed } from 'hono/method-not-allowed';
import { matchedRoutes } from 'hono/route';
import { ApiError, toEnvelope } from '../errors.ts';
import { asApiError, isTimeout } from '../services/context.ts';
import { payloadTooLarge } from './body.ts';
import { clientAddress } from './client.ts';
import type { AppContext, AppEnv, HttpDeps, MountDeps } from './context.ts';
import { corsMiddleware } from './cors.ts';
import { createEdge } from './edge.ts';
import { jsonAnswer } from './json-answer.ts';
import { mountMcp } from './mcp/endpoint.ts';
import { mountPrefix } from './public-url.ts';
import { clientRequestId, requestIds } from './request-id.ts';
import { requestLogFields } from './request-log.ts';
import type { Route } from './route.ts';
import { refuseHead, routeTable } from './route-table.ts';
import { ROUTE_MODULES } from './routes/index.ts';
import { systemRoutes } from './routes/system.ts';

/**
 * Sets a header on the answer (adds to it with `append`), copying the answer first when its headers
 * are immutable.
 */
function withHeader(c: AppContext, name: string, value: string, append = false): void {
  try {
    if (append) c.res.headers.append(name, value);
    else c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    withHeader(c, name, value, append);
  }
}

/** Builds the app over the services and settings. */
export function createHttpApp(deps: HttpDeps): Hono<AppEnv> {
  const { services, settings, clock, random, logger } = deps;
  const app = new Hono<AppEnv>();
  let started = false;
  const nextRequestId = requestIds(random);

  const edge = createEdge(deps);
  app.use(async (c, next) => {
    // Run first (index 0): tubescribe's own fetch, or a host's `app.mount`. Under a host's
    // `app.route`, the host's middleware ran before and may have prepared headers on the context.
    const plainAnswer = c.req.routeIndex === 0;
    if (!started) {
      await deps.start();
      started = true;
    }
    c.set('edge', edge);
    // The client's id is echoed when sane; the ledger always gets a generated one (request-id.ts).
    const reservationId = nextRequestId();
    const requestId = clientRequestId(edge.header(c, 'x-request-id')) ?? reservationId;
    c.set('requestId', requestId);
    c.set('reservationId', reservationId);
    c.set('plainAnswer', plainAnswer);
    const began = clock.now();
    await next();
    // Routes answer with X-Request-Id among their headers (route.ts); everything else gets it here.
    if (!c.get('idSent')) withHeader(c, 'X-Request-Id', requestId);
    // Headers a middleware wants (CORS) that no route's plain answer took (errors, documents, a
    // host's middleware first): each replaces the answer's, but `Vary` adds, as route.ts does.
    const wanted = c.get('answerHeaders');
    if (wanted !== undefined) for (const name in wanted) withHeader(c, name, wanted[name]!, name === 'Vary');
    // The route that answered, looked up once (each of Hono's route helpers maps every match).
    const route = matchedRoutes(c).at(c.req.routeIndex);
    const fields = requestLogFields(c, requestId, clock.now() - began, route?.path ?? '');
    const mount = mountPrefix(c, route?.basePath ?? '');
    logger.log('info', 'request', mount === '' ? fields : { ...fields, mount });
    // The route pattern, never the raw path (one series per URL would grow without bound).
    services.metrics.request(
      String(fields.route ?? 'unmatched'),
      c.req.method,
      c.res.status,
      Number(fields.ms) / 1000,
    );
  });
  const cors = corsMiddleware(settings.corsOrigins);
  if (cors) app.use(cors);
  const table = routeTable(app);
  // Refused before any route runs: HEAD where no document is, and a declared Content-Length over
  // the limit (before anything is read; bodies without one, chunked, are counted while body.ts
  // reads them; Hono's bodyLimit rebuilds the Request, which fails on Node without overridden
  // globals). One middleware for both: each one costs every request a dispatch.
  const { maxBodyBytes } = settings.limits;
  app.use(async (c, next) => {
    if (c.req.method === 'HEAD') {
      const refused = refuseHead(c, table);
      if (refused) return refused;
    }
    const declared = edge.header(c, 'content-length');
    if (declared !== undefined && Number(declared) > maxBodyBytes) throw payloadTooLarge(maxBodyBytes);
    await next();
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
    jsonAnswer(c, toEnvelope(new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`)), 404),
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
    // RFC 9110 §11.6.1: a 401 names its scheme (keys are bearer tokens, or X-API-Key). Not read
    // from `c.res`: making it here has Hono rebuild the answer around it (a real Response).
    if (e.status === 401) c.header('WWW-Authenticate', e.challenge ?? 'Bearer');
    return jsonAnswer(c, toEnvelope(e), e.status);
  });
  return app;
}
