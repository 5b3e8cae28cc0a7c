import { describe, expect, it } from 'vitest';
import type { BatchTaskInput } from './batch.ts';
import { BATCH_DEFAULTS, taskPrice, taskReservationId } from './batch-settings.ts';
import { DEFAULT_PRICES, resolvePricing } from './pricing.ts';

const TASKS: BatchTaskInput[] = [
  { id: 'a', type: 'transcript', video_id: 'dQw4w9WgXcQ', format: 'text' },
  { type: 'basic_info', video_id: 'jNQXAC9IVRw' },
  { id: 'c', type: 'video_info', video_id: 'dQw4w9WgXcQ', mode: 'full' },
  { type: 'video_info', video_id: '9bZkp7q19f0' },
];

describe('settings and prices', () => {
  it('has the contract defaults', () => {
    expect(BATCH_DEFAULTS).toMatchObject({
      maxTasks: 100,
      maxSyncTasks: 10,
      concurrency: 10,
      minConcurrency: 1,
      maxConcurrency: 20,
      compatMaxItems: 50,
    });
  });

  it.each<[Pick<BatchTaskInput, 'type' | 'mode'>, number]>([
    [{ type: 'transcript' }, 1],
    [{ type: 'basic_info' }, 0],
    [{ type: 'video_info' }, 1],
    [{ type: 'video_info', mode: 'fast' }, 1],
    [{ type: 'video_info', mode: 'full' }, 2],
  ])('%j costs %i', (task, price) => {
    expect(taskPrice(task, DEFAULT_PRICES)).toBe(price);
  });

  it('uses the configured prices and rejects unknown types', () => {
    const pricing = resolvePricing({ batch_transcript: 3, batch_video_info_full: 5 });
    expect(TASKS.map((task) => taskPrice(task, pricing))).toEqual([3, 0, 5, 1]);
    expect(() => taskPrice({ type: 'comments' as 'transcript' }, DEFAULT_PRICES)).toThrow(
      /Unknown batch task type/,
    );
  });

  it('names one reservation per attempt', () => {
    expect(taskReservationId('job1', 2, 1)).toBe('batch:job1:2:1');
  });
});
