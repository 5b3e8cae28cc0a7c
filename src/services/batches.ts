/**
 * Batch tasks: what one transcript / basic-info / video-info task does ({@link Batches.perform},
 * shared with the asynchronous jobs of batch-jobs.ts), and synchronous batches (the older
 * description's `POST /v1/transcripts/batch` and `POST /v1/batch?wait=true`). A synchronous
 * batch is charged like one request: each succeeded task's reservation is held until the whole
 * answer is ready and committed only then; a client that leaves before pays nothing.
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
import type { Billing, ChargeRecord } from './billing.ts';
import type { CacheStatus } from './cache.ts';
import { asApiError, deadlineSignal } from './context.ts';
import type { Transcripts } from './transcripts.ts';
import type { Videos } from './videos.ts';

/** A task with the transcript options the batch item may carry. */
export interface RunnableTask extends BatchTaskInput {
  languages?: string[];
  trackPolicy?: TrackPolicy;
  wordLevel?: boolean;
  /** YouTube's machine translation of the chosen track into this language (`translate_to`). */
  translateTo?: string;
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

/** The priced operation of a task. */
export function operationOf(task: Pick<RunnableTask, 'type' | 'mode'>): Operation {
  if (task.type === 'transcript') return 'batch_transcript';
  if (task.type === 'basic_info') return 'batch_basic_info';
  return task.mode === 'full' ? 'batch_video_info_full' : 'batch_video_info_fast';
}

/** The batch runner. */
export class Batches {
  constructor(private readonly deps: BatchesDeps) {}

  /** One task's result data, with its cache status. */
  async perform(input: RunnableTask, signal: AbortSignal): Promise<{ data: unknown; cache: CacheStatus }> {
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
          ...(task.translateTo === undefined ? {} : { translateTo: task.translateTo }),
        },
        { signal },
      );
      if (isJsonFormat(format))
        return { data: transcriptObject(result.doc, format, { wordLevel }), cache: result.cache };
      const rendered = renderTranscript(result.doc, format, { wordLevel });
      const data = {
        video_id: task.video_id,
        language: result.doc.language,
        ...(result.doc.translatedFrom === undefined ? {} : { translated_from: result.doc.translatedFrom }),
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
   * synchronous result shape and the credits charged in total. Every succeeded task's
   * reservation is held until all are done and committed only then; when `signal` aborts (the
   * client left), every one is released instead and nothing is charged.
   */
  async runSync(
    principal: Principal,
    batchId: string,
    tasks: readonly RunnableTask[],
    concurrency: number,
    signal: AbortSignal | undefined,
  ): Promise<{ result: BatchSyncResult; charged: number }> {
    const { clock, billing } = this.deps;
    let job = createJob(
      { id: batchId, account: principal.accountId, tasks, concurrency, now: clock.now() },
      this.deps.pricing,
    );
    const held: { reservation: string; charge: ChargeRecord }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < tasks.length && !signal?.aborted) {
        const index = next++;
        const task = tasks[index]!;
        job = startTask(job, index, clock.now());
        const started = clock.now();
        const taskSignal = deadlineSignal(signal, this.deps.deadlineMs);
        const op = operationOf(task);
        const price = this.deps.pricing[op];
        const reservation = `${batchId}:t${index}`;
        let reserved = false;
        try {
          if (price > 0) {
            await billing.hold(principal.accountId, price, reservation);
            reserved = true;
          }
          const { data, cache } = await this.perform(task, taskSignal);
          const charged = billing.chargeOf(op, cache);
          if (reserved && charged > 0) held.push({ reservation, charge: { op, credits: charged } });
          else if (reserved) await billing.release(reservation);
          const outcome = { success: true as const, data, latencyMs: clock.now() - started, charged };
          job = finishTask(job, index, outcome, clock.now());
        } catch (error) {
          if (reserved) await billing.release(reservation);
          if (signal?.aborted) return;
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
    if (signal?.aborted) {
      await Promise.all(held.map(({ reservation }) => billing.release(reservation)));
      signal.throwIfAborted();
    }
    for (const [i, { reservation, charge }] of held.entries()) {
      try {
        await billing.commit(reservation, charge);
      } catch (error) {
        // Not recorded: answer 503, and hand back what was not committed yet.
        await Promise.all(held.slice(i + 1).map((r) => billing.release(r.reservation)));
        throw error;
      }
    }
    return { result: syncResultView(job), charged: job.tasks.reduce((sum, t) => sum + t.charged, 0) };
  }
}
