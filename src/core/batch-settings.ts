/**
 * Batch limits and runner settings, and what a batch task costs: the price of each task type and
 * the Ledger reservation id under which a task's price is held while it runs (see batch.ts).
 * @module
 */
import type { Pricing } from './pricing.ts';

/** A batch task type. */
export type BatchTaskType = 'transcript' | 'basic_info' | 'video_info';

/** The mode of a `video_info` task (the alternative's `fast` default, or `full`). */
export type VideoInfoMode = 'fast' | 'full';

/** What a task's price depends on. */
interface PricedTask {
  type: BatchTaskType;
  mode?: VideoInfoMode;
}

/** Batch limits and runner settings (configuration with defaults). */
export interface BatchSettings {
  /** Tasks per asynchronous `POST /v1/batch`. */
  maxTasks: number;
  /** Tasks per synchronous `POST /v1/batch?wait=true`. */
  maxSyncTasks: number;
  /** Default `concurrency`, and its bounds. */
  concurrency: number;
  minConcurrency: number;
  maxConcurrency: number;
  /** Items per compatibility `POST /v1/transcripts/batch`. */
  compatMaxItems: number;
  /** Starts per task before an interrupted task is failed instead of re-queued. */
  maxAttempts: number;
}

/** The default batch settings (the contract's bounds; attempts are ours). */
export const BATCH_DEFAULTS: Readonly<BatchSettings> = Object.freeze({
  maxTasks: 100,
  maxSyncTasks: 10,
  concurrency: 10,
  minConcurrency: 1,
  maxConcurrency: 20,
  compatMaxItems: 50,
  maxAttempts: 3,
});

/** The price of one task: transcript → `batch_transcript`, basic_info → `batch_basic_info`, video_info by mode. */
export function taskPrice(task: PricedTask, pricing: Pricing): number {
  switch (task.type) {
    case 'transcript':
      return pricing.batch_transcript;
    case 'basic_info':
      return pricing.batch_basic_info;
    case 'video_info':
      return task.mode === 'full' ? pricing.batch_video_info_full : pricing.batch_video_info_fast;
    default:
      throw new Error(`Unknown batch task type ${JSON.stringify((task as { type: unknown }).type)}.`);
  }
}

/** The Ledger reservation id of one attempt of one task. */
export function taskReservationId(jobId: string, index: number, attempt: number): string {
  return `batch:${jobId}:${index}:${attempt}`;
}
