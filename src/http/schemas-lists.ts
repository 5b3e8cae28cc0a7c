/**
 * Response schemas of the listings: the channel profile and its tabs (uploads, streams, shorts,
 * playlists, latest), playlist pages, search results and suggestions.
 * @module
 */
import * as v from 'valibot';
import {
  channelIdOut,
  count,
  nextCursor,
  playlistIdOut,
  thumbnails,
  url,
  videoIdOut,
} from './schemas-common.ts';
import type { AnySchema } from './validate.ts';

const nullableText = v.nullable(v.string());
const nullableCount = v.nullable(count);

/** `GET /v1/channels/{id}`: the channel profile. */
export const channelProfileSchema: AnySchema = v.strictObject({
  channel_id: channelIdOut,
  title: v.string(),
  handle: v.nullable(v.pipe(v.string(), v.regex(/^@/), v.description('With the leading @'))),
  description: v.string(),
  subscriber_count: v.nullable(v.pipe(count, v.description('Approximate: YouTube rounds it'))),
  subscriber_count_text: nullableText,
  video_count: nullableCount,
  verified: v.boolean(),
  custom_url: nullableText,
  country: nullableText,
  url,
  thumbnails,
  banners: thumbnails,
  links: v.array(v.string()),
  available_tabs: v.array(v.string()),
}) as AnySchema;

/** A video in a channel listing. */
export const videoCardSchema: AnySchema = v.strictObject({
  video_id: videoIdOut,
  title: v.string(),
  length_text: nullableText,
  length_seconds: nullableCount,
  view_count: nullableCount,
  view_count_text: nullableText,
  published_text: nullableText,
  published: v.nullable(v.pipe(count, v.description('Unix seconds, when known'))),
  is_live: v.boolean(),
  is_upcoming: v.boolean(),
  url,
  thumbnails,
}) as AnySchema;

/** `GET /v1/channels/{id}/latest`: the newest uploads (up to 15, newest first). */
export const channelLatestSchema: AnySchema = v.strictObject({
  channel_id: channelIdOut,
  videos: v.pipe(v.array(videoCardSchema), v.maxLength(15)),
}) as AnySchema;

const channelPaging = {
  channel_id: channelIdOut,
  channel_title: v.string(),
  has_more: v.boolean(),
  next_cursor: nextCursor,
  continuation: v.pipe(nextCursor, v.description('Alias of next_cursor')),
};

/** `GET /v1/channels/{id}/videos|streams|shorts`: a page of a tab. */
export const channelVideoPageSchema: AnySchema = v.strictObject({
  ...channelPaging,
  videos: v.array(videoCardSchema),
}) as AnySchema;

/** A playlist in a channel listing. */
export const playlistCardSchema: AnySchema = v.strictObject({
  playlist_id: playlistIdOut,
  title: v.string(),
  video_count: nullableCount,
  video_count_text: nullableText,
  url,
  thumbnails,
}) as AnySchema;

/** `GET /v1/channels/{id}/playlists`: a page of the channel's playlists. */
export const channelPlaylistPageSchema: AnySchema = v.strictObject({
  ...channelPaging,
  playlists: v.array(playlistCardSchema),
}) as AnySchema;

/** A video of a playlist. */
export const playlistVideoSchema: AnySchema = v.strictObject({
  video_id: videoIdOut,
  title: v.string(),
  index: count,
  length_seconds: nullableCount,
  length_text: nullableText,
  author: nullableText,
  channel_id: v.nullable(channelIdOut),
  thumbnails,
}) as AnySchema;

const details = (what: string) =>
  v.pipe(v.optional(nullableText), v.description(`${what} (first page only)`));

/** `GET /v1/playlists/{id}`: the first page carries the details, later pages videos only. */
export const playlistPageSchema: AnySchema = v.strictObject({
  playlist_id: playlistIdOut,
  title: v.optional(nullableText),
  description: details('The description'),
  video_count: v.optional(nullableCount),
  view_count_text: details('Views, as YouTube shows them'),
  author: details('The owner channel'),
  thumbnails: v.optional(thumbnails),
  videos: v.array(playlistVideoSchema),
  has_more: v.boolean(),
  next_cursor: nextCursor,
}) as AnySchema;

/** `GET /v1/playlists/{id}/videos`: playlist_id, title, videos and paging. */
export const playlistVideosSchema: AnySchema = v.strictObject({
  playlist_id: playlistIdOut,
  title: nullableText,
  videos: v.array(playlistVideoSchema),
  has_more: v.boolean(),
  next_cursor: nextCursor,
}) as AnySchema;

/** One search result. */
export const searchResultSchema: AnySchema = v.strictObject({
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{11,64}$/), v.description('A video, channel or playlist ID')),
  type: v.picklist(['video', 'channel', 'playlist', 'movie', 'shorts']),
  title: v.string(),
  channel_title: nullableText,
  channel_id: v.nullable(channelIdOut),
  duration_seconds: nullableCount,
  view_count: nullableCount,
  upload_date: v.pipe(nullableText, v.description('Relative, as YouTube shows it ("3 years ago")')),
  thumbnail_url: nullableText,
  url,
}) as AnySchema;

/** `GET /v1/search`: a page of results. */
export const searchSchema: AnySchema = v.strictObject({
  query: v.string(),
  total_results: v.pipe(count, v.description('Items in this response')),
  results: v.array(searchResultSchema),
  has_more: v.boolean(),
  next_cursor: nextCursor,
}) as AnySchema;

/** `GET /v1/search/suggestions`: ranked completions. */
export const suggestionsSchema: AnySchema = v.strictObject({
  query: v.string(),
  suggestions: v.array(v.string()),
}) as AnySchema;
