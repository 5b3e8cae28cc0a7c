// Deno: import the built files (bare imports resolve through deno.json's npm: map) and serve with Deno.serve.
import { serve } from '../../dist/deno.js';
import { createFixturesUpstream } from '../../dist/node.js';
import { appOptions, check } from './check.mjs';

const server = await serve({ port: 0, host: '127.0.0.1', app: appOptions(createFixturesUpstream) });
try {
  await check(server.url, `deno ${Deno.version.deno}`);
} finally {
  await server.close();
}
