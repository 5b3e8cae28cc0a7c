/**
 * Asynchronous batch jobs (decisions.md "Batch"): `POST /v1/batch` (202 and `Location`, or with
 * `?wait=true` and ≤ 10 tasks the synchronous result), `GET /v1/batch/{id}` (free; `Retry-After:
 * 1` while unfinished) and `DELETE /v1/batch/{id}` (cancel, free).
 * @module
 */
import * as v from 'valibot';
import type { BatchJobRecord } from '../../core/batch-record.ts';
import { BATCH_DEFAULTS } from '../../core/batch-settings.ts';
import type { TranscriptFormat } from '../../core/render/index.ts';
import { ApiError } from '../../errors.ts';
import type { RunnableTask } from '../../services/batches.ts';
import type { RouteDeps } from '../context.ts';
import { mountPrefix } from '../public-url.ts';
import { defineRoute, type Reply, type Route } from '../route.ts';
import { format, languageList, trackPolicy, translateTo } from '../schemas.ts';
import { BATCH_ID_PATTERN, batchAcceptedSchema, batchJobSchema, batchSyncSchema } from '../schemas-batch.ts';
import { oneOf, queryBoolean } from '../validate.ts';

const task = v.object({
  id: v.optional(v.pipe(v.string('expected a string id'), v.maxLength(200))),
  type: oneOf(['transcript', 'basic_info', 'video_info'] as const),
  video_id: v.pipe(v.string('expected a video ID or URL'), v.minLength(1), v.maxLength(2048)),
  format: v.optional(format),
  languages: v.optional(languageList),
  track_policy: v.optional(trackPolicy),
  word_level: v.optional(v.boolean('expected true or false')),
  translate_to: v.optional(translateTo),
  mode: v.optional(oneOf(['fast', 'full'] as const)),
});

const body = v.object({
  tasks: v.pipe(
    v.array(task, 'expected an array of tasks'),
    v.minLength(1, 'expected at least one task'),
    v.maxLength(BATCH_DEFAULTS.maxTasks, `expected at most ${BATCH_DEFAULTS.maxTasks} tasks`),
  ),
  concurrency: v.optional(
    v.pipe(
      v.number('expected an integer from 1 to 20'),
      v.integer('expected an integer from 1 to 20'),
      v.minValue(BATCH_DEFAULTS.minConcurrency, 'expected an integer from 1 to 20'),
      v.maxValue(BATCH_DEFAULTS.maxConcurrency, 'expected an integer from 1 to 20'),
    ),
    BATCH_DEFAULTS.concurrency,
  ),
  webhook: v.optional(
    v.object({ url: v.pipe(v.string('expected a URL'), v.minLength(1), v.maxLength(2048)) }),
  ),
});

const params = v.object({
  id: v.pipe(v.string(), v.metadata({ pattern: BATCH_ID_PATTERN.source }), v.maxLength(80)),
});

/** The runnable tasks of a validated body. */
function tasksOf(input: v.InferOutput<typeof body>): RunnableTask[] {
  return input.tasks.map((t) => {
    const out: RunnableTask = { type: t.type, video_id: t.video_id };
    if (t.id !== undefined) out.id = t.id;
    if (t.type === 'transcript') {
      if (t.format !== undefined) out.format = t.format satisfies TranscriptFormat;
      if (t.languages !== undefined) out.languages = t.languages;
      if (t.track_policy !== undefined) out.trackPolicy = t.track_policy;
      if (t.word_level !== undefined) out.wordLevel = t.word_level;
      if (t.translate_to !== undefined) out.translateTo = t.translate_to;
    }
    if (t.type === 'video_info') out.mode = t.mode ?? 'fast';
    return out;
  });
}

/** The `Idempotency-Key` header: 1 to 200 characters. */
function idempotencyKey(header: string | undefined): string | undefined {
  const key = header?.trim();
  if (key !== undefined && (key === '' || key.length > 200)) {
    throw new ApiError('invalid_parameter', "Invalid header 'Idempotency-Key': 1 to 200 characters.", {
      details: { parameter: 'Idempotency-Key', location: 'header' },
    });
  }
  return key;
}

/** The answer of a job record: `Retry-After: 1` while unfinished. */
function recordReply(record: BatchJobRecord, status = 200): Reply {
  const unfinished = record.completed_at === null;
  return { json: record, status, ...(unfinished ? { headers: { 'Retry-After': '1' } } : {}) };
}

/** The batch routes. */
export function batchRoutes({ services, settings }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'post',
      path: '/v1/batch',
      tags: ['Batch'],
      summary: 'Submit a batch job (≤ 100 tasks); each succeeded task is charged as it finishes',
      description:
        'Tasks: `transcript` (format, languages, track_policy, word_level, translate_to), `basic_info` (free) and ' +
        '`video_info` (`mode` fast or full). Answers 202 with the job record and `Location`; poll it. ' +
        'A job is accepted when the balance covers one task; a task that cannot be paid fails with ' +
        '`insufficient_credits` and the job goes on. `webhook.url` gets the finished record, signed ' +
        '(`Tubescribe-Signature`); its secret is in this answer only. `Idempotency-Key` makes retries ' +
        'safe for 24 h. With `?wait=true` and at most 10 tasks, answers 200 with the synchronous result.',
      auth: 'key',
      scope: 'transcripts:read',
      query: v.object({ wait: v.optional(queryBoolean, 'false') }),
      body,
      operations: ['batch_transcript', 'batch_basic_info', 'batch_video_info_fast', 'batch_video_info_full'],
      operation: () => 'batch_status',
      response: {
        status: 202,
        description: 'The job record without `results` (poll it at `Location`)',
        schema: batchAcceptedSchema,
        alternatives: [
          {
            status: 200,
            description: 'With `wait=true` (at most 10 tasks): the synchronous result',
            schema: batchSyncSchema,
          },
        ],
      },
      errors: [400, 402, 403, 409],
      ownDeadline: true,
      handle: async (input, ctx) => {
        const tasks = tasksOf(input.body);
        if (input.query.wait) {
          if (tasks.length > BATCH_DEFAULTS.maxSyncTasks) {
            throw new ApiError(
              'invalid_parameter',
              `Invalid parameter 'wait': a synchronous batch has at most ${BATCH_DEFAULTS.maxSyncTasks} tasks.`,
              { details: { parameter: 'wait', location: 'query' } },
            );
          }
          const { result, charged } = await services.batches.runSync(
            ctx.principal!,
            ctx.reservationId,
            tasks,
            input.body.concurrency,
            ctx.call.signal,
          );
          return { json: result, charged };
        }
        const submission: Parameters<typeof services.batchJobs.submit>[1] = {
          tasks,
          concurrency: input.body.concurrency,
        };
        if (input.body.webhook) submission.webhookUrl = input.body.webhook.url;
        const key = idempotencyKey(ctx.c.req.header('idempotency-key'));
        if (key !== undefined) submission.idempotencyKey = key;
        const { record } = await services.batchJobs.submit(ctx.principal!, submission);
        // The 202 is the record without `results` (decisions.md): they are polled at Location.
        const { results: _results, ...accepted } = record;
        return {
          json: accepted,
          status: 202,
          headers: {
            ...(record.completed_at === null ? { 'Retry-After': '1' } : {}),
            // Relative unless a public URL is configured; the mount prefix included.
            Location: `${settings.publicUrl ?? mountPrefix(ctx.c)}/v1/batch/${record.id}`,
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/batch/{id}',
      tags: ['Batch'],
      summary: 'A batch job: status, counters and every task’s result (free)',
      auth: 'key',
      params,
      operations: ['batch_status'],
      operation: () => 'batch_status',
      response: { description: 'The job record', schema: batchJobSchema },
      errors: [404],
      handle: async (input, ctx) =>
        recordReply(await services.batchJobs.get(ctx.principal!, input.params.id)),
    }),
    defineRoute({
      method: 'delete',
      path: '/v1/batch/{id}',
      tags: ['Batch'],
      summary: 'Cancel a batch job: tasks not started never run and cost nothing (free)',
      auth: 'key',
      params,
      operations: ['batch_status'],
      operation: () => 'batch_status',
      response: {
        description: 'The job record (status cancelled, or completed when it had finished)',
        schema: batchJobSchema,
      },
      errors: [404],
      handle: async (input, ctx) =>
        recordReply(await services.batchJobs.cancel(ctx.principal!, input.params.id)),
    }),
  ];
}
