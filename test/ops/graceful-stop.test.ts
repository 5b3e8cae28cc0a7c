/**
 * Graceful stop with work in flight (issue 15, item 6), on a real `tubescribe serve` process over
 * `fs:` storage and a slow fake YouTube: SIGTERM arrives while a transcript request and batch
 * tasks are running. The request in flight still gets its 200; the process exits 0 within 10 s;
 * the running tasks are handed back, not failed; after a restart on the same folder the job
 * completes with every task succeeded and charged exactly once.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChildServer, createKey, startServer } from '../helpers/processes.ts';
import { type SlowYouTube, startSlowYouTube, videoIds } from '../helpers/slow-youtube.ts';

let youtube: SlowYouTube;
let dir = '';
let server: ChildServer | undefined;

beforeAll(async () => {
  youtube = await startSlowYouTube(20);
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-stop-'));
});
afterAll(async () => {
  await server?.kill();
  await youtube.close();
  await rm(dir, { recursive: true, force: true });
});

const start = () =>
  startServer({
    TUBESCRIBE_STORAGE: `fs:${dir}`,
    TUBESCRIBE_UPSTREAM: 'youtube',
    TUBESCRIBE_YOUTUBE_ORIGIN: youtube.origin,
    TUBESCRIBE_LOG: 'info',
  });

interface Job {
  status: string;
  successful_tasks: number;
  failed_tasks: number;
  charged_credits: number;
  completed_at: string | null;
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  // 4 probes a second: a probe may call the API, and the paid plan allows 10 a second and 300 a
  // minute (faster polling of a job that a busy machine slows down would be answered 429).
  for (let i = 0; i < 320; i++) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

it('SIGTERM finishes the request in flight, hands batch tasks back and exits 0 within 10 s', {
  timeout: 90_000,
}, async () => {
  server = await start();
  const { api_key: key } = await createKey(server.url, 100);
  const auth = { authorization: `Bearer ${key}` };
  const ids = videoIds(6, 'g');
  youtube.delayMs = 1_500;
  const submitted = await fetch(`${server.url}/v1/batch`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      tasks: ids.map((video_id) => ({ type: 'transcript', video_id })),
      concurrency: 2,
    }),
  });
  expect(submitted.status).toBe(202);
  const { id } = (await submitted.json()) as { id: string };
  // Two tasks are running (YouTube is answering their calls) …
  await until('batch tasks running', () => (youtube.inFlight >= 2 ? true : undefined));
  // … and a transcript request is in flight too.
  const slowVideo = 'slowreq0001';
  const seen = youtube.players.length;
  const slow = fetch(`${server.url}/v1/transcripts?video_id=${slowVideo}&format=text`, { headers: auth });
  await until('the request in flight', () =>
    youtube.inFlight >= 3 || youtube.players.slice(seen).some((p) => p.videoId === slowVideo)
      ? true
      : undefined,
  );

  const stopped = server.child;
  const exited = new Promise<number | null>((resolve) => stopped.once('exit', (code) => resolve(code)));
  const began = performance.now();
  stopped.kill('SIGTERM');
  const response = await slow;
  expect(response.status).toBe(200);
  expect(await response.text()).toContain(`words of ${slowVideo}`);
  const deadline = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), 10_000).unref());
  const code = await Promise.race([exited, deadline]);
  const stopMs = performance.now() - began;
  expect(code).toBe(0);
  const log = server.stderr();
  server = undefined;
  expect(log).toMatch(/"msg":"stopped"/);
  expect(log).not.toMatch(/"level":"error"/);
  // The running tasks were handed back (not failed, not awaited to their end).
  expect(log.match(/"msg":"batch task handed back"/g)?.length ?? 0).toBeGreaterThanOrEqual(1);
  console.info(
    `graceful stop: exit 0 after ${stopMs.toFixed(0)} ms with a request and 2 batch tasks in flight`,
  );

  // Restart on the same folder: the handed-back tasks run again, nothing failed, nothing charged twice.
  youtube.delayMs = 20;
  server = await start();
  const job = await until('the job to complete', async () => {
    const res = await fetch(`${server!.url}/v1/batch/${id}`, { headers: auth });
    if (res.status !== 200)
      throw new Error(`GET /v1/batch: ${res.status} ${await res.text()} ${server!.stderr()}`);
    const body = (await res.json()) as Job;
    return body.completed_at !== null ? body : undefined;
  });
  expect(job).toMatchObject({
    status: 'completed',
    successful_tasks: 6,
    failed_tasks: 0,
    charged_credits: 6,
  });
  const account = await fetch(`${server.url}/v1/account`, { headers: auth });
  const charged = Number(response.headers.get('x-credits-to-deduct'));
  expect(((await account.json()) as { credits: number }).credits).toBe(100 - 6 - charged);
  expect(await server.stop()).toBe(0);
  server = undefined;
});
