/**
 * What usage metering costs per charged request (issue 16's closing note): the same run measures
 * charged requests with and without metering, alternating rounds so drift hits both alike.
 * - in-process app (embedded ledger): `GET /v1/transcripts` answered from the cache, each charged
 *   one credit through reserve → commit;
 *   and `GET /v1/account`, free, metered by one ledger step of its own;
 * - Redis ledger (when TUBESCRIBE_BENCH_REDIS or TUBESCRIBE_TEST_REDIS is set): reserve + commit
 *   round trips, the commit with or without its usage tag; and a free call's rate-limit hit with
 *   or without its metering round trip.
 * "Without" hands the same ledger a commit and release that drop the tag and no `meter` or
 * `touchKey`, so nothing else differs.
 */
import { createTubescribe } from '../src/app.ts';
import { createEmbeddedLedger } from '../src/drivers/ledger-embedded.ts';
import { silentLogger } from '../src/drivers/system.ts';
import type { Ledger } from '../src/ports/ledger.ts';
import { createRedisLedger } from '../src/redis.ts';
import { FakeUpstream, VIDEO } from '../test/fakes/upstream.ts';
import { connect, deleteKeys, uniquePrefix } from '../test/helpers/redis.ts';
import { median } from './measure.ts';

const ADMIN = 'bench-admin-token-0123456789abcdef';

/**
 * The ledger with metering switched off: commits and releases never see a usage tag, free calls
 * are not metered, keys' last uses are not recorded.
 */
function unmetered(ledger: Ledger): Ledger {
  const { meter: _meter, touchKey: _touch, ...rest } = ledger;
  return { ...rest, commit: (id) => ledger.commit(id), release: (id) => ledger.release(id) };
}

async function appRate(metered: boolean, requests: number, url: string): Promise<number> {
  const clock = { now: () => Date.now() };
  const base = createEmbeddedLedger({ clock });
  const ts = createTubescribe({
    logger: silentLogger,
    upstream: new FakeUpstream(),
    adminToken: ADMIN,
    ledger: metered ? base : unmetered(base),
    plans: { bench: [{ limit: 1_000_000_000, window: 1 }] },
    limits: { reconcileIntervalMs: 0 },
  });
  const created = await ts.app.request('/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 10_000_000, plan: 'bench' }),
  });
  const { api_key } = (await created.json()) as { api_key: string };
  const headers = { authorization: `Bearer ${api_key}` };
  for (let i = 0; i < 200; i++) await ts.app.request(url, { headers }); // warm-up, fills the cache
  const start = performance.now();
  for (let i = 0; i < requests; i++) {
    const res = await ts.app.request(url, { headers });
    if (res.status !== 200) throw new Error(`status ${res.status}`);
    await res.arrayBuffer();
  }
  const rate = requests / ((performance.now() - start) / 1000);
  await ts.close();
  return rate;
}

/** Charged calls (reserve + commit) or, with `free`, free calls (a rate-limit hit, + meter). */
async function redisRate(url: string, metered: boolean, requests: number, free = false): Promise<number> {
  const client = await connect(url);
  const prefix = uniquePrefix('meter');
  const base = createRedisLedger({ client, prefix });
  const ledger = metered ? base : unmetered(base);
  await ledger.grant('acc_bench', 10_000_000, 'g');
  const start = performance.now();
  const rules = [{ limit: 1_000_000_000, window: 1 }];
  for (let i = 0; i < requests; i++) {
    if (free) {
      await ledger.hit('acct:acc_bench', rules);
      await ledger.meter?.('acc_bench', { operation: 'account' });
      continue;
    }
    await ledger.reserve('acc_bench', 1, `r${i}`, 60_000);
    await ledger.commit(`r${i}`, { operation: 'transcript' });
  }
  const rate = requests / ((performance.now() - start) / 1000);
  await deleteKeys(client, prefix);
  client.disconnect();
  return rate;
}

/** Prints charged requests per second with and without metering. */
export async function benchMetering(): Promise<void> {
  console.log('\n## Usage metering (charged requests per second, median of 5 alternating rounds)');
  const row = (name: string, off: number, on: number) =>
    console.log(
      `${name}: without ${off.toFixed(0)}/s, with ${on.toFixed(0)}/s (${(((on - off) / off) * 100).toFixed(1)} %)`,
    );
  const paths = [
    ['in-process app, embedded ledger, cached transcript (charged)', `/v1/transcripts?video_id=${VIDEO}`],
    ['in-process app, embedded ledger, GET /v1/account (free)', '/v1/account'],
  ] as const;
  for (const [name, path] of paths) {
    const app = { on: [] as number[], off: [] as number[] };
    for (let round = 0; round < 5; round++) {
      app.off.push(await appRate(false, 2000, path));
      app.on.push(await appRate(true, 2000, path));
    }
    row(name, median(app.off), median(app.on));
  }
  const url = process.env.TUBESCRIBE_BENCH_REDIS ?? process.env.TUBESCRIBE_TEST_REDIS;
  if (!url) return console.log('Redis: skipped (set TUBESCRIBE_BENCH_REDIS)');
  const redis = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < 5; round++) {
    redis.off.push(await redisRate(url, false, 1000));
    redis.on.push(await redisRate(url, true, 1000));
  }
  row('Redis ledger, reserve + commit', median(redis.off), median(redis.on));
  const free = { on: [] as number[], off: [] as number[] };
  for (let round = 0; round < 5; round++) {
    free.off.push(await redisRate(url, false, 1000, true));
    free.on.push(await redisRate(url, true, 1000, true));
  }
  row('Redis ledger, free call: hit (+ meter)', median(free.off), median(free.on));
}
