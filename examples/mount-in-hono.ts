/**
 * Mounting tubescribe inside another Hono app (any runtime): `app.route('/yt', tubescribe.app)`
 * serves every request under /yt with tubescribe's routes, and the path stays visible to it, so
 * the links its answers name (the dashboard's, `/openapi.json`'s `servers`, MCP's metadata) keep
 * `/yt`. (`app.mount('/yt', tubescribe.fetch)` works too, but strips the path from the request:
 * then set `publicUrl` to name it.) `withNode` hands in what Node knows (the client address of
 * each request, a proxy-capable fetch). It reaches YouTube; pass `upstream:
 * createFixturesUpstream('fixtures/demo')` to try it offline, as the Express example does.
 *
 *   TUBESCRIBE_ADMIN_TOKEN=change-me node --import tsx examples/mount-in-hono.ts
 *   curl -s localhost:8787/yt/healthz
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { withNode } from '../adapters/node/index.ts';
import { createTubescribe } from '../src/index.ts';

const adminToken = process.env.TUBESCRIBE_ADMIN_TOKEN; // unset: the admin API is off
const tubescribe = createTubescribe(withNode(adminToken ? { adminToken } : {}));
const app = new Hono();
app.get('/', (c) => c.text('my app'));
app.route('/yt', tubescribe.app);
serve(
  { fetch: app.fetch, port: Number(process.env.TUBESCRIBE_PORT ?? 8787), hostname: '127.0.0.1' },
  (info) => console.log(`listening on http://127.0.0.1:${info.port}`),
);
