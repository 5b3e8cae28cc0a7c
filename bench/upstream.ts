/**
 * YouTube upstream benchmark (issue 12), over the fake YouTube of test/helpers/slow-youtube.ts
 * reached through the whole app (`GET /v1/transcripts`, distinct videos, so every transcript is
 * cold):
 * - (a) cold transcript latency when the first client's (VISIONOS) caption URL stalls 8 s, then
 *   answers empty (YouTube's PO-token gate): before = the per-caption timeout effectively off (set
 *   to the 10 s request deadline, breaker never opening), after = the default 4 s timeout, then
 *   with VISIONOS's breaker open after three stalls, in the same run;
 * - (b) upstream requests per cold transcript once `start()` has fetched the clients'
 *   visitorData (goal: 2, player and caption), against a driver left to fetch it lazily;
 * - (c) 200 concurrent slow transcripts (500 ms per upstream answer, ~75 KB of captions each) for
 *   distinct videos: the peak RSS growth of this process (app and fake together), the most
 *   requests the fake saw at once against the limit of 32, and what the clients got.
 * About 20 s in all.
 */
import type { Tubescribe } from '../src/app.ts';
import { silentLogger } from '../src/drivers/system.ts';
import { createYouTubeUpstream } from '../src/drivers/youtube/index.ts';
import type { AppOptions } from '../src/options.ts';
import { type SlowYouTube, startSlowYouTube, videoIds } from '../test/helpers/slow-youtube.ts';
import { median, printTable } from './measure.ts';
import { benchApp } from './setup.ts';

const LATENCY_MS = 20;
const STALL_MS = 8000;
const DEADLINE_MS = 10_000;
const SLOW_MS = 500;
const CONCURRENT = 200;
const LIMIT = 32;

let salts = 0;
/** Distinct video ids per call: `u<letter><9 digits>`. */
const freshIds = (n: number): string[] => videoIds(n, `u${'ABCDEFGHIJKLMNOPQRSTUVWXYZ'[salts++ % 26]!}`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** A started app over `youtube`, its upstream warmed up too, with a funded key. */
async function warmApp(
  youtube: SlowYouTube,
  options: AppOptions = {},
): Promise<{ ts: Tubescribe; key: string }> {
  const { youtube: yt, ...rest } = options;
  const app = await benchApp({ youtube: { origin: youtube.origin, retries: 0, ...yt }, ...rest });
  await app.ts.ports.upstream.start?.();
  return app;
}

/** One transcript request: its status and how long it took. */
async function transcript(
  app: { ts: Tubescribe; key: string },
  id: string,
): Promise<{ status: number; ms: number }> {
  const began = performance.now();
  const res = await app.ts.app.request(`/v1/transcripts?video_id=${id}&format=text`, {
    headers: { authorization: `Bearer ${app.key}` },
  });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - began };
}

/** (a) Latency of cold transcripts while VISIONOS's captions stall 8 s. */
async function stalls(rows: string[][]): Promise<void> {
  const youtube = await startSlowYouTube(LATENCY_MS, { stallCaptions: ['VISIONOS'], stallMs: STALL_MS });
  try {
    const before = await warmApp(youtube, {
      youtube: { captionTimeoutMs: DEADLINE_MS, clientHealth: { threshold: 1_000_000 } },
    });
    const b = await Promise.all(freshIds(2).map((id) => transcript(before, id)));
    await before.ts.close();
    rows.push([
      '(a) before: caption timeout = deadline (10 s), no breaker',
      seconds(median(b.map((r) => r.ms))),
      statuses(b),
    ]);

    const after = await warmApp(youtube);
    const first = await Promise.all(freshIds(3).map((id) => transcript(after, id)));
    rows.push([
      '(a) after: default 4 s timeout, breaker closed (3 stalls)',
      seconds(median(first.map((r) => r.ms))),
      statuses(first),
    ]);
    const state = after.ts.ports.upstream.health?.().find((c) => c.name === 'VISIONOS')?.state ?? '?';
    const open: { status: number; ms: number }[] = [];
    for (const id of freshIds(5)) open.push(await transcript(after, id));
    rows.push([
      `(a) after: VISIONOS breaker ${state}, skipped`,
      seconds(median(open.map((r) => r.ms))),
      statuses(open),
    ]);
    await after.ts.close();
  } finally {
    await youtube.close();
  }
}

/** (b) Upstream requests per cold transcript, warm (after start) and lazy. Returns the goal's verdict. */
async function requestsPerTranscript(rows: string[][]): Promise<boolean> {
  const youtube = await startSlowYouTube(LATENCY_MS);
  try {
    const warm = await warmApp(youtube);
    const counts: number[] = [];
    for (const id of freshIds(20)) {
      youtube.requests = [];
      const r = await transcript(warm, id);
      counts.push(r.status === 200 ? youtube.requests.length : Number.NaN);
    }
    await warm.ts.close();
    const met = counts.every((n) => n === 2);
    rows.push([
      '(b) after start(): requests per cold transcript (20 videos)',
      Math.min(...counts) === Math.max(...counts)
        ? String(counts[0])
        : `${Math.min(...counts)}–${Math.max(...counts)}`,
      `goal 2 (player + caption): ${met ? 'met' : 'MISSED'}`,
    ]);

    // Before: the same driver without its start-up work (visitorData fetched by the first request).
    const {
      start: _start,
      stop: _stop,
      ...lazy
    } = createYouTubeUpstream({
      origin: youtube.origin,
      retries: 0,
      logger: silentLogger,
    });
    const cold = await benchApp({ upstream: lazy });
    const lazyCounts: number[] = [];
    for (const id of freshIds(2)) {
      youtube.requests = [];
      await transcript(cold, id);
      lazyCounts.push(youtube.requests.length);
    }
    await cold.ts.close();
    rows.push([
      '(b) before (lazy visitorData): first, second cold transcript',
      lazyCounts.join(', '),
      'visitor_id on the first request path',
    ]);
    return met;
  } finally {
    await youtube.close();
  }
}

/** (c) 200 concurrent slow transcripts for distinct videos: memory and the bound on YouTube work. */
async function concurrency(rows: string[][]): Promise<void> {
  const youtube = await startSlowYouTube(SLOW_MS, { captionEvents: 800 });
  try {
    const app = await warmApp(youtube);
    (globalThis as { gc?: () => void }).gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    youtube.maxInFlight = 0;
    const began = performance.now();
    const results = await Promise.all(freshIds(CONCURRENT).map((id) => transcript(app, id)));
    const wall = performance.now() - began;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    await app.ts.close();
    rows.push([
      `(c) ${CONCURRENT} concurrent slow transcripts: peak RSS growth`,
      mib(peak - base),
      `${statuses(results)} (app, fake and cached transcripts in one process)`,
    ]);
    rows.push([
      '(c) YouTube requests in flight at most',
      String(youtube.maxInFlight),
      `limit ${LIMIT}: ${youtube.maxInFlight <= LIMIT ? 'held' : 'EXCEEDED'}; wall ${seconds(wall)}`,
    ]);
  } finally {
    await youtube.close();
  }
}

/** `200×n 503×m` */
function statuses(results: readonly { status: number }[]): string {
  const counts = new Map<number, number>();
  for (const r of results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(' ');
}

/** The section: false when goal (b) is missed. */
export async function benchUpstream(): Promise<boolean> {
  console.log('\n## YouTube upstream: caption stalls, requests per cold transcript, 200 concurrent');
  console.log(
    `fake YouTube on 127.0.0.1 (${LATENCY_MS} ms per answer; VISIONOS captions stall ${STALL_MS / 1000} s in (a); ${SLOW_MS} ms per answer in (c)), through the whole app`,
  );
  const rows: string[][] = [['measure', 'value', 'notes']];
  await stalls(rows);
  const met = await requestsPerTranscript(rows);
  await concurrency(rows);
  printTable(rows);
  return met;
}
