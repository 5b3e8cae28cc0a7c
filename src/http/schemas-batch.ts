/**
 * The response schemas of batches (decisions.md "Batch"): the asynchronous job record, the
 * synchronous result (`POST /v1/batch?wait=true`, `POST /v1/transcripts/batch`) and the data a
 * succeeded task carries.
 * @module
 */
import * as v from 'valibot';
import { count, taskError } from './schemas-common.ts';
import { renderedTranscriptSchema, transcriptSchema } from './schemas-transcripts.ts';
import { basicInfoSchema, fastVideoSchema, fullVideoSchema } from './schemas-videos.ts';
import type { AnySchema } from './validate.ts';

const isoOrNull = v.nullable(v.pipe(v.string(), v.isoTimestamp()));
const taskType = v.picklist(['transcript', 'basic_info', 'video_info']);
const taskId = v.pipe(
  v.string(),
  v.maxLength(200),
  v.description("The client's id, or the task's 0-based position"),
);

/** What a succeeded task carries: its transcript, rendered document or video record. */
export const taskDataSchema: AnySchema = v.union([
  transcriptSchema,
  renderedTranscriptSchema,
  basicInfoSchema,
  fastVideoSchema,
  fullVideoSchema,
]) as AnySchema;

const taskResult = v.strictObject({
  id: taskId,
  video_id: v.string(),
  type: taskType,
  status: v.picklist(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  success: v.boolean(),
  latency_ms: v.nullable(count),
  data: v.optional(v.pipe(v.nullable(taskDataSchema), v.description('On success'))),
  error: v.optional(v.pipe(taskError, v.description('On failure (a cancelled task: code `cancelled`)'))),
});

/** The pattern of a batch job id. */
export const BATCH_ID_PATTERN: RegExp = /^batch_[A-Za-z0-9]{1,64}$/;

/** The job record without its results: the 202 of `POST /v1/batch` (decisions.md). */
const batchJobFields = {
  id: v.pipe(v.string(), v.regex(BATCH_ID_PATTERN)),
  status: v.picklist(['queued', 'running', 'completed', 'cancelled']),
  created_at: v.pipe(v.string(), v.isoTimestamp()),
  started_at: isoOrNull,
  completed_at: isoOrNull,
  expires_at: isoOrNull,
  concurrency: count,
  total_tasks: count,
  completed_tasks: count,
  successful_tasks: count,
  failed_tasks: count,
  total_latency_ms: count,
  estimated_credits: count,
  charged_credits: count,
  webhook: v.optional(
    v.strictObject({
      url: v.string(),
      secret: v.optional(
        v.pipe(
          v.string(),
          v.regex(/^whsec_/),
          v.description('Shown once, in the answer that created the job'),
        ),
      ),
    }),
  ),
};

/** The 202 answer of `POST /v1/batch`: the job record without `results` (poll `Location` for them). */
export const batchAcceptedSchema: AnySchema = v.strictObject(batchJobFields) as AnySchema;

/** The job record (`GET /v1/batch/{id}`, `DELETE`, the webhook body). */
export const batchJobSchema: AnySchema = v.strictObject({
  ...batchJobFields,
  results: v.array(taskResult),
}) as AnySchema;

/** The synchronous result: every task in request order, `data` null and `error` set on a failure. */
export const batchSyncSchema: AnySchema = v.strictObject({
  total_tasks: count,
  successful_tasks: count,
  failed_tasks: count,
  total_latency_ms: v.pipe(count, v.description("Sum of the tasks' latencies (they run concurrently)")),
  results: v.array(
    v.strictObject({
      id: taskId,
      video_id: v.string(),
      type: taskType,
      success: v.boolean(),
      latency_ms: count,
      data: v.nullable(taskDataSchema),
      error: v.optional(taskError),
    }),
  ),
}) as AnySchema;
