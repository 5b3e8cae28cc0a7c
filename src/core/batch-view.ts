/**
 * The synchronous view of a batch (see batch.ts for the state machine): the counters and the
 * result shape of `POST /v1/transcripts/batch` and `POST /v1/batch?wait=true`. (The job record
 * of asynchronous jobs is batch-record.ts.)
 * @module
 */
import {
  type BatchTaskType,
  isFinished,
  type JobRecord,
  jobStatus,
  type TaskError,
  type TaskRecord,
  taskErrorFrom,
} from './batch.ts';

/** A job's counters, as reported by both result shapes. */
export interface BatchTotals {
  total_tasks: number;
  completed_tasks: number;
  successful_tasks: number;
  failed_tasks: number;
  /** Sum of the finished tasks' latencies (not wall-clock time: tasks run concurrently). */
  total_latency_ms: number;
  credits_charged: number;
}

/** The counters of a job. */
export function totals(job: JobRecord): BatchTotals {
  const finished = job.tasks.filter(isFinished);
  const successful = finished.filter((task) => task.state === 'succeeded').length;
  return {
    total_tasks: job.tasks.length,
    completed_tasks: finished.length,
    successful_tasks: successful,
    failed_tasks: finished.length - successful,
    total_latency_ms: finished.reduce((sum, task) => sum + (task.latency_ms ?? 0), 0),
    credits_charged: finished.reduce((sum, task) => sum + task.charged, 0),
  };
}

/** One finished task as the API reports it: `data` on success, `error` on failure. */
export interface BatchResult {
  /** The client's id, or the task's 0-based position as a string when it gave none. */
  id: string;
  video_id: string;
  type: BatchTaskType;
  success: boolean;
  latency_ms: number;
  data?: unknown;
  error?: TaskError;
}

/** One finished task's result; `withNullData` also gives failures `data: null` (the synchronous shape). */
function resultOf(task: TaskRecord, withNullData: boolean): BatchResult {
  const result: BatchResult = {
    id: task.id ?? String(task.index),
    video_id: task.video_id,
    type: task.type,
    success: task.state === 'succeeded',
    latency_ms: task.latency_ms ?? 0,
  };
  if (task.state === 'succeeded' || withNullData)
    result.data = task.state === 'succeeded' ? (task.data ?? null) : null;
  if (task.state === 'failed') result.error = task.error ?? taskErrorFrom(undefined);
  return result;
}

/** The synchronous result shape (`?wait=true`, the alternative's batch). */
export interface BatchSyncResult {
  total_tasks: number;
  successful_tasks: number;
  failed_tasks: number;
  total_latency_ms: number;
  /** Every task, in request order; `data` is null and `error` set on a failure. */
  results: (BatchResult & { data: unknown })[];
}

/** The synchronous result of a completed job; throws for a job that is not completed. */
export function syncResultView(job: JobRecord): BatchSyncResult {
  if (jobStatus(job) !== 'completed') throw new Error(`Batch job ${job.id} is not completed.`);
  const t = totals(job);
  return {
    total_tasks: t.total_tasks,
    successful_tasks: t.successful_tasks,
    failed_tasks: t.failed_tasks,
    total_latency_ms: t.total_latency_ms,
    results: job.tasks.map((task) => resultOf(task, true) as BatchResult & { data: unknown }),
  };
}
