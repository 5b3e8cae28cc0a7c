/**
 * Embedding tubescribe in an existing Express app: everything under /youtube is tubescribe.
 *
 *   TUBESCRIBE_ADMIN_TOKEN=change-me node --import tsx examples/express-middleware.ts
 *   curl -s -X POST localhost:3000/youtube/admin/keys -H 'Authorization: Bearer change-me' \
 *     -H 'Content-Type: application/json' -d '{"credits":100,"plan":"paid"}'
 *   curl -s 'localhost:3000/youtube/v1/transcripts?video_id=rCAS2eD-mcw&format=text' -H 'X-API-Key: tsk_…'
 */
import express from 'express';
import { createFixturesUpstream, createMiddleware } from '../adapters/node/index.ts';

const app = express();
app.get('/', (_req, res) => {
  res.send('My app. The YouTube API lives under /youtube.');
});
// The process keeps its own global Request and Response; transcripts and errors are written
// straight to the socket either way. `createMiddleware(options, { overrideGlobalObjects: true })`
// installs @hono/node-server's lightweight ones instead, which makes documents cheaper too
// (README: "Express / Connect").
app.use(
  '/youtube',
  createMiddleware({
    ...(process.env.TUBESCRIBE_ADMIN_TOKEN ? { adminToken: process.env.TUBESCRIBE_ADMIN_TOKEN } : {}),
    // Offline demo data; omit `upstream` to serve YouTube itself.
    upstream: createFixturesUpstream(new URL('../fixtures/demo', import.meta.url).pathname),
  }),
);
const port = Number(process.env.TUBESCRIBE_PORT ?? 3000);
app.listen(port, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${port}`));
