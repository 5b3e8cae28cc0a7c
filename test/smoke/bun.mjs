// Bun: import the built package by its own name and serve with Bun.serve on a free port.

import diagnostics from 'node:diagnostics_channel';
import { Redis } from 'ioredis';
import { serve } from 'tubescribe/bun';
import { createFixturesUpstream } from 'tubescribe/node';
import { createRedisLedger } from 'tubescribe/redis';
import { appOptions, check } from './check.mjs';

const server = await serve({ port: 0, host: '127.0.0.1', app: appOptions(createFixturesUpstream) });
try {
  await check(server.url, `bun ${Bun.version}`);
} finally {
  await server.close();
}

// Bun's tracing channels lack `hasSubscribers`, and ioredis traces every command unless it is
// false: the Redis driver defines it (src/drivers/redis/tracing-channel.ts). No connection is made.
createRedisLedger({ client: new Redis({ lazyConnect: true }) });
const traced = diagnostics.tracingChannel('ioredis:command').hasSubscribers;
if (traced !== false)
  throw new Error(`[bun ${Bun.version}] ioredis would trace every command (hasSubscribers: ${traced})`);
