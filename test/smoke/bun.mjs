// Bun: import the built package by its own name and serve with Bun.serve on a free port.

import diagnostics from 'node:diagnostics_channel';
import { Redis } from 'ioredis';
import { serve } from 'tubescribe/bun';
import { createFixturesUpstream } from 'tubescribe/node';
import { createRedisLedger } from 'tubescribe/redis';
import { appOptions, check, createKey, sameBytes } from './check.mjs';

const server = await serve({ port: 0, host: '127.0.0.1', app: appOptions(createFixturesUpstream) });
try {
  await check(server.url, `bun ${Bun.version}`);
} finally {
  await server.close();
}

// `streamLateAnswers`: a large answer made after its request's turn (the first json3, read from
// the fixtures) comes chunked, as a stream, and the same bytes as the kept rendering's answer.
const streaming = await serve({
  port: 0,
  host: '127.0.0.1',
  app: appOptions(createFixturesUpstream),
  streamLateAnswers: true,
});
try {
  const { api_key } = await createKey(streaming.url, 2);
  const path = `${streaming.url}/v1/transcripts?video_id=rCAS2eD-mcw&format=json3&word_level=true&track_policy=asr_only`;
  const answers = [];
  for (let i = 0; i < 2; i++) {
    const res = await fetch(path, { headers: { 'x-api-key': api_key } });
    const bytes = new Uint8Array(await res.arrayBuffer());
    answers.push({ res, bytes });
  }
  const [first, kept] = answers;
  if (
    first.res.status !== 200 ||
    first.res.headers.get('transfer-encoding') !== 'chunked' ||
    first.res.headers.has('content-length')
  )
    throw new Error(
      `[bun ${Bun.version}] a late json3 answer was not streamed: ${first.res.status} ${[...first.res.headers]}`,
    );
  if (
    kept.res.status !== 200 ||
    kept.res.headers.get('x-cache') !== 'HIT' ||
    !sameBytes(kept.bytes, first.bytes)
  )
    throw new Error(`[bun ${Bun.version}] the streamed json3 answer differs from the kept rendering's`);
  console.log(
    `smoke bun ${Bun.version}: streamLateAnswers ok (a late ${first.bytes.length}-byte answer streamed, chunked)`,
  );
} finally {
  await streaming.close();
}

// Bun's tracing channels lack `hasSubscribers`, and ioredis traces every command unless it is
// false: the Redis driver defines it (src/drivers/redis/tracing-channel.ts). No connection is made.
createRedisLedger({ client: new Redis({ lazyConnect: true }) });
const traced = diagnostics.tracingChannel('ioredis:command').hasSubscribers;
if (traced !== false)
  throw new Error(`[bun ${Bun.version}] ioredis would trace every command (hasSubscribers: ${traced})`);
