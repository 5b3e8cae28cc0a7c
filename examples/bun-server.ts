/**
 * tubescribe on Bun.
 *
 *   TUBESCRIBE_ADMIN_TOKEN=… npx -y bun@1.4.5 examples/bun-server.ts
 *
 * The port comes from TUBESCRIBE_PORT (default 8787); without TUBESCRIBE_ADMIN_TOKEN the admin
 * API is off.
 *
 * It reaches YouTube; pass `upstream: createFixturesUpstream('fixtures/demo')` (from
 * `tubescribe/node`, which Bun runs) to try it offline, as the Express example does.
 */
import { serve } from '../adapters/bun/index.ts';

const adminToken = process.env.TUBESCRIBE_ADMIN_TOKEN;
const server = await serve({
  port: Number(process.env.TUBESCRIBE_PORT ?? 8787),
  host: '127.0.0.1',
  app: adminToken ? { adminToken } : {},
});
console.log(`listening on ${server.url}`);
