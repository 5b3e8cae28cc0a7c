/**
 * `npm run bench`: prints every benchmark section. Add a section by writing `bench/<name>.ts`
 * exporting `async function bench<Name>(): Promise<void>` (or `Promise<boolean>`, `false` when a
 * goal was missed) and listing it in `SECTIONS`. The exit code is 1 when any goal is missed.
 */

import { cpus, loadavg } from 'node:os';
import { benchBatch } from './batch.ts';
import { benchHttp } from './http.ts';
import { benchMcp } from './mcp.ts';
import { sinkValue } from './measure.ts';
import { benchRedis } from './redis.ts';
import { benchRender } from './render.ts';
import { benchUpstream } from './upstream.ts';

/** A section resolves to `false` when one of its goals is missed (anything else: fine). */
type Section = () => Promise<unknown>;

const SECTIONS: readonly Section[] = [
  benchRender,
  benchRedis,
  benchHttp,
  benchBatch,
  benchMcp,
  benchUpstream,
];

async function main(): Promise<void> {
  console.log('# tubescribe benchmarks');
  console.log(`Node ${process.version} on ${process.platform}/${process.arch}`);
  console.log(`CPU: ${cpus()[0]?.model ?? 'unknown'} (${cpus().length} logical cores)`);
  // Timings are only comparable on an otherwise idle machine: show how busy it is.
  console.log(
    `Load average (1/5/15 min): ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' / ')}`,
  );
  let ok = true;
  for (const section of SECTIONS) ok = (await section()) !== false && ok;
  console.log(
    `\n${ok ? 'All goals met.' : 'Some goals were MISSED.'} (sink ${sinkValue() > 0 ? 'ok' : 'empty'})`,
  );
  if (!ok) process.exitCode = 1;
}

await main();
