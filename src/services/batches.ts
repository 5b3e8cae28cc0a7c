/**
 * Synchronous batches: several transcript / basic-info / video-info tasks in one call, each
 * charged on its own as it succeeds (a task failure never fails the batch, and is free).
 * Serves the older description's `POST /v1/transcripts/batch`; the asynchronous `POST /v1/batch`
 * will reuse the same task runner.
 * @module
 */
import { type BatchTaskInput, createJob, finishTask, startTask, taskErrorFrom } from '../core/batch.ts';
import { type BatchSyncResult, syncResultView } from '../core/batch-view.ts';
import { parseVideoId } from '../core/ids.ts';
import type { Operation, Pricing } from '../core/pricing.ts';
import {
  isJsonFormat,
  renderTranscript,
  type TranscriptFormat,
  transcriptObject,
} from '../core/render/index.ts';
import type { TrackPolicy } from '../core/tracks.ts';
import type { Clock } from '../ports/clock.ts';
import type { Principal } from './accounts.ts';
import type { Billing } from './billing.ts';
import type { CacheStatus } from './cache.ts';
import { asApiError, deadlineSignal } from './context.ts';
import type { Transcripts } from './transcripts.ts';
import type { Videos } from './videos.ts';

/** A task with the transcript options the batch item may carry. */
export interface RunnableTask extends BatchTaskInput {
  languages?: string[];
  trackPolicy?: TrackPolicy;
  wordLevel?: boolean;
}

/** Dependencies of {@link Batches}. */
export interface BatchesDeps {
  billing: Billing;
  transcripts: Transcripts;
  videos: Videos;
  clock: Clock;
  pricing: Pricing;
  /** Deadline of each task's upstream work. */
  deadlineMs: number;
}

function operationOf(task: RunnableTask): Operation {
  if (task.type === 'transcript') return 'batch_transcript';
  if (task.type === 'basic_info') return 'batch_basic_info';
  return task.mode === 'full' ? 'batch_video_info_full' : 'batch_video_info_fast';
}

/** The batch runner. */
export class Batches {
  constructor(private readonly deps: BatchesDeps) {}

  /** One task's result data, with its cache status. */
  private async work(
    input: RunnableTask,
    signal: AbortSignal,
  ): Promise<{ data: unknown; cache: CacheStatus }> {
    // Each task's id is checked on its own: a bad one fails that task (free), not the batch.
    const task = { ...input, video_id: parseVideoId(input.video_id) };
    if (task.type === 'transcript') {
      const format = (task.format ?? 'segments') as TranscriptFormat;
      const wordLevel = task.wordLevel ?? false;
      const result = await this.deps.transcripts.get(
        {
          videoId: task.video_id,
          languages: task.languages ?? ['*'],
          policy: task.trackPolicy ?? 'manual_first',
          format,
          wordLevel,
        },
        { signal },
      );
      if (isJsonFormat(format))
        return { data: transcriptObject(result.doc, format, { wordLevel }), cache: result.cache };
      const rendered = renderTranscript(result.doc, format, { wordLevel });
      const data = {
        video_id: task.video_id,
        language: result.doc.language,
        track_kind: result.doc.trackKind,
        format,
        content_type: rendered.contentType,
        content: rendered.body,
      };
      return { data, cache: result.cache };
    }
    if (task.type === 'basic_info') {
      const { record, cache } = await this.deps.videos.basicInfo(task.video_id, { signal });
      return { data: record, cache };
    }
    const { record, cache } = await this.deps.videos.info(task.video_id, task.mode ?? 'fast', { signal });
    return { data: record, cache };
  }

  /**
   * Runs `tasks` with at most `concurrency` at once and waits for all of them. Returns the
   * synchronous result shape and the credits charged in total.
   */
  async runSync(
    principal: Principal,
    batchId: string,
    tasks: readonly RunnableTask[],
    concurrency: number,
    signal: AbortSignal | undefined,
  ): Promise<{ result: BatchSyncResult; charged: number }> {
    const { clock } = this.deps;
    let job = createJob(
      { id: batchId, account: principal.accountId, tasks, concurrency, now: clock.now() },
      this.deps.pricing,
    );
    let next = 0;
    const worker = async () => {
      while (next < tasks.length) {
        const index = next++;
        const task = tasks[index]!;
        job = startTask(job, index, clock.now());
        const started = clock.now();
        const taskSignal = deadlineSignal(signal, this.deps.deadlineMs);
        try {
          const { result, charged } = await this.deps.billing.charge(
            principal,
            operationOf(task),
            `${batchId}:t${index}`,
            () => this.work(task, taskSignal),
            (r) => r.cache,
            taskSignal,
          );
          job = finishTask(
            job,
            index,
            { success: true, data: result.data, latencyMs: clock.now() - started, charged },
            clock.now(),
          );
        } catch (error) {
          signal?.throwIfAborted();
          const failure = taskErrorFrom(asApiError(error));
          job = finishTask(
            job,
            index,
            { success: false, error: failure, latencyMs: clock.now() - started },
            clock.now(),
          );
        }
      }
    };
    await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, tasks.length)) }, worker));
    return { result: syncResultView(job), charged: job.tasks.reduce((sum, t) => sum + t.charged, 0) };
  }
}
