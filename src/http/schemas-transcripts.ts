/**
 * Response schemas of the transcript routes: the contract's Transcript object (segments, words,
 * json3 events), a rendered document inside JSON (batch tasks asking for a text format) and the
 * track inventory of `GET /v1/transcripts/{videoId}/languages`.
 * @module
 */
import * as v from 'valibot';
import { languageOut, seconds, videoIdOut } from './schemas-common.ts';
import type { AnySchema } from './validate.ts';

const trackKind = v.pipe(
  v.picklist(['manual', 'asr']),
  v.description('`manual`: creator captions; `asr`: auto-generated'),
);

/** A word with its timing (seconds). */
export const wordSchema: AnySchema = v.strictObject({
  word: v.string(),
  start: seconds,
  end: seconds,
}) as AnySchema;

/** A caption segment (seconds); `words` only with word-level timings on an ASR track. */
export const segmentSchema: AnySchema = v.strictObject({
  text: v.string(),
  start: seconds,
  end: seconds,
  duration: seconds,
  words: v.optional(v.array(wordSchema)),
}) as AnySchema;

/** A number of a json3 event, or null when YouTube sent one that is not finite. */
const json3Number = v.nullable(v.number());

/** One json3 event, normalised (styling noise removed). */
export const json3EventSchema: AnySchema = v.strictObject({
  tStartMs: json3Number,
  dDurationMs: v.optional(json3Number),
  id: v.optional(json3Number),
  wWinId: v.optional(json3Number),
  wpWinPosId: v.optional(json3Number),
  wsWinStyleId: v.optional(json3Number),
  aAppend: v.optional(json3Number),
  segs: v.optional(
    v.array(
      v.strictObject({
        utf8: v.string(),
        tOffsetMs: v.optional(json3Number),
        acAsrConf: v.optional(json3Number),
      }),
    ),
  ),
}) as AnySchema;

/** The contract's Transcript (formats segments, word_timestamps, sentences and json3). */
export const transcriptSchema: AnySchema = v.strictObject({
  video_id: videoIdOut,
  language: v.pipe(languageOut, v.description('The returned track (the target language when translated)')),
  translated_from: v.optional(
    v.pipe(languageOut, v.description("The source track's language; only with `translate_to`")),
  ),
  track_kind: trackKind,
  duration_seconds: v.optional(seconds),
  has_word_level: v.pipe(v.boolean(), v.description('Whether the track carries real per-word timings')),
  segments: v.array(segmentSchema),
  events: v.optional(
    v.pipe(v.array(json3EventSchema), v.description('The json3 events, only in the `json3` format')),
  ),
}) as AnySchema;

/** A transcript rendered as a document (markdown, text, srt, vtt), carried in JSON by batch tasks. */
export const renderedTranscriptSchema: AnySchema = v.strictObject({
  video_id: videoIdOut,
  language: languageOut,
  translated_from: v.optional(languageOut),
  track_kind: trackKind,
  format: v.picklist(['markdown', 'text', 'srt', 'vtt']),
  content_type: v.string(),
  content: v.string(),
}) as AnySchema;

/** One caption track of a video. */
export const availableLanguageSchema: AnySchema = v.strictObject({
  code: languageOut,
  name: v.string(),
  kind: trackKind,
  variant: v.optional(v.string()),
  is_translatable: v.boolean(),
}) as AnySchema;

/** `GET /v1/transcripts/{videoId}/languages`: the track inventory. */
export const transcriptLanguagesSchema: AnySchema = v.strictObject({
  video_id: videoIdOut,
  languages: v.array(availableLanguageSchema),
}) as AnySchema;

/** The raw documents of the text formats: a string in its own content type. */
export const documentSchema: AnySchema = v.pipe(
  v.string(),
  v.description('The transcript document itself (markdown, plain text, SRT or WebVTT)'),
) as AnySchema;
