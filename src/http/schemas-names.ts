/**
 * The named response schemas of the OpenAPI document (`components.schemas`: the names a typed
 * client sees) and the descriptions of the document's tags.
 * @module
 */
import {
  accountSchema,
  accountViewSchema,
  createdKeySchema,
  grantSchema,
  resourceMetadataSchema,
  signupSchema,
  upstreamHealthSchema,
  verifySchema,
} from './schemas-account.ts';
import { batchJobSchema, batchSyncSchema, taskDataSchema } from './schemas-batch.ts';
import { taskError, thumbnail } from './schemas-common.ts';
import {
  channelLatestSchema,
  channelPlaylistPageSchema,
  channelProfileSchema,
  channelVideoPageSchema,
  playlistCardSchema,
  playlistPageSchema,
  playlistVideoSchema,
  playlistVideosSchema,
  searchResultSchema,
  searchSchema,
  suggestionsSchema,
  videoCardSchema,
} from './schemas-lists.ts';
import {
  availableLanguageSchema,
  json3EventSchema,
  renderedTranscriptSchema,
  segmentSchema,
  transcriptLanguagesSchema,
  transcriptSchema,
  wordSchema,
} from './schemas-transcripts.ts';
import { basicInfoSchema, commentsPageSchema, fastVideoSchema, fullVideoSchema } from './schemas-videos.ts';
import type { AnySchema } from './validate.ts';

/** Name → schema: wherever one of these appears in an answer, the document refers to it by name. */
export const NAMED_SCHEMAS: Readonly<Record<string, AnySchema>> = {
  Thumbnail: thumbnail,
  Word: wordSchema,
  Segment: segmentSchema,
  Json3Event: json3EventSchema,
  Transcript: transcriptSchema,
  RenderedTranscript: renderedTranscriptSchema,
  AvailableLanguage: availableLanguageSchema,
  TranscriptLanguages: transcriptLanguagesSchema,
  BasicInfo: basicInfoSchema,
  FastVideo: fastVideoSchema,
  FullVideo: fullVideoSchema,
  CommentsPage: commentsPageSchema,
  ChannelProfile: channelProfileSchema,
  VideoCard: videoCardSchema,
  ChannelLatest: channelLatestSchema,
  ChannelVideoPage: channelVideoPageSchema,
  PlaylistCard: playlistCardSchema,
  ChannelPlaylistPage: channelPlaylistPageSchema,
  PlaylistVideo: playlistVideoSchema,
  PlaylistPage: playlistPageSchema,
  PlaylistVideos: playlistVideosSchema,
  SearchResult: searchResultSchema,
  Search: searchSchema,
  Suggestions: suggestionsSchema,
  TaskError: taskError,
  TaskData: taskDataSchema,
  BatchJob: batchJobSchema,
  BatchSyncResult: batchSyncSchema,
  Account: accountSchema,
  CreatedKey: createdKeySchema,
  AccountView: accountViewSchema,
  Grant: grantSchema,
  UpstreamHealth: upstreamHealthSchema,
  ResourceMetadata: resourceMetadataSchema,
  Signup: signupSchema,
  Verify: verifySchema,
};

/** What each tag of the document groups. */
export const TAGS: Readonly<Record<string, string>> = {
  System: 'Health, this document and the documentation page (no key)',
  Transcripts: 'Captions in every format, the track inventory, and the synchronous transcript batch',
  Videos: 'Video records (basic-info is free) and comments',
  Playlists: 'Playlist pages',
  Channels: 'Channel profiles and their tabs',
  Search: 'Search and suggestions',
  Batch: 'Asynchronous batch jobs',
  Account: "The calling key's account",
  Admin: 'The operator API: keys, credits, upstream health (admin token or admin scope)',
  MCP: 'Discovery for MCP clients (the MCP endpoint itself is /mcp, JSON-RPC over HTTP)',
  'Agent sign-up': 'An API key without a browser: email, code, key',
};
