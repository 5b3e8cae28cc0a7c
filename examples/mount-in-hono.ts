/**
 * Mounting tubescribe inside another Hono app (any runtime): `app.mount('/yt', tubescribe.fetch)`
 * hands every request under /yt to tubescribe with the prefix stripped. `withNode` hands in what
 * Node knows (the client address of each request, a proxy-capable fetch).
 *
 *   node --import tsx examples/mount-in-hono.ts
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { withNode } from '../adapters/node/index.ts';
import { createTubescribe } from '../src/index.ts';

const adminToken = process.env.TUBESCRIBE_ADMIN_TOKEN; // unset: the admin API is off
const tubescribe = createTubescribe(withNode(adminToken ? { adminToken } : {}));
const app = new Hono();
app.get('/', (c) => c.text('my app'));
app.mount('/yt', tubescribe.fetch);
serve(
  { fetch: app.fetch, port: Number(process.env.TUBESCRIBE_PORT ?? 8787), hostname: '127.0.0.1' },
  (info) => console.log(`listening on http://127.0.0.1:${info.port}`),
);
