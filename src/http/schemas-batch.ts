/**
 * The response schema of a batch job record (decisions.md "Batch"), for the OpenAPI document.
 * @module
 */
import * as v from 'valibot';
import type { AnySchema } from './validate.ts';

const isoOrNull = v.nullable(v.pipe(v.string(), v.isoTimestamp()));
const count = v.pipe(v.number(), v.integer(), v.minValue(0));

const taskError = v.object({
  code: v.string(),
  message: v.string(),
  retryable: v.boolean(),
});

const taskResult = v.object({
  id: v.pipe(v.string(), v.description("The client's id, or the task's 0-based position")),
  video_id: v.string(),
  type: v.picklist(['transcript', 'basic_info', 'video_info']),
  status: v.picklist(['queued', 'running', 'succeeded', 'failed', 'cancelled']),
  success: v.boolean(),
  latency_ms: v.nullable(count),
  data: v.optional(v.unknown()),
  error: v.optional(taskError),
});

/** The job record (`GET /v1/batch/{id}`, and the 202 of `POST /v1/batch`). */
export const batchJobSchema: AnySchema = v.object({
  id: v.pipe(v.string(), v.regex(/^batch_[A-Za-z0-9]+$/)),
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
    v.object({
      url: v.string(),
      secret: v.optional(v.pipe(v.string(), v.description('Shown once, in the answer that created the job'))),
    }),
  ),
  results: v.array(taskResult),
}) as AnySchema;
