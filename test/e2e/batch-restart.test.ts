/**
 * A batch job on `fs:` storage survives its server: stopped with SIGTERM mid-job, then killed
 * with SIGKILL mid-job, each time restarted on the same folder, it finishes; every task runs to
 * success and is charged exactly once (the in-process queue resumes from the stored jobs).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, createKey, startServer } from '../helpers/processes.ts';
import { type SlowYouTube, startSlowYouTube, videoIds } from '../helpers/slow-youtube.ts';

let youtube: SlowYouTube;
let dir: string;
let server: ChildServer | undefined;

beforeAll(async () => {
  youtube = await startSlowYouTube(60);
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-batch-'));
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
  });

interface Job {
  status: string;
  completed_tasks: number;
  successful_tasks: number;
  charged_credits: number;
  completed_at: string | null;
}

async function poll(url: string, key: string, id: string, until: (job: Job) => boolean): Promise<Job> {
  for (let i = 0; i < 240; i++) {
    const res = await fetch(`${url}/v1/batch/${id}`, { headers: { authorization: `Bearer ${key}` } });
    if (res.status === 200) {
      const job = (await res.json()) as Job;
      if (until(job)) return job;
    }
    // 4 polls a second: the paid plan allows 300 requests a minute, and the final GET
    // /v1/account must not be answered 429 after a slow run's polling.
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the job did not get there in time');
}

describe('a batch job on fs: storage across SIGTERM and SIGKILL', () => {
  it('finishes after each restart, every task charged exactly once', async () => {
    server = await start();
    const { api_key: key } = await createKey(server.url, 100);
    const ids = videoIds(18, 'r');
    const submitted = await fetch(`${server.url}/v1/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        tasks: ids.map((video_id) => ({ type: 'transcript', video_id })),
        concurrency: 3,
      }),
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };

    await poll(server.url, key, id, (job) => job.completed_tasks >= 3);
    expect(await server.stop()).toBe(0);
    server = await start();
    await poll(server.url, key, id, (job) => job.completed_tasks >= 9);
    await server.kill();
    server = await start();
    const job = await poll(server.url, key, id, (j) => j.completed_at !== null);

    expect(job).toMatchObject({ status: 'completed', successful_tasks: 18, charged_credits: 18 });
    const account = await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await account.json()) as { credits: number }).credits).toBe(82);
    // Every video was fetched; a task cut off by SIGKILL ran again, but none was charged twice.
    expect(ids.every((v) => (youtube.captions.get(v) ?? 0) >= 1)).toBe(true);
  });
});
