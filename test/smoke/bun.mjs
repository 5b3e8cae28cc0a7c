// Bun: import the built package by its own name and serve with Bun.serve on a free port.

import { serve } from 'tubescribe/bun';
import { createFixturesUpstream } from 'tubescribe/node';
import { appOptions, check } from './check.mjs';

const server = await serve({ port: 0, host: '127.0.0.1', app: appOptions(createFixturesUpstream) });
try {
  await check(server.url, `bun ${Bun.version}`);
} finally {
  await server.close();
}
