import { Hono } from 'hono';
import { ApiError, toEnvelope } from '../errors.ts';

/** Builds the Hono application from resolved dependencies. */
export function buildHttpApp(): Hono {
  const app = new Hono();
  app.get('/healthz', (c) => c.json({ status: 'ok' }));
  app.notFound((c) =>
    c.json(toEnvelope(new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`)), 404),
  );
  app.onError((error, c) => {
    const envelope = toEnvelope(error);
    const status = error instanceof ApiError ? error.status : 500;
    return c.json(envelope, status as 400);
  });
  return app;
}
