import { describe, expect, it } from 'vitest';
import { jobQueueContract } from '../../test/contracts/jobs.ts';
import { ManualClock } from '../../test/fakes/clock.ts';
import type { QueuePayload } from '../ports/jobs.ts';
import { assertQueueKey, createMemoryJobQueue, defaultRetryDelaysMs, retryDelayMs } from './jobs-memory.ts';

jobQueueContract('in memory', async () => ({
  open: async () => createMemoryJobQueue(),
  shared: false,
}));

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('in-memory job queue, beyond the contract', () => {
  it.each([
    [0, 100],
    [1, 100],
    [2, 500],
    [3, 2_000],
    [7, 60_000],
    [50, 60_000],
  ])('waits before redelivery %i as the default schedule says (%i ms)', (attempt, ms) => {
    expect(retryDelayMs(defaultRetryDelaysMs, attempt)).toBe(ms);
  });

  it.each(['a', 'task.j_1.0', 'webhook:abc-DEF:3', 'x'.repeat(200)])('accepts the key %s', (key) => {
    expect(() => assertQueueKey(key)).not.toThrow();
  });

  it.each(['', 'a b', 'a/b', 'é', 'x'.repeat(201), 'a\n'])('rejects the key %j', (key) => {
    expect(() => assertQueueKey(key)).toThrow(/Invalid job queue key/);
  });

  it('reads due times from the injected clock', async () => {
    const clock = new ManualClock();
    const queue = createMemoryJobQueue({ clock });
    const got: QueuePayload[] = [];
    queue.work(async (payload) => void got.push(payload), { concurrency: 1 });
    await queue.enqueue('later', { v: 1 }, { delayMs: 30 });
    await sleep(80);
    expect(got).toEqual([]);
    clock.advance(30);
    await sleep(80);
    expect(got).toEqual([{ v: 1 }]);
    await queue.close();
  });

  it('follows the given retry schedule, the last wait repeating', async () => {
    const queue = createMemoryJobQueue({ retryDelaysMs: [5, 10] });
    let calls = 0;
    queue.work(
      async () => {
        if (++calls < 5) throw new Error('again');
      },
      { concurrency: 1 },
    );
    await queue.enqueue('k', { v: 1 });
    await sleep(200);
    expect(calls).toBe(5);
    await queue.close();
  });

  it('drops waiting units on close (nothing outlives the process) and refuses a second work()', async () => {
    const queue = createMemoryJobQueue();
    const got: QueuePayload[] = [];
    await queue.enqueue('k', { v: 1 }, { delayMs: 20 });
    queue.work(async (payload) => void got.push(payload), { concurrency: 1 });
    expect(() => queue.work(async () => {}, { concurrency: 1 })).toThrow(/already/);
    await queue.close();
    await sleep(60);
    expect(got).toEqual([]);
  });
});
