/**
 * The batch job state machine: job `queued` → `running` → `completed`; task `queued` → `running`
 * → `succeeded` | `failed` (a failed task never fails the job). Every function returns a new
 * record; an illegal transition throws a plain Error (a programming error, not a client error).
 *
 * Charging protocol (the runner's side; "never charged twice, never lost"):
 * 1. `startTask`, persist; reserve `task.price` as `taskReservationId(job, index, attempt)`
 *    (batch-settings.ts).
 * 2. Success: `finishTask` with `charged`, persist, THEN commit the reservation. Failure: release
 *    it, `finishTask`. A task is committed only after its result is stored, and reaches
 *    `succeeded` once, so at most one reservation per task is ever committed.
 * 3. A task whose worker died is started again (a new attempt, a new reservation); the
 *    asynchronous runner (services/batch-jobs.ts) guards each task's commit with a consume-once
 *    claim, so a re-run cannot charge twice.
 * @module
 */
import { ApiError, type ErrorCode } from '../errors.ts';
import { BATCH_DEFAULTS, type BatchTaskType, taskPrice, type VideoInfoMode } from './batch-settings.ts';
import type { Pricing } from './pricing.ts';

export type { BatchTaskType, VideoInfoMode } from './batch-settings.ts';

/** One task of a batch request, validated and normalised by the HTTP layer. */
export interface BatchTaskInput {
  /** The client's id, echoed in the results. */
  id?: string;
  type: BatchTaskType;
  video_id: string;
  /** Transcript format (transcript tasks). */
  format?: string;
  /** `video_info` only; default `fast`. */
  mode?: VideoInfoMode;
}

/** A task's state. */
export type TaskState = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** Why a task failed (an {@link ApiError}'s public part). */
export interface TaskError {
  code: ErrorCode;
  message: string;
  retryable: boolean;
}

/** One task of a job. Times are epoch ms. */
export interface TaskRecord {
  /** Position in the request (0-based). */
  index: number;
  id?: string;
  type: BatchTaskType;
  video_id: string;
  format?: string;
  mode?: VideoInfoMode;
  state: TaskState;
  /** Credits this task costs when it succeeds, fixed when the job is created. */
  price: number;
  /** How many times the task was started (the current attempt's number while running). */
  attempts: number;
  /** How many of those starts a graceful stop handed back (they do not count toward the limit). */
  handedBack?: number;
  started_at?: number;
  finished_at?: number;
  latency_ms?: number;
  /** The result (JSON), when succeeded. */
  data?: unknown;
  error?: TaskError;
  /** Credits charged for this task (0 unless succeeded; ≤ price). */
  charged: number;
}

/** A job's status, derived from its tasks. */
export type JobStatus = 'queued' | 'running' | 'completed';

/** One batch job, as stored. Times are epoch ms. */
export interface JobRecord {
  id: string;
  account: string;
  status: JobStatus;
  created_at: number;
  updated_at: number;
  concurrency: number;
  tasks: readonly TaskRecord[];
  /** Sum of the tasks' `charged`. */
  credits_charged: number;
  /** Sum of the tasks' prices: the most the job can cost. */
  estimated_credits: number;
}

/** What {@link createJob} needs; `id` comes from the caller's Random, `now` from its Clock. */
export interface NewJob {
  id: string;
  account: string;
  tasks: readonly BatchTaskInput[];
  concurrency?: number;
  now: number;
}

/** The outcome of one task run. `attempt` (optional) guards against a runner whose task was re-queued. */
export type TaskOutcome =
  | { success: true; data: unknown; latencyMs: number; charged: number; attempt?: number }
  | { success: false; error: TaskError; latencyMs: number; attempt?: number };

/** A new job: every task queued, prices fixed from `pricing`. Zero tasks give a completed job. */
export function createJob(spec: NewJob, pricing: Pricing): JobRecord {
  const concurrency = spec.concurrency ?? BATCH_DEFAULTS.concurrency;
  if (spec.id === '') throw new Error('A batch job needs an id.');
  if (!Number.isSafeInteger(concurrency) || concurrency < 1)
    throw new Error('Batch concurrency must be ≥ 1.');
  const tasks = spec.tasks.map((input, index): TaskRecord => {
    const task: TaskRecord = {
      index,
      type: input.type,
      video_id: input.video_id,
      state: 'queued',
      price: taskPrice(input, pricing),
      attempts: 0,
      charged: 0,
    };
    if (input.id !== undefined) task.id = input.id;
    if (input.format !== undefined) task.format = input.format;
    if (input.type === 'video_info') task.mode = input.mode ?? 'fast';
    return task;
  });
  const job: JobRecord = {
    id: spec.id,
    account: spec.account,
    status: 'queued',
    created_at: spec.now,
    updated_at: spec.now,
    concurrency,
    tasks,
    credits_charged: 0,
    estimated_credits: tasks.reduce((sum, task) => sum + task.price, 0),
  };
  return { ...job, status: jobStatus(job) };
}

/** True when the task is finished (succeeded, failed or cancelled). */
export function isFinished(task: Pick<TaskRecord, 'state'>): boolean {
  return task.state === 'succeeded' || task.state === 'failed' || task.state === 'cancelled';
}

/** The status a job's tasks imply: completed when every task finished, running once any started. */
export function jobStatus(job: Pick<JobRecord, 'tasks'>): JobStatus {
  if (job.tasks.every(isFinished)) return 'completed';
  return job.tasks.some((task) => task.state !== 'queued' || task.attempts > 0) ? 'running' : 'queued';
}

function taskAt(job: JobRecord, index: number): TaskRecord {
  const task = Number.isInteger(index) ? job.tasks[index] : undefined;
  if (task === undefined) throw new Error(`Batch job ${job.id} has no task ${index}.`);
  return task;
}

/** The job with task `index` replaced; status and credits recomputed. */
function withTask(job: JobRecord, task: TaskRecord, now: number): JobRecord {
  const tasks = job.tasks.map((t) => (t.index === task.index ? task : t));
  const credits = tasks.reduce((sum, t) => sum + t.charged, 0);
  return { ...job, tasks, status: jobStatus({ tasks }), credits_charged: credits, updated_at: now };
}

/** Starts a queued task: `running`, attempt + 1. Starting a task in any other state throws. */
export function startTask(job: JobRecord, index: number, now: number): JobRecord {
  const task = taskAt(job, index);
  if (task.state !== 'queued')
    throw new Error(`Cannot start task ${index} of job ${job.id}: it is ${task.state}.`);
  const { finished_at: _f, latency_ms: _l, ...rest } = task;
  return withTask(job, { ...rest, state: 'running', attempts: task.attempts + 1, started_at: now }, now);
}

/**
 * Finishes a running task. Success stores `data` and `charged` (a safe integer from 0, e.g. an
 * uncharged cache hit, to `task.price`); failure stores `error` and charges nothing. Finishing a
 * task that is not running, or whose `attempt` is not the current one, throws.
 */
export function finishTask(job: JobRecord, index: number, outcome: TaskOutcome, now: number): JobRecord {
  const task = taskAt(job, index);
  if (task.state !== 'running')
    throw new Error(`Cannot finish task ${index} of job ${job.id}: it is ${task.state}.`);
  if (outcome.attempt !== undefined && outcome.attempt !== task.attempts) {
    throw new Error(`Task ${index} of job ${job.id} is on attempt ${task.attempts}, not ${outcome.attempt}.`);
  }
  if (!Number.isFinite(outcome.latencyMs) || outcome.latencyMs < 0) {
    throw new Error(`Invalid latency ${outcome.latencyMs} for task ${index} of job ${job.id}.`);
  }
  const { data: _d, error: _e, ...rest } = task;
  const done = { ...rest, finished_at: now, latency_ms: Math.round(outcome.latencyMs) };
  if (!outcome.success)
    return withTask(job, { ...done, state: 'failed', error: outcome.error, charged: 0 }, now);
  if (!Number.isSafeInteger(outcome.charged) || outcome.charged < 0 || outcome.charged > task.price) {
    throw new Error(
      `Task ${index} of job ${job.id} cannot be charged ${outcome.charged} (price ${task.price}).`,
    );
  }
  return withTask(job, { ...done, state: 'succeeded', data: outcome.data, charged: outcome.charged }, now);
}

/** A thrown value as a {@link TaskError}: an ApiError's public part, anything else `internal_error`. */
export function taskErrorFrom(error: unknown): TaskError {
  const e = error instanceof ApiError ? error : new ApiError('internal_error', 'Internal server error.');
  return { code: e.code, message: e.message, retryable: e.retryable };
}
