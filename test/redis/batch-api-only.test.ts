/**
 * An instance that only serves the API (`TUBESCRIBE_BATCH_CONCURRENCY=0`) beside one that does the
 * batch work, two `tubescribe serve` processes on one Redis prefix (BullMQ): a job submitted to
 * the API-only instance is run entirely by the other one (the fake YouTube tells them apart by
 * the visitorData each process fetched once at start), charged exactly once, and its webhook is
 * delivered; the API-only instance still serves its own interactive requests.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { BatchJobRecord as Job } from '../../src/core/batch-record.ts';
import { type ChildServer, createKey, startServer } from '../helpers/processes.ts';
import { deleteKeysAt, describeRedis, redisUrl, uniquePrefix } from '../helpers/redis.ts';
import { type SlowYouTube, startSlowYouTube, videoIds } from '../helpers/slow-youtube.ts';

const TASKS = 12;
const INITIAL_CREDITS = 50;

/**
 * Resolves once `check` holds, polling every 250 ms (a job poll counts toward the paid plan's
 * 300 requests a minute); throws after `timeoutMs` (a bound, not a timing assert).
 */
async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what} did not happen within ${timeoutMs} ms`);
}

describeRedis('an API-only instance (TUBESCRIBE_BATCH_CONCURRENCY=0) beside a worker on Redis', () => {
  let youtube: SlowYouTube;
  let receiver: Server;
  const events: { event: string | undefined; status: string }[] = [];
  const servers: ChildServer[] = [];
  const prefix = uniquePrefix('apionly');

  beforeAll(async () => {
    youtube = await startSlowYouTube(40);
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      req.on('end', () => {
        events.push({
          event: req.headers['tubescribe-event'] as string | undefined,
          status: (JSON.parse(body) as Job).status,
        });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.kill()));
    await youtube?.close();
    await new Promise((resolve) => receiver?.close(resolve));
    await deleteKeysAt(prefix);
  });

  it('the worker runs every task and delivers the webhook; the API-only instance runs none', {
    timeout: 60_000,
  }, async () => {
    const env = {
      TUBESCRIBE_STORAGE: `${redisUrl}?prefix=${prefix}`,
      TUBESCRIBE_UPSTREAM: 'youtube',
      TUBESCRIBE_YOUTUBE_ORIGIN: youtube.origin,
      TUBESCRIBE_WEBHOOK_PRIVATE: 'allow',
    };
    // One at a time, so that the first visitorData is the API-only instance's.
    const api = await startServer({ ...env, TUBESCRIBE_BATCH_CONCURRENCY: '0' });
    servers.push(api);
    await until(() => youtube.visitors.length === 1, 15_000, "the API-only instance's visitorData call");
    const worker = await startServer(env);
    servers.push(worker);
    await until(() => youtube.visitors.length === 2, 15_000, "the worker's visitorData call");
    const [apiVisitor, workerVisitor] = youtube.visitors as [string, string];

    const { api_key: key } = await createKey(api.url, INITIAL_CREDITS, 'paid');
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const ids = videoIds(TASKS, 'A');
    const submitted = await fetch(`${api.url}/v1/batch`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        tasks: ids.map((video_id) => ({ type: 'transcript', video_id })),
        concurrency: 4,
        webhook: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook` },
      }),
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };

    let job: Job | undefined;
    await until(
      async () => {
        const res = await fetch(`${api.url}/v1/batch/${id}`, { headers });
        job = (await res.json()) as Job;
        return job.completed_at !== null;
      },
      45_000,
      'the job',
    );
    expect(job).toMatchObject({
      status: 'completed',
      completed_tasks: TASKS,
      successful_tasks: TASKS,
      charged_credits: TASKS,
    });
    // Every player request of the job came from the worker.
    const ofJob = new Set(ids);
    const jobVisitors = youtube.players.filter((p) => ofJob.has(p.videoId)).map((p) => p.visitor);
    expect(jobVisitors.length).toBeGreaterThanOrEqual(TASKS);
    expect(new Set(jobVisitors)).toEqual(new Set([workerVisitor]));
    await until(() => events.length > 0, 15_000, 'the webhook');
    expect(events[0]).toEqual({ event: 'batch.completed', status: 'completed' });

    // The API-only instance still does its own upstream work for interactive requests.
    const [single] = videoIds(1, 'I');
    const transcript = await fetch(`${api.url}/v1/transcripts?video_id=${single}&format=text`, { headers });
    expect(transcript.status).toBe(200);
    expect(youtube.players.filter((p) => p.videoId === single).map((p) => p.visitor)).toEqual([apiVisitor]);

    const account = await fetch(`${api.url}/v1/account`, { headers });
    expect(account.status).toBe(200);
    expect(((await account.json()) as { credits: number }).credits).toBe(INITIAL_CREDITS - TASKS - 1);
  });
});
