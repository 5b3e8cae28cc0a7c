import { expect, it } from 'vitest';
import { jobQueueContract } from '../../../test/contracts/jobs.ts';
import { connect, deleteKeys, describeRedis, redisUrl, uniquePrefix } from '../../../test/helpers/redis.ts';
import { startTcpProxy, type TcpProxy } from '../../../test/helpers/tcp-proxy.ts';
import type { JobQueue, QueuePayload } from '../../ports/jobs.ts';
import { bullmqJobId, createBullmqJobQueue } from './jobs-bullmq.ts';

// Short locks and stall checks, so a dead instance’s unit comes back within about 4 s.
const FAST = { lockDurationMs: 3_000, stalledIntervalMs: 500 };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describeRedis('BullMQ job queue', () => {
  // Every instance reaches Redis through its own TCP proxy: cutting it is the instance dying.
  jobQueueContract('bullmq', async () => {
    const client = await connect();
    const prefix = uniquePrefix('jobs');
    const proxies = new Map<JobQueue, TcpProxy>();
    const crashed: JobQueue[] = [];
    return {
      shared: true,
      async open() {
        const proxy = await startTcpProxy(redisUrl!);
        const queue = createBullmqJobQueue({ url: proxy.url, prefix, ...FAST });
        proxies.set(queue, proxy);
        return queue;
      },
      async crash(queue) {
        await proxies.get(queue)?.cut();
        crashed.push(queue);
      },
      async cleanup() {
        // Revive the dead so they can close (their held calls were released by now).
        for (const queue of crashed) {
          await proxies.get(queue)?.restore();
          await queue.close();
        }
        for (const proxy of proxies.values()) await proxy.close();
        await deleteKeys(client, prefix);
        await client.quit();
      },
    };
  });

  it('maps keys to job ids BullMQ accepts, distinct keys to distinct ids', () => {
    expect(bullmqJobId('task.j1.0')).toBe('#task.j1.0');
    expect(bullmqJobId('webhook:j1:3')).toBe('#webhook|j1|3');
    expect(bullmqJobId('123')).toBe('#123');
    expect(new Set(['a:b', 'a_b', 'a.b', 'a-b', 'ab'].map(bullmqJobId)).size).toBe(5);
  });

  it('delivers keys with colons and all-digit keys, under the URL prefix', async () => {
    const client = await connect();
    const prefix = uniquePrefix('jobsurl');
    const queue = createBullmqJobQueue({ url: `${redisUrl}?prefix=${prefix}`, queueName: 'tasks' });
    try {
      await queue.enqueue('123', { k: '123' });
      await queue.enqueue('a:b:c:d', { k: 'a:b:c:d' });
      await queue.enqueue('a_b_c_d', { k: 'a_b_c_d' });
      const keys = await client.keys(`${prefix}bullmq:tasks:*`);
      expect(keys).toContain(`${prefix}bullmq:tasks:#a|b|c|d`);
      const got: QueuePayload[] = [];
      queue.work(async (payload) => void got.push(payload), { concurrency: 3 });
      for (let i = 0; i < 300 && got.length < 3; i++) await sleep(10);
      expect(got.map((p) => p.k).sort()).toEqual(['123', 'a:b:c:d', 'a_b_c_d']);
    } finally {
      await queue.close();
      await deleteKeys(client, prefix);
      await client.quit();
    }
  });

  it('refuses a queue name with a colon', () => {
    expect(() => createBullmqJobQueue({ url: redisUrl!, queueName: 'a:b' })).toThrow(/must not contain/);
  });
});
