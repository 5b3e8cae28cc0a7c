// Node: import the built package by its own name (exports map) and serve on a free port.
import { serve } from 'tubescribe/node';
import { check } from './check.mjs';

const server = await serve({ port: 0, host: '127.0.0.1' });
try {
  await check(server.url, `node ${process.version}`);
} finally {
  await server.close();
}
