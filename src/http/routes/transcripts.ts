/**
 * Transcript routes: POST and GET /v1/transcripts (every format), and the older description's
 * GET /v1/transcripts/{videoId} and /languages (compatibility routes over the same service).
 * @module
 */
import * as v from 'valibot';
import { BATCH_DEFAULTS } from '../../core/batch-settings.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../../core/render/index.ts';
import type { TrackPolicy } from '../../core/tracks.ts';
import type { RunnableTask } from '../../services/batches.ts';
import type { Services } from '../../services/index.ts';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Reply, type Route, type RouteContext } from '../route.ts';
import { format, languageCsv, languageList, trackPolicy, translateTo, videoId } from '../schemas.ts';
import { batchSyncSchema } from '../schemas-batch.ts';
import { transcriptLanguagesSchema, transcriptSchema } from '../schemas-transcripts.ts';
import { oneOf, queryBoolean } from '../validate.ts';

const body = v.object({
  video_id: videoId,
  format: v.optional(format, 'segments'),
  word_level: v.optional(v.boolean('expected true or false'), false),
  languages: v.optional(languageList, ['*']),
  track_policy: v.optional(trackPolicy, 'manual_first'),
  translate_to: v.optional(translateTo),
});

const query = v.object({
  video_id: videoId,
  format: v.optional(format, 'segments'),
  word_level: v.optional(queryBoolean, 'false'),
  languages: v.optional(languageCsv, '*'),
  track_policy: v.optional(trackPolicy, 'manual_first'),
  translate_to: v.optional(translateTo),
});

const legacyQuery = v.object({
  lang: v.optional(languageCsv, '*'),
  format: v.optional(oneOf(['json', 'text', 'srt', 'vtt'] as const), 'json'),
  translate_to: v.optional(translateTo),
});

const legacyFormat = oneOf([...TRANSCRIPT_FORMATS, 'json'] as const);

const batchItem = v.object({
  id: v.optional(v.pipe(v.string('expected a string id'), v.maxLength(200))),
  video_id: v.pipe(v.string('expected a video ID or URL'), v.maxLength(2048)),
  lang: v.optional(languageCsv),
  languages: v.optional(languageList),
  format: v.optional(legacyFormat),
  track_policy: v.optional(trackPolicy),
  word_level: v.optional(v.boolean('expected true or false')),
  translate_to: v.optional(translateTo),
});

const batchBody = v.pipe(
  v.object({
    items: v.optional(v.array(batchItem, 'expected an array of items')),
    video_ids: v.optional(v.array(v.pipe(v.string(), v.maxLength(2048)), 'expected an array of video IDs')),
    format: v.optional(legacyFormat),
    languages: v.optional(languageList),
    concurrency: v.optional(
      v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(BATCH_DEFAULTS.maxConcurrency)),
    ),
  }),
  v.check(
    (b) => (b.items?.length ?? 0) + (b.video_ids?.length ?? 0) > 0,
    'send items (or video_ids) with at least one video',
  ),
  v.check(
    (b) => (b.items?.length ?? 0) + (b.video_ids?.length ?? 0) <= BATCH_DEFAULTS.compatMaxItems,
    `at most ${BATCH_DEFAULTS.compatMaxItems} items per batch`,
  ),
);

const errors = [400, 403, 404, 502, 503, 504];
const TRANSCRIPT_TYPES = ['application/json', 'text/markdown', 'text/plain', 'text/vtt'];

interface TranscriptInput {
  video_id: string;
  format: TranscriptFormat;
  word_level: boolean;
  languages: string[];
  track_policy: TrackPolicy;
  translate_to?: string | undefined;
}

/** Runs the transcript service and renders the requested format with the transcript headers. */
async function transcriptReply(
  services: Services,
  input: TranscriptInput,
  ctx: RouteContext,
): Promise<Reply> {
  const result = await services.transcripts.get(
    {
      videoId: input.video_id,
      languages: input.languages,
      policy: input.track_policy,
      format: input.format,
      wordLevel: input.word_level,
      ...(input.translate_to === undefined ? {} : { translateTo: input.translate_to }),
    },
    ctx.call,
  );
  const rendered = services.transcripts.render(result, input.format, { wordLevel: input.word_level });
  const headers: Record<string, string> = {
    'X-Track-Type': result.doc.trackKind === 'asr' ? 'ASR' : 'MANUAL',
    'X-Language-Code': result.doc.language,
    // Most answers are cache hits made within the clock's millisecond: skip formatting a zero.
    'X-Duration-Seconds': result.seconds === 0 ? '0.000' : result.seconds.toFixed(3),
  };
  const from = result.doc.translatedFrom;
  // JSON formats name the source in the body (`translated_from`); text formats in a header.
  if (from !== undefined && !rendered.contentType.startsWith('application/json')) {
    headers['X-Translated-From'] = from;
  }
  // The renderers make a fresh ArrayBuffer-backed array (never a shared one), or a Blob of it.
  const body = rendered.body as Uint8Array<ArrayBuffer> | Blob;
  return { text: body, contentType: rendered.contentType, cache: result.cache, headers };
}

/** The transcript routes. */
export function transcriptRoutes({ services }: RouteDeps): Route[] {
  const description =
    'Returns the captions of a video. Languages are tried in order before the track kind; `*` ' +
    "(alias `auto`) is the video's spoken language. JSON formats answer the Transcript object; " +
    "markdown, text, srt and vtt answer the document itself. `translate_to` asks for YouTube's " +
    'machine translation of the chosen track: `language` is the target, and `translated_from` ' +
    "(JSON) or the `X-Translated-From` header (text formats) names the source track's language; " +
    '404 `translation_unavailable` when the track cannot be translated to it.';
  return [
    defineRoute({
      method: 'post',
      path: '/v1/transcripts',
      tags: ['Transcripts'],
      summary: 'Get a transcript',
      description,
      auth: 'key',
      scope: 'transcripts:read',
      body,
      operations: ['transcript'],
      operation: () => 'transcript',
      response: { description: 'The transcript', contentTypes: TRANSCRIPT_TYPES, schema: transcriptSchema },
      errors,
      fromMemory: true,
      handle: (input, ctx) => transcriptReply(services, input.body, ctx),
    }),
    defineRoute({
      method: 'get',
      path: '/v1/transcripts',
      tags: ['Transcripts'],
      summary: 'Get a transcript (query parameters)',
      description,
      auth: 'key',
      scope: 'transcripts:read',
      query,
      operations: ['transcript'],
      operation: () => 'transcript',
      response: { description: 'The transcript', contentTypes: TRANSCRIPT_TYPES, schema: transcriptSchema },
      errors,
      fromMemory: true,
      handle: (input, ctx) => transcriptReply(services, input.query, ctx),
    }),
    defineRoute({
      method: 'post',
      path: '/v1/transcripts/batch',
      tags: ['Transcripts'],
      summary: 'Several transcripts in one call (older description: synchronous, up to 50 items)',
      description:
        'Body `{ items: [{ video_id, id?, lang? | languages?, format?, track_policy?, word_level? }] }` ' +
        '(or `video_ids: [...]`). Each item is charged 1 credit when it succeeds; a failed item is free ' +
        'and never fails the batch. `format` json = segments; text formats come back as `content`.',
      auth: 'key',
      scope: 'transcripts:read',
      body: batchBody,
      operations: ['batch_transcript'],
      operation: () => 'account',
      response: {
        description:
          '{total_tasks, successful_tasks, failed_tasks, total_latency_ms, results:[{id, video_id, type, success, latency_ms, data, error?}]}',
        schema: batchSyncSchema,
      },
      errors: [400],
      ownDeadline: true,
      handle: async (input, ctx) => {
        const b = input.body;
        const common = {
          format: (b.format === 'json' ? 'segments' : b.format) as TranscriptFormat | undefined,
          languages: b.languages,
        };
        const tasks: RunnableTask[] = [
          ...(b.items ?? []).map((item) => {
            const task: RunnableTask = { type: 'transcript', video_id: item.video_id };
            if (item.id !== undefined) task.id = item.id;
            const format = item.format === 'json' ? 'segments' : (item.format ?? common.format);
            if (format) task.format = format;
            const languages = item.languages ?? item.lang ?? common.languages;
            if (languages) task.languages = languages;
            if (item.track_policy) task.trackPolicy = item.track_policy;
            if (item.word_level !== undefined) task.wordLevel = item.word_level;
            if (item.translate_to !== undefined) task.translateTo = item.translate_to;
            return task;
          }),
          ...(b.video_ids ?? []).map((id) => {
            const task: RunnableTask = { type: 'transcript', video_id: id };
            if (common.format) task.format = common.format;
            if (common.languages) task.languages = common.languages;
            return task;
          }),
        ];
        const { result, charged } = await services.batches.runSync(
          ctx.principal!,
          ctx.reservationId,
          tasks,
          b.concurrency ?? BATCH_DEFAULTS.concurrency,
          ctx.call.signal,
        );
        return { json: result, charged };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/transcripts/{videoId}/languages',
      tags: ['Transcripts'],
      summary: 'List the caption tracks of a video (compatibility route, free)',
      auth: 'key',
      scope: 'transcripts:read',
      params: v.object({ videoId }),
      operations: ['transcript_languages'],
      operation: () => 'transcript_languages',
      response: { description: 'The track inventory', schema: transcriptLanguagesSchema },
      errors,
      handle: async (input, ctx) => {
        const languages = await services.transcripts.languages(input.params.videoId, ctx.call);
        return { json: languages };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/transcripts/{videoId}',
      tags: ['Transcripts'],
      summary: 'Get a transcript (older description: lang, format json|text|srt|vtt)',
      auth: 'key',
      scope: 'transcripts:read',
      params: v.object({ videoId }),
      query: legacyQuery,
      operations: ['transcript'],
      operation: () => 'transcript',
      response: {
        description: 'The transcript',
        contentTypes: ['application/json', 'text/plain', 'text/vtt'],
        schema: transcriptSchema,
      },
      errors,
      handle: (input, ctx) =>
        transcriptReply(
          services,
          {
            video_id: input.params.videoId,
            format: input.query.format === 'json' ? 'segments' : input.query.format,
            word_level: false,
            languages: input.query.lang,
            track_policy: 'manual_first',
            ...(input.query.translate_to === undefined ? {} : { translate_to: input.query.translate_to }),
          },
          ctx,
        ),
    }),
  ];
}
