/**
 * The job record of an asynchronous batch (`GET /v1/batch/{id}`, decisions.md "Batch"), computed
 * from what is stored: the job's header (written once at submission), one document per task
 * that has started, and the facts "cancelled at" and "completed at". A task without a document
 * has not started; once a job is cancelled, such a task is reported `cancelled`.
 * @module
 */
import type { BatchTaskType, TaskError, TaskRecord } from './batch.ts';

/** A job's status. */
export type BatchJobStatus = 'queued' | 'running' | 'completed' | 'cancelled';

/** A task's status in the record. */
export type BatchTaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';

/** The error of a task a cancel stopped before it started. */
export const CANCELLED_ERROR: TaskError = {
  code: 'cancelled',
  message: 'The job was cancelled before this task started.',
  retryable: false,
};

/** One task's line in the record. */
export interface BatchTaskResult {
  /** The client's id, or the task's 0-based position as a string. */
  id: string;
  video_id: string;
  type: BatchTaskType;
  status: BatchTaskStatus;
  success: boolean;
  /** Null until the task finished. */
  latency_ms: number | null;
  data?: unknown;
  error?: TaskError;
}

/** The job record. Times are ISO 8601 UTC, null until they happen. */
export interface BatchJobRecord {
  id: string;
  status: BatchJobStatus;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
  concurrency: number;
  total_tasks: number;
  completed_tasks: number;
  successful_tasks: number;
  failed_tasks: number;
  total_latency_ms: number;
  estimated_credits: number;
  charged_credits: number;
  /** The webhook; its `secret` only in the answer that created the job. */
  webhook?: { url: string; secret?: string };
  results: BatchTaskResult[];
}

/** What the record is computed from. Times are epoch ms. */
export interface BatchFacts {
  id: string;
  created_at: number;
  concurrency: number;
  estimated_credits: number;
  webhookUrl?: string;
  /** Every task as submitted (state `queued`) overlaid with its stored document, in request order. */
  tasks: readonly TaskRecord[];
  cancelled_at?: number;
  completed_at?: number;
  /** How long a finished job is kept. */
  retentionMs: number;
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** A task's status, given whether the job was cancelled. */
function statusOf(task: TaskRecord, cancelled: boolean): BatchTaskStatus {
  return task.state === 'queued' && cancelled ? 'cancelled' : task.state;
}

/** One task's line. */
function resultOf(task: TaskRecord, cancelled: boolean): BatchTaskResult {
  const status = statusOf(task, cancelled);
  const result: BatchTaskResult = {
    id: task.id ?? String(task.index),
    video_id: task.video_id,
    type: task.type,
    status,
    success: status === 'succeeded',
    latency_ms: status === 'queued' || status === 'running' ? null : (task.latency_ms ?? 0),
  };
  if (status === 'succeeded') result.data = task.data ?? null;
  else if (status === 'failed' || status === 'cancelled') result.error = task.error ?? CANCELLED_ERROR;
  return result;
}

/** The job record of `facts`. */
export function batchJobRecord(facts: BatchFacts): BatchJobRecord {
  const cancelled = facts.cancelled_at !== undefined;
  const results = facts.tasks.map((task) => resultOf(task, cancelled));
  const finished = results.filter((r) => r.status !== 'queued' && r.status !== 'running');
  const successful = finished.filter((r) => r.success).length;
  const starts = facts.tasks.flatMap((t) => (t.started_at === undefined ? [] : [t.started_at]));
  const status: BatchJobStatus = cancelled
    ? 'cancelled'
    : facts.completed_at !== undefined
      ? 'completed'
      : starts.length > 0
        ? 'running'
        : 'queued';
  const record: BatchJobRecord = {
    id: facts.id,
    status,
    created_at: new Date(facts.created_at).toISOString(),
    started_at: iso(starts.length > 0 ? Math.min(...starts) : undefined),
    completed_at: iso(facts.completed_at),
    expires_at: iso(facts.completed_at === undefined ? undefined : facts.completed_at + facts.retentionMs),
    concurrency: facts.concurrency,
    total_tasks: facts.tasks.length,
    completed_tasks: finished.length,
    successful_tasks: successful,
    failed_tasks: finished.length - successful,
    total_latency_ms: finished.reduce((sum, r) => sum + (r.latency_ms ?? 0), 0),
    estimated_credits: facts.estimated_credits,
    charged_credits: facts.tasks.reduce((sum, t) => sum + t.charged, 0),
    results,
  };
  if (facts.webhookUrl !== undefined) record.webhook = { url: facts.webhookUrl };
  return record;
}
