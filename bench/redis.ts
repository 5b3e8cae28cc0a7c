/**
 * Redis benchmark (issues 5 and 14): reserve+commit pairs per second through the Redis Ledger
 * with 50 concurrent clients, next to plain `INCRBY` round trips measured in the same run, in
 * interleaved repetitions (the median ratio is the figure; goal ≥ 0.5, two round trips per
 * pair; beside them, the same two round trips to scripts that do nothing: the bound), and
 * admission+commit, what a charged request does, each with what it cost Redis itself
 * (CPU, and time inside the scripts, from INFO deltas: nothing is reset); and the latency a
 * charged request gains from Redis storage (p50, p99): the same `GET` on an app with memory
 * storage and on one with Redis storage; and how long Redis blocks when a slice of payments
 * (`admitPaid`'s repeat records) expires. Skipped, with a notice, when no Redis answers
 * (`TUBESCRIBE_TEST_REDIS`, else redis://127.0.0.1:6379). Every key it writes carries a fresh
 * prefix and is deleted at the end.
 */
import { Redis } from 'ioredis';
import type { Tubescribe } from '../src/app.ts';
import { createFixturesUpstream } from '../src/drivers/node/fixtures-upstream.ts';
import { createRedisLedger, PAYMENT_SLICE_MS } from '../src/drivers/redis/ledger.ts';
import { Script } from '../src/drivers/redis/ledger-scripts.ts';
import { openRedisStorage } from '../src/drivers/redis/storage.ts';
import type { KeyValue } from '../src/ports/kv.ts';
import type { Ledger } from '../src/ports/ledger.ts';
import { deleteKeys } from '../test/helpers/redis.ts';
import { fixedAgainst, printTable, quantile } from './measure.ts';
import { redisStats } from './redis-info.ts';
import { benchApp, benchRedisUrl, redisAnswers } from './setup.ts';

const CLIENTS = 50;
const RUN_MS = 2000;
/**
 * Interleaved repetitions of the INCRBY and pairs runs: the goal is held to the median of their
 * ratios (on a busy machine, the ratio of one run of each varied by a factor of two).
 */
const REPETITIONS = 3;
const REQUESTS = 3000;
const ROUTE = '/v1/transcripts?video_id=rCAS2eD-mcw&format=text';

/** Runs `op` in `CLIENTS` concurrent loops (one call in flight each) for `RUN_MS`: calls/s and latencies. */
async function throughput(
  op: (client: number, i: number) => Promise<unknown>,
): Promise<{ perSecond: number; sorted: number[]; count: number }> {
  const latencies: number[] = [];
  const until = performance.now() + RUN_MS;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; performance.now() < until; i++) {
        const t0 = performance.now();
        await op(client, i);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  return {
    perSecond: latencies.length / seconds,
    sorted: latencies.sort((a, b) => a - b),
    count: latencies.length,
  };
}

/** What one operation cost, in µs (see {@link redisCost}). */
interface Cost {
  cpuUs: number;
  commandUs: number;
  clientUs: number;
}

/**
 * What one operation of `run` cost Redis: its CPU time in all (parsing, network and scripts), and
 * the time inside the scripts (EVALSHA) or the command itself (INCRBY), in µs per operation; and
 * what it cost this process, the clients' side (building commands, writing them to the sockets,
 * reading the replies: the two share this machine's cores).
 */
async function redisCost<T extends { count: number }>(
  client: Redis,
  command: 'evalsha' | 'incrby',
  run: () => Promise<T>,
): Promise<T & Cost> {
  const before = await redisStats(client);
  const clientBefore = process.cpuUsage();
  const result = await run();
  const clientCpu = process.cpuUsage(clientBefore);
  const after = await redisStats(client);
  const usec = (stats: typeof before) => stats.commands.get(command)?.[1] ?? 0;
  return {
    ...result,
    cpuUs: ((after.cpu - before.cpu) * 1e6) / result.count,
    commandUs: (usec(after) - usec(before)) / result.count,
    clientUs: (clientCpu.user + clientCpu.system) / result.count,
  };
}

/** One measured run and what it cost Redis and the clients (see {@link redisCost}). */
type RunCost = Awaited<ReturnType<typeof throughput>> & Cost;

/** Timed sequential requests, alternating between the apps (same machine conditions for both). */
async function requestLatencies(apps: readonly { ts: Tubescribe; key: string }[]): Promise<number[][]> {
  const inits = apps.map(({ key }) => ({ headers: { authorization: `Bearer ${key}` } }));
  for (let i = 0; i < 200; i++)
    for (const [n, { ts }] of apps.entries()) await (await ts.app.request(ROUTE, inits[n])).text();
  const out: number[][] = apps.map(() => []);
  for (let i = 0; i < REQUESTS; i++) {
    for (const [n, { ts }] of apps.entries()) {
      const t0 = performance.now();
      const res = await ts.app.request(ROUTE, inits[n]);
      await res.text();
      out[n]!.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`bench request answered ${res.status}`);
    }
  }
  return out.map((latencies) => latencies.sort((a, b) => a - b));
}

/** An app on the given storage with a funded key on an unlimited plan. */
function appWith(storage: { kv?: KeyValue; ledger?: Ledger }): Promise<{ ts: Tubescribe; key: string }> {
  return benchApp({ ...storage, upstream: createFixturesUpstream('fixtures/demo') }, 1_000_000);
}

/**
 * The payments hash (one per {@link PAYMENT_SLICE_MS} of `admitPaid` payments) holding the most
 * payments, deleted: how many it held and how long freeing it held Redis (µs, from INFO). Redis
 * frees an expired hash the same way, all at once, unless `lazyfree-lazy-expire` is on.
 */
async function freeFullestSlice(client: Redis, prefix: string): Promise<{ payments: number; us: number }> {
  let fullest = '';
  let payments = 0;
  for (const key of await keysMatching(client, `{${prefix}c}:paid:*`)) {
    const n = await client.hlen(key);
    if (n > payments) [fullest, payments] = [key, n];
  }
  if (payments === 0) return { payments, us: 0 };
  const delUs = (stats: Awaited<ReturnType<typeof redisStats>>) => stats.commands.get('del')?.[1] ?? 0;
  const before = await redisStats(client);
  await client.del(fullest);
  return { payments, us: delUs(await redisStats(client)) - delUs(before) };
}

/** Every key matching `pattern` (SCAN, 1000 keys a step). */
async function keysMatching(client: Redis, pattern: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await client.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return keys;
}

/** Runs the Redis benchmark; false when the pairs/INCRBY ratio misses its goal (true when skipped). */
export async function benchRedis(): Promise<boolean> {
  const url = benchRedisUrl;
  console.log('\n## Redis: ledger throughput and the latency Redis adds to a charged request\n');
  if (!(await redisAnswers(url))) {
    console.log(`SKIPPED: no Redis answers at ${url} (set TUBESCRIBE_TEST_REDIS to run this section).`);
    return true;
  }
  const prefix = `tsbench:${process.pid}:${Date.now().toString(36)}:`;
  const clients = await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      const client = new Redis(url, { lazyConnect: true });
      await client.connect();
      return client;
    }),
  );
  try {
    const ledgers = clients.map((client) => createRedisLedger({ client, prefix }));
    await ledgers[0]!.grant('acct', 1_000_000_000, 'bench');
    // Warm up both (script loading, connections), then measure each for the same time.
    await Promise.all(
      ledgers.map((l, c) => l.reserve('acct', 1, `w${c}`, 60_000).then(() => l.commit(`w${c}`))),
    );
    const admin = clients[0]!;
    // The bound of two round trips: a pair of scripts that do nothing, called with the keys and
    // arguments of reserve and settle, and sent as the ledger sends its scripts (its `Script`
    // runner: the same command building and the same writes gathered per turn), so that only
    // the scripts' own work differs.
    const nothing = clients.map((client) => new Script(client, 'return 1'));
    const holdKeys = [`${prefix}acct`, `${prefix}holds`, `${prefix}expiry`];
    await Promise.all(nothing.map((script) => script.run(holdKeys, [-1]))); // loaded before timing
    const incrRuns: RunCost[] = [];
    const pairRuns: RunCost[] = [];
    const boundRuns: RunCost[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      incrRuns.push(
        await redisCost(admin, 'incrby', () => throughput((c) => clients[c]!.incrby(`${prefix}counter`, 1))),
      );
      pairRuns.push(
        await redisCost(admin, 'evalsha', () =>
          throughput(async (c, i) => {
            const id = `r${rep}:${c}:${i}`;
            await ledgers[c]!.reserve('acct', 1, id, 60_000);
            await ledgers[c]!.commit(id);
          }),
        ),
      );
      boundRuns.push(
        await redisCost(admin, 'evalsha', () =>
          throughput(async (c, i) => {
            const id = `b${rep}:${c}:${i}`;
            await nothing[c]!.run(holdKeys, [-1, 'acct', 1, id, 60_000]);
            await nothing[c]!.run(holdKeys, [-1, id, 'acct', 1, 1]);
          }),
        ),
      );
    }
    const perIncr = (runs: readonly RunCost[]): number[] =>
      runs.map((run, rep) => run.perSecond / incrRuns[rep]!.perSecond).sort((a, b) => a - b);
    const ratios = perIncr(pairRuns);
    const bounds = perIncr(boundRuns);
    // The table shows each kind's median repetition.
    const medianRun = (runs: RunCost[]): RunCost =>
      runs.slice().sort((a, b) => a.perSecond - b.perSecond)[runs.length >> 1]!;
    const incr = medianRun(incrRuns);
    const pairs = medianRun(pairRuns);
    // What a charged request does: admission fused with the reservation, then the commit.
    const rules = [{ limit: 1_000_000_000, window: 1 }];
    const charged = await redisCost(admin, 'evalsha', () =>
      throughput(async (c, i) => {
        const id = `a${c}:${i}`;
        await ledgers[c]!.admit!('acct:acct', rules, {
          account: 'acct',
          cost: 1,
          reservationId: id,
          ttlMs: 60_000,
        });
        await ledgers[c]!.commit(id);
      }),
    );
    // What a charged request answered from memory does: admission and payment in one step.
    const paid = await redisCost(admin, 'evalsha', () =>
      throughput((c, i) =>
        ledgers[c]!.admitPaid!('acct:acct', rules, {
          account: 'acct',
          price: 1,
          cost: 1,
          paymentId: `p${c}:${i}`,
          usage: { operation: 'transcript' },
        }),
      ),
    );
    const ms = (x: number) => x.toFixed(3);
    const us = (x: number) => x.toFixed(1);
    const costRow = (name: string, run: typeof incr) => [
      name,
      run.perSecond.toFixed(0),
      ms(quantile(run.sorted, 0.5)),
      ms(quantile(run.sorted, 0.99)),
      us(run.cpuUs),
      us(run.commandUs),
      us(run.clientUs),
    ];
    printTable([
      [
        `${CLIENTS} concurrent clients, ${RUN_MS / 1000} s each (first three: median of ${REPETITIONS})`,
        'per second',
        'p50 ms',
        'p99 ms',
        'Redis CPU µs',
        'in scripts µs',
        'client CPU µs',
      ],
      costRow('INCRBY round trips', incr),
      costRow('reserve + commit pairs', pairs),
      costRow('two scripts that do nothing (the bound)', medianRun(boundRuns)),
      costRow('admit (hit + reserve) + commit', charged),
      costRow('admitPaid (hit + payment, from memory)', paid),
    ]);
    console.log(
      "(Redis's own cost per operation, from INFO: its CPU time in all, and the time inside the " +
        'scripts (for INCRBY: inside the command); the rest of its CPU is reading, parsing and answering ' +
        "each command. Client CPU: this process's, which runs the clients: building each command, " +
        "writing it to its socket and reading the reply. Redis and the clients share the machine's cores, " +
        'so a pair costs what its two round trips cost both)',
    );
    const ratio = ratios[ratios.length >> 1]!;
    const meets = (x: number) => x >= 0.5;
    const met = meets(ratio);
    console.log(
      `\nratio: ${fixedAgainst(ratio, 3, meets)} pairs per INCRBY (median of ${REPETITIONS} interleaved repetitions; ` +
        `min ${ratios[0]!.toFixed(3)}, max ${ratios[ratios.length - 1]!.toFixed(3)}; goal ≥ 0.5)${met ? '' : ' MISSED'}; ` +
        `per second in each repetition: INCRBY ${incrRuns.map((run) => run.perSecond.toFixed(0)).join(', ')}, ` +
        `pairs ${pairRuns.map((run) => run.perSecond.toFixed(0)).join(', ')}; ` +
        `${(1 / ratio).toFixed(2)} INCRBY round trips per pair (a pair is 2 round trips: ` +
        'EVALSHA reserve, EVALSHA settle; the reserving instance knows the hold, so no lookup first). ' +
        `The bound of two such round trips, scripts that do nothing: ${bounds[bounds.length >> 1]!.toFixed(3)} per INCRBY ` +
        `(min ${bounds[0]!.toFixed(3)}, max ${bounds[bounds.length - 1]!.toFixed(3)}). ` +
        `A charged request's ledger work (admit + commit, also 2 round trips): ${(charged.perSecond / incr.perSecond).toFixed(3)} per INCRBY; ` +
        `answered from memory (admitPaid, 1 round trip): ${(paid.perSecond / incr.perSecond).toFixed(3)} per INCRBY.`,
    );

    // What expiring a slice of payments costs Redis: it blocks while it frees the hash.
    const slice = await freeFullestSlice(admin, prefix);
    const perFullSlice = (paid.perSecond * PAYMENT_SLICE_MS) / 1000;
    console.log(
      `\npayments kept for repeats: one hash per ${PAYMENT_SLICE_MS} ms of them; the fullest held ${slice.payments}, ` +
        `and freeing it (as Redis does when it expires) held Redis for ${(slice.us / 1000).toFixed(1)} ms; ` +
        `at ${paid.perSecond.toFixed(0)} payments per second a full one holds ${perFullSlice.toFixed(0)}: ` +
        `about ${(((slice.us / Math.max(1, slice.payments)) * perFullSlice) / 1000).toFixed(1)} ms each time one expires.`,
    );

    const memory = await appWith({});
    const storage = await openRedisStorage(url, { prefix });
    const redis = await appWith({ kv: storage.kv, ledger: storage.ledger });
    const [onMemory = [], onRedis = []] = await requestLatencies([memory, redis]);
    await memory.ts.close();
    await redis.ts.close();
    await storage.close();
    console.log(
      `\n### GET ${ROUTE} (L1 cache warm, charged 1 credit), ${REQUESTS} sequential requests each, alternating\n`,
    );
    const row = (name: string, s: number[]) => [name, ms(quantile(s, 0.5)), ms(quantile(s, 0.99))];
    printTable([
      ['storage', 'p50 ms', 'p99 ms'],
      row('memory', onMemory),
      row('redis', onRedis),
      [
        'added by Redis',
        ms(quantile(onRedis, 0.5) - quantile(onMemory, 0.5)),
        ms(quantile(onRedis, 0.99) - quantile(onMemory, 0.99)),
      ],
    ]);
    return met;
  } finally {
    await deleteKeys(clients[0]!, prefix);
    await Promise.all(clients.map((client) => client.quit()));
  }
}
