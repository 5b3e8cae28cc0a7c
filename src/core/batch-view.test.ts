import { describe, expect, it } from 'vitest';
import {
  type BatchTaskInput,
  createJob,
  finishTask,
  type JobRecord,
  startTask,
  type TaskError,
  type TaskOutcome,
} from './batch.ts';
import { syncResultView } from './batch-view.ts';
import { DEFAULT_PRICES } from './pricing.ts';

const T0 = Date.parse('2024-03-01T12:00:00.000Z');
const NOT_FOUND: TaskError = { code: 'video_unavailable', message: 'Video unavailable.', retryable: false };
const ok = (charged: number, latencyMs = 100): TaskOutcome => ({
  success: true,
  data: { ok: 1 },
  latencyMs,
  charged,
});
const fail = (latencyMs = 50): TaskOutcome => ({ success: false, error: NOT_FOUND, latencyMs });

const TASKS: BatchTaskInput[] = [
  { id: 'a', type: 'transcript', video_id: 'dQw4w9WgXcQ', format: 'text' },
  { type: 'basic_info', video_id: 'jNQXAC9IVRw' },
  { id: 'c', type: 'video_info', video_id: 'dQw4w9WgXcQ', mode: 'full' },
  { type: 'video_info', video_id: '9bZkp7q19f0' },
];
const job = (tasks: BatchTaskInput[] = TASKS, concurrency?: number): JobRecord =>
  createJob(
    concurrency === undefined
      ? { id: 'job1', account: 'acc', tasks, now: T0 }
      : { id: 'job1', account: 'acc', tasks, concurrency, now: T0 },
    DEFAULT_PRICES,
  );

describe('views', () => {
  const partial = finishTask(
    finishTask(startTask(startTask(job(), 2, T0 + 1), 0, T0 + 2), 2, fail(40), T0 + 41),
    0,
    ok(1, 90),
    T0 + 95,
  );

  it('syncResultView gives every task, data null on failures, ids defaulting to the index', () => {
    expect(() => syncResultView(partial)).toThrow(/not completed/);
    const j = [1, 3].reduce((acc, i) => finishTask(startTask(acc, i, T0), i, ok(0, 5), T0 + 5), partial);
    const view = syncResultView(j);
    expect(view).toMatchObject({
      total_tasks: 4,
      successful_tasks: 3,
      failed_tasks: 1,
      total_latency_ms: 140,
    });
    expect(view.results.map((r) => r.id)).toEqual(['a', '1', 'c', '3']);
    expect(view.results[2]).toEqual({
      id: 'c',
      video_id: 'dQw4w9WgXcQ',
      type: 'video_info',
      success: false,
      latency_ms: 40,
      data: null,
      error: NOT_FOUND,
    });
    expect(Object.keys(view.results[2] ?? {})).toEqual([
      'id',
      'video_id',
      'type',
      'success',
      'latency_ms',
      'data',
      'error',
    ]);
  });
});
