/**
 * tubescribe on Bun.
 *
 *   npx bun examples/bun-server.ts
 */
import { serve } from '../adapters/bun/index.ts';

const server = await serve({
  port: 8787,
  app: { adminToken: process.env.TUBESCRIBE_ADMIN_TOKEN ?? 'change-me' },
});
console.log(`listening on ${server.url}`);
