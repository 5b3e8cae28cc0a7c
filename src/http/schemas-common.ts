/**
 * Building blocks of the response schemas (the 200 bodies the OpenAPI document declares and the
 * tests validate real answers against): id patterns, counts, thumbnails and cursors.
 * @module
 */
import * as v from 'valibot';
import type { AnySchema } from './validate.ts';

/** The pattern of a video ID. */
export const VIDEO_ID_PATTERN: RegExp = /^[A-Za-z0-9_-]{11}$/;
/** The pattern of a channel ID (`UC` + 22). */
export const CHANNEL_ID_PATTERN: RegExp = /^UC[A-Za-z0-9_-]{22}$/;
/** The pattern of a playlist ID (`PL…`, `UU…`, `OLAK5uy_…`, …). */
export const PLAYLIST_ID_PATTERN: RegExp = /^[A-Za-z0-9_-]{2,80}$/;
/** The pattern of a language code as YouTube names tracks (`en`, `en-GB`, `zh-Hans`). */
export const LANGUAGE_PATTERN: RegExp = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/;
/** The pattern of our opaque cursors (base64url). */
export const CURSOR_PATTERN: RegExp = /^[A-Za-z0-9_-]{1,8192}$/;

/** A string matching `pattern`, described. */
export function pattern(regex: RegExp, description: string): v.GenericSchema<string, string> {
  return v.pipe(v.string(), v.regex(regex), v.description(description)) as v.GenericSchema<string, string>;
}

/** A video ID in an answer. */
export const videoIdOut: v.GenericSchema<string, string> = pattern(
  VIDEO_ID_PATTERN,
  'An 11-character video ID',
);

/** A channel ID in an answer. */
export const channelIdOut: v.GenericSchema<string, string> = pattern(
  CHANNEL_ID_PATTERN,
  'A 24-character channel ID (UC…)',
);

/** A playlist ID in an answer. */
export const playlistIdOut: v.GenericSchema<string, string> = pattern(PLAYLIST_ID_PATTERN, 'A playlist ID');

/** A language code in an answer. */
export const languageOut: v.GenericSchema<string, string> = pattern(LANGUAGE_PATTERN, 'A language code');

/** The next page's cursor, or null on the last page. */
export const nextCursor: AnySchema = v.nullable(
  v.pipe(
    v.string(),
    v.regex(CURSOR_PATTERN),
    v.description('Opaque; pass it as `cursor` for the next page (null on the last page)'),
  ),
) as AnySchema;

/** A whole number ≥ 0. */
export const count: v.GenericSchema<number, number> = v.pipe(
  v.number(),
  v.integer(),
  v.minValue(0),
) as v.GenericSchema<number, number>;

/** A time or duration in seconds (≥ 0, milliseconds precision). */
export const seconds: v.GenericSchema<number, number> = v.pipe(v.number(), v.minValue(0)) as v.GenericSchema<
  number,
  number
>;

/** An absolute URL. */
export const url: v.GenericSchema<string, string> = v.pipe(v.string(), v.url()) as v.GenericSchema<
  string,
  string
>;

/** A thumbnail (contract: `url`, `width`, `height`). */
export const thumbnail: AnySchema = v.strictObject({
  url: v.string(),
  width: count,
  height: count,
}) as AnySchema;

/** A list of thumbnails, smallest first as YouTube lists them. */
export const thumbnails: AnySchema = v.array(thumbnail) as AnySchema;

/** The error of a failed batch task: the envelope's `error` object. */
export const taskError: AnySchema = v.strictObject({
  code: v.string(),
  message: v.string(),
  retryable: v.boolean(),
}) as AnySchema;

/** A nullable version of `schema`. */
export function orNull(schema: AnySchema): AnySchema {
  return v.nullable(schema) as AnySchema;
}
