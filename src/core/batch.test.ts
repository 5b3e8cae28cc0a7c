import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import {
  type BatchTaskInput,
  createJob,
  finishTask,
  type JobRecord,
  jobStatus,
  startTask,
  type TaskError,
  type TaskOutcome,
  taskErrorFrom,
} from './batch.ts';
import { totals } from './batch-view.ts';
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

describe('createJob', () => {
  it('queues every task with its price fixed', () => {
    const j = job();
    expect(j).toMatchObject({ id: 'job1', account: 'acc', status: 'queued', created_at: T0, updated_at: T0 });
    expect(j).toMatchObject({ concurrency: 10, credits_charged: 0, estimated_credits: 4 });
    expect(j.tasks.map((t) => [t.index, t.state, t.price, t.attempts, t.charged])).toEqual([
      [0, 'queued', 1, 0, 0],
      [1, 'queued', 0, 0, 0],
      [2, 'queued', 2, 0, 0],
      [3, 'queued', 1, 0, 0],
    ]);
    expect(j.tasks[0]).toMatchObject({ id: 'a', format: 'text' });
    expect(j.tasks[1]).not.toHaveProperty('id');
    expect(j.tasks[1]).not.toHaveProperty('mode');
    expect(j.tasks[3]?.mode).toBe('fast');
  });

  it('completes an empty job at once and validates its arguments', () => {
    expect(job([]).status).toBe('completed');
    expect(job(TASKS, 3).concurrency).toBe(3);
    expect(() => job(TASKS, 0)).toThrow(/concurrency/);
    expect(() => createJob({ id: '', account: 'a', tasks: [], now: T0 }, DEFAULT_PRICES)).toThrow(/id/);
  });
});

describe('transitions', () => {
  it('runs a job to completion', () => {
    let j = startTask(job(), 0, T0 + 10);
    expect(j.status).toBe('running');
    expect(j.tasks[0]).toMatchObject({ state: 'running', attempts: 1, started_at: T0 + 10 });
    expect(j.updated_at).toBe(T0 + 10);
    j = finishTask(j, 0, ok(1, 120.4), T0 + 130);
    expect(j.tasks[0]).toMatchObject({
      state: 'succeeded',
      latency_ms: 120,
      finished_at: T0 + 130,
      charged: 1,
    });
    expect(j.credits_charged).toBe(1);
    for (const i of [1, 2, 3]) j = startTask(j, i, T0 + 200);
    j = finishTask(j, 2, fail(), T0 + 250);
    expect(j.tasks[2]).toMatchObject({ state: 'failed', error: NOT_FOUND, charged: 0 });
    j = finishTask(j, 1, ok(0), T0 + 260);
    expect(j.status).toBe('running');
    j = finishTask(j, 3, ok(0, 7), T0 + 270); // a cache hit with chargeCacheHits off
    expect(j.status).toBe('completed');
    expect(totals(j)).toEqual({
      total_tasks: 4,
      completed_tasks: 4,
      successful_tasks: 3,
      failed_tasks: 1,
      total_latency_ms: 120 + 50 + 100 + 7,
      credits_charged: 1,
    });
  });

  it('does not mutate its input', () => {
    const before = job();
    const snapshot = structuredClone(before);
    finishTask(startTask(before, 0, T0), 0, ok(1), T0 + 1);
    expect(before).toEqual(snapshot);
  });

  const running = startTask(job(), 0, T0);
  const done = finishTask(running, 0, ok(1), T0 + 5);
  it.each<[string, () => unknown, RegExp]>([
    [
      'finishing a queued task',
      () => finishTask(job(), 0, ok(1), T0),
      /Cannot finish task 0 of job job1: it is queued/,
    ],
    ['finishing twice', () => finishTask(done, 0, ok(1), T0 + 9), /it is succeeded/],
    ['failing a finished task', () => finishTask(done, 0, fail(), T0 + 9), /it is succeeded/],
    ['starting twice', () => startTask(running, 0, T0), /Cannot start task 0 of job job1: it is running/],
    ['starting a finished task', () => startTask(done, 0, T0), /it is succeeded/],
    ['an unknown task', () => startTask(job(), 4, T0), /has no task 4/],
    ['a negative index', () => startTask(job(), -1, T0), /has no task -1/],
    ['a fractional index', () => startTask(job(), 0.5, T0), /has no task 0.5/],
    [
      'charging more than the price',
      () => finishTask(running, 0, ok(2), T0),
      /cannot be charged 2 \(price 1\)/,
    ],
    ['a negative charge', () => finishTask(running, 0, ok(-1), T0), /cannot be charged -1/],
    ['a fractional charge', () => finishTask(running, 0, ok(0.5), T0), /cannot be charged/],
    ['a negative latency', () => finishTask(running, 0, ok(1, -1), T0), /Invalid latency/],
    ['a NaN latency', () => finishTask(running, 0, ok(1, Number.NaN), T0), /Invalid latency/],
    ['a stale attempt', () => finishTask(running, 0, { ...ok(1), attempt: 2 }, T0), /on attempt 1, not 2/],
  ])('throws on %s', (_name, act, message) => {
    expect(act).toThrow(message);
  });

  it('accepts the current attempt', () => {
    expect(finishTask(running, 0, { ...ok(1), attempt: 1 }, T0).tasks[0]?.state).toBe('succeeded');
  });
});

describe('taskErrorFrom', () => {
  it('taskErrorFrom keeps an ApiError public part and hides anything else', () => {
    expect(taskErrorFrom(new ApiError('captions_disabled', 'No captions.'))).toEqual({
      code: 'captions_disabled',
      message: 'No captions.',
      retryable: false,
    });
    expect(taskErrorFrom(new Error('secret upstream body'))).toEqual({
      code: 'internal_error',
      message: 'Internal server error.',
      retryable: true,
    });
  });
});

describe('properties', () => {
  const taskArb = fc.record(
    {
      type: fc.constantFrom<BatchTaskInput['type']>('transcript', 'basic_info', 'video_info'),
      video_id: fc.constant('dQw4w9WgXcQ'),
      mode: fc.constantFrom<'fast' | 'full'>('fast', 'full'),
    },
    { requiredKeys: ['type', 'video_id'] },
  );
  const eventArb = fc.record({
    pick: fc.nat(),
    kind: fc.constantFrom('start', 'succeed', 'fail'),
    dt: fc.integer({ min: 0, max: 200_000 }),
  });

  it('keeps totals, credits and status consistent under any legal event sequence', () => {
    fc.assert(
      fc.property(
        fc.array(taskArb, { maxLength: 12 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(eventArb, { maxLength: 80 }),
        (tasks, concurrency, events) => {
          let j = createJob({ id: 'p', account: 'a', tasks, concurrency, now: T0 }, DEFAULT_PRICES);
          let now = T0;
          const successes = new Map<number, number>();
          for (const event of events) {
            now += event.dt;
            const running = j.tasks.filter((t) => t.state === 'running').map((t) => t.index);
            const runnable =
              running.length < concurrency
                ? j.tasks.filter((t) => t.state === 'queued').map((t) => t.index)
                : [];
            if (event.kind === 'start' && runnable.length > 0) {
              j = startTask(j, runnable[event.pick % runnable.length]!, now);
            } else if (event.kind !== 'start' && running.length > 0) {
              const index = running[event.pick % running.length]!;
              const price = j.tasks[index]!.price;
              const outcome = event.kind === 'succeed' ? ok(price, event.dt) : fail(event.dt);
              j = finishTask(j, index, outcome, now);
              if (event.kind === 'succeed') successes.set(index, (successes.get(index) ?? 0) + 1);
            }
            const t = totals(j);
            const finished = j.tasks.filter((task) => task.state === 'succeeded' || task.state === 'failed');
            expect(t.successful_tasks + t.failed_tasks).toBe(finished.length);
            expect(t.completed_tasks).toBe(finished.length);
            const paid = j.tasks
              .filter((task) => task.state === 'succeeded')
              .reduce((s, task) => s + task.price, 0);
            expect(j.credits_charged).toBe(paid);
            expect(t.credits_charged).toBe(paid);
            expect(j.credits_charged).toBeLessThanOrEqual(j.estimated_credits);
            expect(j.status === 'completed').toBe(
              j.tasks.every((task) => task.state === 'succeeded' || task.state === 'failed'),
            );
            expect(j.status).toBe(jobStatus(j));
            expect(j.tasks.filter((task) => task.state === 'running').length).toBeLessThanOrEqual(
              concurrency,
            );
            expect([...successes.values()].every((n) => n === 1)).toBe(true);
          }
        },
      ),
    );
  });
});
