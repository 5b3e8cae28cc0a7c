// Node: import the built package by its own name (exports map) and serve on a free port.
import { createFixturesUpstream, serve } from 'tubescribe/node';
import { appOptions, check } from './check.mjs';

const server = await serve({ port: 0, host: '127.0.0.1', app: appOptions(createFixturesUpstream) });
try {
  await check(server.url, `node ${process.version}`);
} finally {
  await server.close();
}
