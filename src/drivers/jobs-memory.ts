/**
 * The in-process JobQueue: units wait in memory, ordered by due time (FIFO among equals), and
 * are handed to at most `concurrency` handler calls at once. A rejected call puts its unit back
 * after a growing wait ({@link defaultRetryDelaysMs}); a delayed unit waits on one timer (unref'd
 * where timers have `unref`, so a waiting unit never keeps a process alive). Runtime-neutral:
 * only `setTimeout` and promises. Nothing survives the process: the batch service re-enqueues
 * unfinished work at start-up.
 *
 * Also the helpers every engine shares: the key rule ({@link assertQueueKey}) and the retry
 * schedule ({@link retryDelayMs}).
 * @module
 */
import type { Clock } from '../ports/clock.ts';
import type { JobQueue, QueuePayload } from '../ports/jobs.ts';
import { systemClock } from './system.ts';

/** Waits before the 1st, 2nd, … redelivery after a rejected handler call; the last repeats. */
export const defaultRetryDelaysMs: readonly number[] = [100, 500, 2_000, 5_000, 15_000, 30_000, 60_000];

/** The wait before redelivery number `attempt` (1 = the first) under `delays`. */
export function retryDelayMs(delays: readonly number[], attempt: number): number {
  const index = Math.min(Math.max(1, attempt), delays.length) - 1;
  return delays[index] ?? 0;
}

const KEY = /^[A-Za-z0-9_:.-]{1,200}$/;

/** Throws unless `key` is 1–200 characters of `A-Z a-z 0-9 _ : . -` (the port's key rule). */
export function assertQueueKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`Invalid job queue key "${key.slice(0, 40)}"`);
}

/** Options of {@link createMemoryJobQueue}. */
export interface MemoryJobQueueOptions {
  /** Where due times are read from. Default: the system clock. */
  clock?: Clock;
  /** Waits before each redelivery after a rejection. Default {@link defaultRetryDelaysMs}. */
  retryDelaysMs?: readonly number[];
}

interface Unit {
  key: string;
  payload: QueuePayload;
  dueAt: number;
  attempt: number;
}

type Handler = (payload: QueuePayload) => Promise<void>;

/** Creates the in-process JobQueue. */
export function createMemoryJobQueue(options: MemoryJobQueueOptions = {}): JobQueue {
  const clock = options.clock ?? systemClock;
  const delays = options.retryDelaysMs ?? defaultRetryDelaysMs;
  /** Every key waiting, delayed or in flight (the dedupe set). */
  const known = new Set<string>();
  /** Waiting units, ordered by (dueAt, seq). */
  const waiting: Unit[] = [];
  const idle: (() => void)[] = [];
  let handler: Handler | undefined;
  let concurrency = 1;
  let running = 0;
  let closed = false;
  let closing: Promise<void> | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerAt = Number.POSITIVE_INFINITY;

  /** Puts `unit` after every unit due no later than it (FIFO among equal due times). */
  function insert(unit: Unit): void {
    let i = waiting.length;
    while (i > 0 && waiting[i - 1]!.dueAt > unit.dueAt) i--;
    waiting.splice(i, 0, unit);
  }

  function arm(at: number): void {
    if (timer !== undefined && timerAt <= at) return;
    if (timer !== undefined) clearTimeout(timer);
    timerAt = at;
    timer = setTimeout(
      () => {
        timer = undefined;
        timerAt = Number.POSITIVE_INFINITY;
        pump();
      },
      Math.max(0, at - clock.now()),
    );
    (timer as { unref?: () => void }).unref?.();
  }

  function pump(): void {
    if (!handler || closed) return;
    const now = clock.now();
    while (running < concurrency && waiting.length > 0 && waiting[0]!.dueAt <= now) {
      run(waiting.shift()!, handler);
    }
    const next = waiting[0];
    if (next && running < concurrency) arm(next.dueAt);
  }

  function run(unit: Unit, handle: Handler): void {
    running++;
    void Promise.resolve()
      .then(() => handle(unit.payload))
      .then(
        () => known.delete(unit.key),
        () => {
          unit.attempt++;
          unit.dueAt = clock.now() + retryDelayMs(delays, unit.attempt);
          insert(unit);
        },
      )
      .finally(() => {
        running--;
        if (running === 0) for (const resolve of idle.splice(0)) resolve();
        pump();
      });
  }

  return {
    async enqueue(key, payload, enqueueOptions = {}) {
      assertQueueKey(key);
      if (closed) throw new Error('The job queue is closed');
      if (known.has(key)) return;
      known.add(key);
      const delay = Math.max(0, enqueueOptions.delayMs ?? 0);
      insert({ key, payload: { ...payload }, dueAt: clock.now() + delay, attempt: 0 });
      pump();
    },

    work(handle, workOptions) {
      if (handler) throw new Error('work() was already called on this job queue');
      handler = handle;
      concurrency = Math.max(1, Math.floor(workOptions.concurrency));
      pump();
    },

    close() {
      closing ??= (async () => {
        closed = true;
        if (timer !== undefined) clearTimeout(timer);
        timer = undefined;
        if (running > 0) await new Promise<void>((resolve) => idle.push(resolve));
      })();
      return closing;
    },
  };
}
