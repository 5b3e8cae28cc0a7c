/**
 * A batch job over processes on Redis storage (BullMQ): two `tubescribe serve` children on one
 * Redis prefix both work on a job submitted to one of them (the fake YouTube tells them apart by
 * the visitorData each process fetched once); the one it was submitted to is killed with SIGKILL
 * mid-job, and the other finishes it, BullMQ's stall check handing it the dead worker's tasks.
 * Every task succeeds and is charged exactly once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChildServer, createKey, startServers } from '../helpers/processes.ts';
import { deleteKeysAt, describeRedis, redisUrl, uniquePrefix } from '../helpers/redis.ts';
import { type SlowYouTube, startSlowYouTube, videoIds } from '../helpers/slow-youtube.ts';

const TASKS = 40;
const CONCURRENCY = 8;
const INITIAL_CREDITS = 100;

interface Job {
  status: string;
  completed_tasks: number;
  successful_tasks: number;
  charged_credits: number;
  completed_at: string | null;
  results: { status: string; success: boolean }[];
}

/** Polls the job on `url` every 50 ms until `until` holds; throws after `timeoutMs` (a bound, not a timing assert). */
async function poll(
  url: string,
  key: string,
  id: string,
  until: (job: Job) => boolean,
  timeoutMs: number,
): Promise<Job> {
  const end = Date.now() + timeoutMs;
  let last: Job | undefined;
  while (Date.now() < end) {
    const res = await fetch(`${url}/v1/batch/${id}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status === 200) {
      last = (await res.json()) as Job;
      if (until(last)) return last;
    }
    // 4 polls a second: the paid plan allows 300 requests a minute, and a slow job on a busy
    // machine polled at 20 a second used them up before the final GET /v1/account.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the job did not get there within ${timeoutMs} ms (last: ${JSON.stringify(last)})`);
}

describeRedis('a batch job across two processes on Redis, one killed with SIGKILL mid-job', () => {
  let youtube: SlowYouTube;
  let servers: ChildServer[] = [];
  const prefix = uniquePrefix('batchproc');

  beforeAll(async () => {
    youtube = await startSlowYouTube(80);
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await youtube?.close();
    await deleteKeysAt(prefix);
  });

  it('both processes work on it; the survivor finishes it; every task charged exactly once', {
    timeout: 60_000,
  }, async () => {
    servers = await startServers(2, {
      TUBESCRIBE_STORAGE: `${redisUrl}?prefix=${prefix}`,
      TUBESCRIBE_UPSTREAM: 'youtube',
      TUBESCRIBE_YOUTUBE_ORIGIN: youtube.origin,
    });
    const [a, b] = servers as [ChildServer, ChildServer];
    const { api_key: key } = await createKey(a.url, INITIAL_CREDITS, 'paid');
    const ids = videoIds(TASKS, 'P');
    const submitted = await fetch(`${a.url}/v1/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        tasks: ids.map((video_id) => ({ type: 'transcript', video_id })),
        concurrency: CONCURRENCY,
      }),
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    const ofJob = new Set(ids);
    const visitorsOfJob = () =>
      new Set(youtube.players.filter((p) => ofJob.has(p.videoId)).map((p) => p.visitor ?? 'none'));

    // Mid-job: at least 5 tasks done, tasks left, and both processes have sent player requests.
    const before = await poll(
      a.url,
      key,
      id,
      (job) => job.completed_tasks >= 5 && visitorsOfJob().size >= 2,
      30_000,
    );
    await a.kill();
    expect(before.completed_tasks).toBeLessThan(TASKS);
    // Two processes, one visitorData each, both seen on the job's player requests.
    expect(youtube.visitors).toHaveLength(2);
    expect(visitorsOfJob()).toEqual(new Set(youtube.visitors));

    const job = await poll(b.url, key, id, (j) => j.completed_at !== null, 45_000);
    expect(job).toMatchObject({
      status: 'completed',
      completed_tasks: TASKS,
      successful_tasks: TASKS,
      charged_credits: TASKS,
    });
    expect(job.results.every((r) => r.status === 'succeeded' && r.success)).toBe(true);
    const account = await fetch(`${b.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(account.status).toBe(200);
    expect(((await account.json()) as { credits: number }).credits).toBe(INITIAL_CREDITS - TASKS);
    // Every video was fetched at least once (a task cut off by the kill ran again on B).
    expect(ids.every((v) => (youtube.captions.get(v) ?? 0) >= 1)).toBe(true);
  });
});
