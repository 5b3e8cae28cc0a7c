// Deno: import the built file (bare imports resolve through deno.json's npm: map) and serve with Deno.serve.
import { serve } from '../../dist/deno.js';
import { check } from './check.mjs';

const server = serve({ port: 0, host: '127.0.0.1' });
try {
  await check(server.url, `deno ${Deno.version.deno}`);
} finally {
  await server.shutdown();
}
