/**
 * Response schemas of the video routes: basic-info, the fast and the full record
 * (decisions.md, Videos; api-spec.md, Video records).
 * @module
 */
import * as v from 'valibot';
import { channelIdOut, count, nextCursor, seconds, thumbnails, url, videoIdOut } from './schemas-common.ts';
import { availableLanguageSchema } from './schemas-transcripts.ts';
import type { AnySchema } from './validate.ts';

const channelFields = {
  id: channelIdOut,
  title: v.string(),
  url,
};

/** The fields every video record has (basic-info's). */
const basicFields = {
  video_id: videoIdOut,
  title: v.string(),
  author: v.pipe(v.string(), v.description('The channel name')),
  channel_id: channelIdOut,
  channel: v.strictObject(channelFields),
  length_seconds: count,
  duration_seconds: count,
  view_count: count,
  keywords: v.optional(v.pipe(v.array(v.string()), v.description('Omitted when the video has none'))),
  thumbnails,
  available_languages: v.array(availableLanguageSchema),
};

/** `GET /v1/videos/{id}/basic-info`: what the player answer alone tells (free). */
export const basicInfoSchema: AnySchema = v.strictObject(basicFields) as AnySchema;

/** `GET /v1/videos/{id}?mode=fast`: basic-info plus the description. */
export const fastVideoSchema: AnySchema = v.strictObject({
  ...basicFields,
  description: v.string(),
  mode: v.literal('fast'),
}) as AnySchema;

const heatSpan = v.strictObject({
  start_seconds: seconds,
  end_seconds: seconds,
  intensity: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
  label: v.string(),
});

const heatmap = v.strictObject({
  markers: v.array(
    v.strictObject({
      start_seconds: seconds,
      duration_seconds: seconds,
      intensity: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    }),
  ),
  peaks: v.array(heatSpan),
  most_replayed: heatSpan,
});

const chapter = v.strictObject({
  title: v.string(),
  start_time_seconds: seconds,
  time_description: v.pipe(v.string(), v.regex(/^(\d+:)?\d{1,2}:\d{2}$/), v.description('m:ss or h:mm:ss')),
  thumbnails: v.optional(thumbnails),
});

/** `GET /v1/videos/{id}/video-info` and `?mode=full`: the full record. */
export const fullVideoSchema: AnySchema = v.strictObject({
  ...basicFields,
  channel: v.strictObject({
    ...channelFields,
    subscribers: v.optional(
      v.pipe(v.string(), v.description('As YouTube shows it, e.g. "4.2M subscribers"')),
    ),
    avatar_url: v.optional(v.string()),
  }),
  description: v.string(),
  published: v.optional(v.pipe(count, v.description('Unix seconds'))),
  like_count: v.optional(count),
  chapters: v.optional(v.pipe(v.array(chapter), v.description('Omitted when the video has none'))),
  heatmap: v.optional(v.pipe(heatmap, v.description('Omitted when YouTube has none'))),
  mode: v.literal('full'),
}) as AnySchema;

/** `GET /v1/videos/{id}`: the fast or the full record, by `mode`. */
export const videoRecordSchema: AnySchema = v.union([fastVideoSchema, fullVideoSchema]) as AnySchema;

const comment = v.strictObject({
  comment_id: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  text: v.pipe(v.string(), v.description('Plain text: emoji and line breaks kept, links as their text')),
  author: v.string(),
  author_channel_id: v.nullable(channelIdOut),
  author_thumbnail: v.nullable(v.string()),
  is_verified: v.boolean(),
  is_creator: v.boolean(),
  like_count: v.pipe(count, v.description('Approximate: YouTube rounds large counts')),
  like_count_text: v.string(),
  reply_count: count,
  published_text: v.string(),
  is_pinned: v.boolean(),
  is_hearted: v.boolean(),
  is_edited: v.boolean(),
  replies_cursor: v.optional(
    v.pipe(v.string(), v.description("Pass as `cursor` to this route for the comment's replies")),
  ),
  parent_id: v.optional(v.pipe(v.string(), v.description('On a reply: the comment it answers'))),
});

/** `GET /v1/videos/{id}/comments`: a page of comments, or of a comment's replies. */
export const commentsPageSchema: AnySchema = v.strictObject({
  video_id: videoIdOut,
  comments: v.array(comment),
  has_more: v.boolean(),
  next_cursor: nextCursor,
}) as AnySchema;
