/**
 * HTTP benchmark (issue 14): a cached transcript (segments JSON and SRT) through tubescribe's
 * runtime adapter over a real socket, next to a bare Hono app on the same runtime's server
 * answering the identical bytes and headers. autocannon (programmatic API, 50 connections) loads
 * each server in turn, interleaved, for several repetitions; the figures are the ratios of
 * requests per second (tubescribe / bare Hono, same format, same repetition) and the p50/p99
 * latencies, each as min / median / max over the repetitions. Latencies are each response's own
 * time to the µs (autocannon's `response` events): its own percentiles are whole milliseconds,
 * too coarse for a p99 ratio against a server whose p99 is 1–2 ms (1.9 ms counts as 1).
 *
 * Every server runs in its own process (`bench/http-server.ts`) and autocannon in this one, so
 * the load generator never steals the measured server's event loop. Node: tubescribe on memory
 * storage and on Redis storage (skipped without Redis) against `@hono/node-server`, and, shown
 * without a goal, tubescribe as an embedding application gets it by default (`createNodeApp` on
 * `node:http`, the host's global `Request` and `Response` left alone, so every answer is a real
 * undici `Response`). Bun (spawned as `npx -y bun@1.4.5`): the same against `Bun.serve`; skipped
 * with a notice when Bun cannot start.
 * Goals (median over the repetitions): ≥ 0.5× bare Hono on memory storage, ≥ 0.4× on Redis, and
 * p99 ≤ 3× Hono's.
 *
 * Shown without a goal, on Bun with Redis storage: a large cached transcript (61.5 KB), which
 * Bun sends with its head in pieces when the answer completes after its request's turn, as made
 * and with the Bun adapter's `streamLateAnswers` (adapters/bun/late-answer.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { deleteKeysAt } from '../test/helpers/redis.ts';
import { fixedAgainst, median, printTable, quantile } from './measure.ts';
import { redisStats } from './redis-info.ts';
import { BUN, type ServerProcess as Server, startServer, stopServer } from './server-process.ts';
import { benchRedisUrl, redisAnswers } from './setup.ts';

/** What this bench reads of autocannon's result (the package ships no types). */
interface AutocannonResult {
  errors: number;
  non2xx: number;
  requests: { average: number; total: number };
}
/** A run under way: its result when it ends, and an event per response (time in ms, fractional). */
interface AutocannonRun extends Promise<AutocannonResult> {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, bytes: number, responseMs: number) => void,
  ): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: {
  url: string;
  connections: number;
  duration: number;
  headers: Record<string, string>;
}) => AutocannonRun;

/** The servers' script (tubescribe or bare Hono, by its arguments). */
const SCRIPT = 'bench/http-server.ts';
const CONNECTIONS = 50;
const SECONDS = 2;
const REPETITIONS = 3;
const ROUTES = {
  segments: '/v1/transcripts?video_id=rCAS2eD-mcw&format=segments',
  srt: '/v1/transcripts?video_id=rCAS2eD-mcw&format=srt',
} as const;
type Format = keyof typeof ROUTES;
const FORMATS = Object.keys(ROUTES) as Format[];
/** Headers that belong to the connection or the moment, not to the answer. */
const TRANSIENT = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/** One recorded answer, as bare Hono replays it (the body in base64). */
interface Answer {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A server measured against the baseline: its goal (a req/s ratio; none: only shown), its Redis. */
interface Contender {
  server: Server;
  goal?: number;
  redis?: Redis;
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  /** CPU µs per request of the server process, and of Redis when the server uses it (NaN: unknown). */
  serverUs: number;
  redisUs: number;
}

/** CPU seconds a process has used (Linux `/proc`; NaN elsewhere, or without its pid). */
function processCpu(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in 1/100 s
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds Redis has used (INFO), or NaN without a client. */
async function redisCpu(client: Redis | undefined): Promise<number> {
  return client ? (await redisStats(client)).cpu : Number.NaN;
}

const auth = (server: Server): Record<string, string> =>
  server.key ? { authorization: `Bearer ${server.key}` } : {};

/**
 * One autocannon run against `server`'s `path`, with what it cost the server process and, given
 * its client, Redis; throws on errors or non-2xx answers.
 */
async function load(server: Server, path: string, seconds = SECONDS, redis?: Redis): Promise<Run> {
  const [serverBefore, redisBefore] = [processCpu(server.pid), await redisCpu(redis)];
  const run = autocannon({
    url: server.url + path,
    connections: CONNECTIONS,
    duration: seconds,
    headers: auth(server),
  });
  const latencies: number[] = [];
  run.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await run;
  const [serverAfter, redisAfter] = [processCpu(server.pid), await redisCpu(redis)];
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${server.name} ${path}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  const requests = result.requests.total;
  const sorted = Float64Array.from(latencies).sort();
  return {
    rps: result.requests.average,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    serverUs: ((serverAfter - serverBefore) * 1e6) / requests,
    redisUs: ((redisAfter - redisBefore) * 1e6) / requests,
  };
}

/** `server`'s answer to `path`: its headers and body; throws unless it is a 200. */
async function answerOf(server: Server, path: string): Promise<{ headers: Headers; body: Buffer }> {
  const res = await fetch(server.url + path, { headers: auth(server) });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${server.name} answered ${res.status}: ${body}`);
  return { headers: res.headers, body };
}

/**
 * The answers of `server` for every route (status, headers without transient ones, body), as it
 * answers once the transcript is cached: each route is asked once before (the first answer of a
 * cold cache is a MISS, with other headers).
 */
async function record(server: Server): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const format of FORMATS) {
    await answerOf(server, ROUTES[format]);
    const answer = await answerOf(server, ROUTES[format]);
    if (answer.headers.get('x-cache') !== 'HIT')
      throw new Error(`${server.name}: ${format} was not a cache hit`);
    const headers: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!TRANSIENT.has(name)) headers[name] = value;
    });
    answers.push({ path: ROUTES[format], status: 200, headers, body: answer.body.toString('base64') });
  }
  return answers;
}

/** Whether two servers' recorded answers have the same statuses and bodies (request ids differ). */
const sameBodies = (a: readonly Answer[], b: readonly Answer[]): boolean =>
  a.length === b.length && a.every((x, i) => x.status === b[i]!.status && x.body === b[i]!.body);

/** Median CPU µs per request of the server, and of Redis when known. */
const cpu = (rs: readonly Run[]): string => {
  const server = median(rs.map((r) => r.serverUs));
  const redis = median(rs.map((r) => r.redisUs));
  const us = (x: number) => (Number.isNaN(x) ? '?' : x.toFixed(0));
  return Number.isNaN(redis) ? us(server) : `${us(server)}, ${us(redis)}`;
};

/** Min / median / max; when the median is judged, printed on the right side of its goal. */
const spread = (xs: readonly number[], digits: number, meets?: (x: number) => boolean): string => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = meets ? fixedAgainst(median(s), digits, meets) : median(s).toFixed(digits);
  return `${s[0]!.toFixed(digits)} / ${mid} / ${s.at(-1)!.toFixed(digits)}`;
};

/**
 * Measures `contenders` against `baseline` on every format, interleaved, and prints the table.
 * Returns whether every goal is met.
 */
async function compare(baseline: Server, contenders: readonly Contender[]): Promise<boolean> {
  const all = [baseline, ...contenders.map((c) => c.server)];
  const redisOf = new Map(contenders.map((c) => [c.server, c.redis]));
  for (const server of all) for (const format of FORMATS) await load(server, ROUTES[format], 1); // warm-up
  const runs = new Map<string, Run[]>();
  for (let rep = 0; rep < REPETITIONS; rep++) {
    for (const format of FORMATS) {
      // Alternate the order so neither side always runs right after the other.
      const order = rep % 2 === 0 ? all : [...all].reverse();
      for (const server of order) {
        const id = `${server.name}|${format}`;
        runs.set(id, [
          ...(runs.get(id) ?? []),
          await load(server, ROUTES[format], SECONDS, redisOf.get(server)),
        ]);
      }
    }
  }
  const rows: string[][] = [
    [
      'server, format',
      'req/s ratio min/med/max',
      'p50 ms min/med/max',
      'p99 ms min/med/max',
      'p99 / Hono',
      'CPU µs/req: server, Redis',
    ],
  ];
  let ok = true;
  for (const format of FORMATS) {
    const base = runs.get(`${baseline.name}|${format}`)!;
    rows.push([
      `${baseline.name}, ${format} (${median(base.map((r) => r.rps)).toFixed(0)} req/s)`,
      '1',
      spread(
        base.map((r) => r.p50),
        2,
      ),
      spread(
        base.map((r) => r.p99),
        2,
      ),
      '1',
      cpu(base),
    ]);
    for (const { server, goal } of contenders) {
      const mine = runs.get(`${server.name}|${format}`)!;
      const ratios = mine.map((r, i) => r.rps / base[i]!.rps);
      const p99Ratios = mine.map((r, i) => r.p99 / base[i]!.p99);
      // Each goal marks its own column when missed; a contender without a goal is only shown.
      const fastEnough = (x: number) => goal === undefined || x >= goal;
      const steadyEnough = (x: number) => goal === undefined || x <= 3;
      const fast = fastEnough(median(ratios));
      const steady = steadyEnough(median(p99Ratios));
      ok &&= fast && steady;
      const judged = (text: string, goalText: string, met: boolean) =>
        goal === undefined ? `${text} (shown)` : `${text} (${goalText})${met ? '' : ' MISSED'}`;
      rows.push([
        `${server.name}, ${format} (${median(mine.map((r) => r.rps)).toFixed(0)} req/s)`,
        judged(spread(ratios, 2, fastEnough), `goal ≥ ${goal}`, fast),
        spread(
          mine.map((r) => r.p50),
          2,
        ),
        spread(
          mine.map((r) => r.p99),
          2,
        ),
        judged(spread(p99Ratios, 1, steadyEnough), 'goal ≤ 3', steady),
        cpu(mine),
      ]);
    }
  }
  printTable(rows);
  return ok;
}

/** Runs one runtime's comparison: tubescribe (memory, Redis when it answers) vs bare Hono. */
async function runtimeSection(runtime: 'node' | 'bun', redisUrl: string | undefined): Promise<boolean> {
  const prefix = `tsbench-http:${process.pid}:${runtime}:${Date.now().toString(36)}:`;
  const servers: Server[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'tubescribe-bench-http-'));
  // Reads Redis's CPU time around each run of the Redis-backed server (INFO; nothing is reset).
  const stats = redisUrl ? new Redis(redisUrl) : undefined;
  try {
    const memory = await startServer(`tubescribe/${runtime} memory`, runtime, SCRIPT, [
      'tubescribe',
      'memory',
    ]);
    servers.push(memory);
    const contenders: Contender[] = [{ server: memory, goal: 0.5 }];
    if (redisUrl) {
      const redis = await startServer(`tubescribe/${runtime} redis`, runtime, SCRIPT, [
        'tubescribe',
        'redis',
        redisUrl,
        prefix,
      ]);
      servers.push(redis);
      contenders.push({ server: redis, goal: 0.4, ...(stats ? { redis: stats } : {}) });
    }
    const recorded = await record(memory);
    if (runtime === 'node') {
      const embedded = await startServer(`tubescribe/node handler, host's globals`, runtime, SCRIPT, [
        'tubescribe-handler',
        'memory',
      ]);
      servers.push(embedded);
      if (sameBodies(await record(embedded), recorded) === false)
        throw new Error(`${embedded.name} does not answer the bytes serve() answers`);
      contenders.push({ server: embedded });
    }
    const answers = join(dir, 'answers.json');
    writeFileSync(answers, JSON.stringify(recorded));
    const hono = await startServer(`hono/${runtime}`, runtime, SCRIPT, ['hono', answers]);
    servers.push(hono);
    return await compare(hono, contenders);
  } finally {
    await Promise.all(servers.map(stopServer));
    await stats?.quit();
    rmSync(dir, { recursive: true, force: true });
    if (redisUrl) await deleteKeysAt(prefix, redisUrl);
  }
}

/** Whether `npx -y bun@…` starts (it may need to be downloaded first). */
function bunStarts(): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('npx', [...BUN, '--version'], { stdio: 'ignore' });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(false);
    }, 120_000);
    child.on('error', () => resolve(false));
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}

/** A large cached transcript (json3 with words: 61.5 KB), past Bun's cork buffer. */
const LARGE = '/v1/transcripts?video_id=rCAS2eD-mcw&format=json3&word_level=true&track_policy=asr_first';

/**
 * Shown, no goal: Bun on Redis storage answering {@link LARGE} from its cache as made, and with
 * `streamLateAnswers`, interleaved; prints each one's figures and the ratio of their req/s.
 */
async function bunLateAnswers(redisUrl: string): Promise<void> {
  const prefix = `tsbench-http:${process.pid}:bun-late:${Date.now().toString(36)}:`;
  const stats = new Redis(redisUrl);
  const servers: Server[] = [];
  try {
    for (const [name, mode] of [
      ['as made', []],
      ['streamLateAnswers', ['stream-late']],
    ] as const) {
      const args = ['tubescribe', 'redis', redisUrl, `${prefix}${servers.length}:`, ...mode];
      servers.push(await startServer(`tubescribe/bun redis, ${name}`, 'bun', SCRIPT, args));
    }
    const [made, streamed] = servers as [Server, Server];
    await answerOf(made, LARGE);
    await answerOf(streamed, LARGE);
    const [a, b] = [await answerOf(made, LARGE), await answerOf(streamed, LARGE)];
    const hit = (x: { headers: Headers }) => x.headers.get('x-cache') === 'HIT';
    if (!hit(a) || !hit(b) || !a.body.equals(b.body))
      throw new Error('the two Bun servers do not answer the same cached transcript');
    for (const server of servers) await load(server, LARGE, 1); // warm-up
    const runs = new Map<Server, Run[]>(servers.map((server) => [server, []]));
    for (let rep = 0; rep < REPETITIONS; rep++) {
      for (const server of rep % 2 === 0 ? servers : [...servers].reverse())
        runs.get(server)!.push(await load(server, LARGE, SECONDS, stats));
    }
    const rows: string[][] = [
      [
        'server',
        'req/s min/med/max',
        'p50 ms min/med/max',
        'p99 ms min/med/max',
        'CPU µs/req: server, Redis',
      ],
    ];
    for (const server of servers) {
      const rs = runs.get(server)!;
      rows.push([
        server.name,
        spread(
          rs.map((r) => r.rps),
          0,
        ),
        spread(
          rs.map((r) => r.p50),
          2,
        ),
        spread(
          rs.map((r) => r.p99),
          2,
        ),
        cpu(rs),
      ]);
    }
    printTable(rows);
    const ratios = runs.get(streamed)!.map((r, i) => r.rps / runs.get(made)![i]!.rps);
    console.log(
      `streamLateAnswers ÷ as made, req/s: ${spread(ratios, 2)} (shown; ${a.body.length} bytes an answer)`,
    );
  } finally {
    await Promise.all(servers.map(stopServer));
    await stats.quit();
    await deleteKeysAt(prefix, redisUrl);
  }
}

/** Runs the HTTP benchmark; false when a goal is missed. */
export async function benchHttp(): Promise<boolean> {
  console.log(
    `\n## HTTP: a cached transcript through tubescribe vs bare Hono (autocannon, ${CONNECTIONS} connections, ` +
      `${SECONDS} s per run, ${REPETITIONS} interleaved repetitions; servers in their own processes)\n`,
  );
  const url = benchRedisUrl;
  const redisUrl = (await redisAnswers(url)) ? url : undefined;
  if (!redisUrl) console.log(`Redis storage SKIPPED: no Redis answers at ${url}.`);
  console.log('### Node\n');
  let ok = await runtimeSection('node', redisUrl);
  console.log('\n### Bun\n');
  if (await bunStarts()) {
    ok = (await runtimeSection('bun', redisUrl)) && ok;
    if (redisUrl) {
      console.log("\n### Bun, Redis storage: a large cached transcript made after its request's turn\n");
      await bunLateAnswers(redisUrl);
    }
  } else console.log('SKIPPED: Bun could not be started (npx -y bun@1.4.5).');
  return ok;
}
