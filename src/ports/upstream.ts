/**
 * The Upstream port: YouTube data in normalised shapes, with no HTTP types.
 *
 * Contract for every implementation (the YouTube driver, the fixtures driver, test fakes):
 * - Failures MUST be thrown as `ApiError` with one of these codes, never as "empty data":
 *   `video_unavailable`, `private_video`, `age_restricted`, `members_only`, `region_blocked`,
 *   `live_stream_not_ready`, `playlist_not_found`, `channel_not_found`, `comments_disabled`,
 *   `upstream_blocked`
 *   (bot check, upstream 429: with `retryAfter`), `upstream_error` (unparseable answer),
 *   `upstream_timeout`, `invalid_cursor` (a continuation the upstream rejects).
 * - Calls MUST honour `options.signal`: once it aborts, no further upstream request starts and
 *   the call rejects.
 * - Results MUST be plain JSON-serialisable data (they are cached).
 * @module
 */

/** An image at one size. */
export interface Thumbnail {
  url: string;
  width: number;
  height: number;
}

/** Per-call options. */
export interface UpstreamOptions {
  signal?: AbortSignal;
  /** Interface language (YouTube `hl`). */
  hl?: string;
  /** Country (YouTube `gl`). */
  gl?: string;
}

/** Options of {@link Upstream.captions}: the per-call options and an optional translation target. */
export interface CaptionOptions extends UpstreamOptions {
  /**
   * YouTube's own machine translation of the track into this language code (`tlang`). A track
   * that is not translatable is `translation_unavailable`; YouTube refusing the translation call
   * is `upstream_blocked`, never `captions_disabled`.
   */
  translateTo?: string;
}

/** `manual`: the creator's captions; `asr`: auto-generated. */
export type TrackKind = 'manual' | 'asr';

/** One caption track of a video. */
export interface CaptionTrack {
  /** BCP-47-ish code as YouTube gives it: `en`, `en-GB`, `pt-BR`, `zh-Hans`. */
  languageCode: string;
  /** Human name, e.g. `English (auto-generated)`. */
  name: string;
  kind: TrackKind;
  /** YouTube's track name / variant, when the same language has several tracks. */
  variant?: string;
  isTranslatable: boolean;
  /** True for the track YouTube plays by default for this video. */
  isDefault: boolean;
  /** Opaque locator the same driver understands in {@link Upstream.captions} (for YouTube: the timedtext URL). */
  ref: string;
}

/** Live state of a video. */
export type LiveState = 'none' | 'upcoming' | 'live' | 'ended';

/** What the player endpoint tells about a playable video. */
export interface PlayerData {
  videoId: string;
  title: string;
  /** Channel name. */
  author: string;
  channelId: string;
  description: string;
  lengthSeconds: number;
  viewCount: number;
  keywords: string[];
  thumbnails: Thumbnail[];
  live: LiveState;
  /** Empty when the video has no captions (captions disabled). */
  tracks: CaptionTrack[];
  /**
   * The language codes YouTube offers as translation targets for translatable tracks, when the
   * driver knows them (absent: unknown, any well-formed code may be tried).
   */
  translationLanguages?: string[];
}

/** One `segs` entry of a json3 event. */
export interface Json3Seg {
  utf8: string;
  /** Offset in ms from the event's `tStartMs` (ASR words). */
  tOffsetMs?: number;
  /** ASR confidence 0–255. */
  acAsrConf?: number;
}

/** One json3 event (see youtube-protocol.md §2.4). */
export interface Json3Event {
  tStartMs: number;
  dDurationMs?: number;
  id?: number;
  wWinId?: number;
  wpWinPosId?: number;
  wsWinStyleId?: number;
  aAppend?: number;
  segs?: Json3Seg[];
}

/** A json3 timed-text document, styling tables dropped. */
export interface Json3Document {
  events: Json3Event[];
}

/** A timed-text document as fetched: json3 (preferred) or srv1/srv3 XML. */
export type TimedText =
  | { format: 'json3'; document: Json3Document }
  | { format: 'srv1' | 'srv3'; xml: string };

/** A chapter of a video. */
export interface Chapter {
  title: string;
  startSeconds: number;
  thumbnails?: Thumbnail[];
}

/** One heatmap marker ("most replayed" graph), intensity 0–1. */
export interface HeatMarker {
  startSeconds: number;
  durationSeconds: number;
  intensity: number;
}

/** A labelled span YouTube highlights on the heatmap (for example "Most replayed"). */
export interface HeatDecoration {
  startSeconds: number;
  endSeconds: number;
  label: string;
}

/** The data of the watch page that the player endpoint lacks. */
export interface VideoExtras {
  /** Unix seconds. */
  publishedAt?: number;
  likeCount?: number;
  /** Full description when the player's was truncated. */
  description?: string;
  channelSubscribersText?: string;
  channelAvatarUrl?: string;
  chapters: Chapter[];
  heatmap?: { markers: HeatMarker[]; decorations: HeatDecoration[] };
}

/** How a client named a channel: its `UC…` id, an `@handle`, or a legacy `/c/` or `/user/` name. */
export type ChannelLocator =
  | { kind: 'id'; id: string }
  | { kind: 'handle'; handle: string }
  | { kind: 'custom'; name: string }
  | { kind: 'user'; name: string };

/** A channel's profile (its page header and metadata). */
export interface ChannelProfile {
  channelId: string;
  title: string;
  /** With the leading `@`. */
  handle?: string;
  description: string;
  subscriberCountText?: string;
  /** Approximate, parsed from text like "25M subscribers". */
  subscriberCount?: number;
  videoCount?: number;
  verified: boolean;
  customUrl?: string;
  country?: string;
  avatars: Thumbnail[];
  banners: Thumbnail[];
  links: string[];
  /** Tabs the channel shows: `videos`, `shorts`, `streams`, `playlists`, … */
  tabs: string[];
}

/** The tabs of a channel that list items. */
export type ChannelTab = 'videos' | 'shorts' | 'streams' | 'playlists';

/** Sort order of a channel's video tabs. */
export type ChannelSort = 'newest' | 'popular' | 'oldest';

/** A video in a list (channel tab, latest uploads). */
export interface VideoCard {
  videoId: string;
  title: string;
  lengthText?: string;
  lengthSeconds?: number;
  viewCountText?: string;
  viewCount?: number;
  publishedText?: string;
  /** Unix seconds, when known exactly (RSS feed). */
  publishedAt?: number;
  thumbnails: Thumbnail[];
  live?: LiveState;
}

/** A playlist in a list (channel playlists tab). */
export interface PlaylistCard {
  playlistId: string;
  title: string;
  videoCount?: number;
  videoCountText?: string;
  thumbnails: Thumbnail[];
}

/** One page of a channel tab. */
export interface ChannelTabPage<T> {
  channelId: string;
  channelTitle: string;
  items: T[];
  /** Upstream continuation for the next page; absent on the last page. */
  continuation?: string;
}

/** A video of a playlist. */
export interface PlaylistVideo {
  videoId: string;
  title: string;
  /** 1-based position in the playlist. */
  index: number;
  lengthSeconds?: number;
  lengthText?: string;
  author?: string;
  channelId?: string;
  thumbnails: Thumbnail[];
}

/** One page of a playlist; the header fields are present on the first page. */
export interface PlaylistPage {
  playlistId: string;
  title?: string;
  description?: string;
  videoCount?: number;
  viewCountText?: string;
  author?: string;
  thumbnails?: Thumbnail[];
  videos: PlaylistVideo[];
  continuation?: string;
}

/** Search filters as the API names them (aliases already normalised). */
export interface SearchFilters {
  type?: 'video' | 'channel' | 'playlist' | 'movie' | 'shorts';
  uploadDate?: 'hour' | 'today' | 'week' | 'month' | 'year';
  duration?: 'short' | 'medium' | 'long';
  sortBy?: 'relevance' | 'rating' | 'upload_date' | 'view_count';
}

/** One search result. */
export interface SearchItem {
  id: string;
  type: 'video' | 'channel' | 'playlist' | 'movie' | 'shorts';
  title: string;
  channelTitle?: string;
  channelId?: string;
  durationSeconds?: number;
  viewCount?: number;
  /** As YouTube shows it ("3 years ago"), when given. */
  publishedText?: string;
  thumbnailUrl?: string;
}

/** One page of search results. */
export interface SearchPage {
  items: SearchItem[];
  continuation?: string;
  estimatedResults?: number;
}

/** Order of a video's comments: YouTube's "Top" (the default) or "Newest". */
export type CommentSort = 'top' | 'newest';

/** One comment or reply, as the watch page shows it. */
export interface Comment {
  commentId: string;
  /** Plain text: emoji and line breaks kept, links and formatting as their visible text. */
  text: string;
  /** Display name (usually the `@handle`). */
  author: string;
  authorChannelId?: string;
  authorThumbnail?: string;
  /** The author's channel is verified. */
  isVerified: boolean;
  /** The author is the video's creator. */
  isCreator: boolean;
  /** Approximate, parsed from text like "1.2K". */
  likeCount: number;
  /** As YouTube shows it ("1.2K"; empty when none). */
  likeCountText: string;
  replyCount: number;
  /** As YouTube shows it ("3 years ago"), without the "(edited)" mark. */
  publishedText: string;
  isPinned: boolean;
  /** Hearted by the creator. */
  isHearted: boolean;
  isEdited: boolean;
  /** Continuation of the comment's replies (same {@link Upstream.comments} call); absent without replies. */
  repliesContinuation?: string;
  /** On a reply: the comment it answers. */
  parentId?: string;
}

/** One page of a video's comments, or of one comment's replies. */
export interface CommentPage {
  videoId: string;
  comments: Comment[];
  /** Upstream continuation for the next page; absent on the last page. */
  continuation?: string;
}

/** The health of one YouTube player client (its circuit breaker), as `GET /admin/upstream` shows it. */
export interface ClientHealth {
  /** The client's profile name (`VISIONOS`, `ANDROID`, `WEB`, …). */
  name: string;
  /** `closed`: asked; `open`: skipped for a while; `half_open`: one probe request let through. */
  state: 'closed' | 'open' | 'half_open';
  /** When the client last delivered captions (ISO 8601), or null. */
  last_success_at: string | null;
  /** Empty, stalled or PO-gated caption answers in a row. */
  recent_failures: number;
}

/**
 * How one YouTube request ended, for the operator's metrics: `ok` (an answer that can be used,
 * including a truthful "unavailable"), `empty` (a caption URL answered nothing or stalled: the
 * PO-token gate), `po_token` (a player answer whose caption tracks all need a PO token),
 * `blocked` (a bot check or a 429), `error` (any other failure: refused, unreadable, 5xx,
 * unreachable), `timeout` (the caller's deadline ran out first).
 */
export type UpstreamOutcome = 'ok' | 'empty' | 'po_token' | 'blocked' | 'error' | 'timeout';

/**
 * Told of every request an upstream sends, after it ended: the client (`VISIONOS`, `WEB`, …),
 * the endpoint (`player`, `next`, `browse`, `search`, `captions`, `visitor_id`, …) and the
 * outcome. It must be cheap and must not throw.
 */
export type UpstreamObserver = (client: string, endpoint: string, outcome: UpstreamOutcome) => void;

/** The YouTube data source. */
export interface Upstream {
  /** Player data of a video: details, playability and caption tracks. */
  player(videoId: string, options?: UpstreamOptions): Promise<PlayerData>;
  /**
   * The timed text of one track returned by {@link Upstream.player}; with
   * `options.translateTo`, YouTube's machine translation of it into that language.
   */
  captions(track: CaptionTrack, options?: CaptionOptions): Promise<TimedText>;
  /** Publish date, likes, chapters, heatmap: the watch-page extras. */
  videoExtras(videoId: string, options?: UpstreamOptions): Promise<VideoExtras>;
  /** The `UC…` id a locator names; `channel_not_found` when none. */
  resolveChannel(locator: ChannelLocator, options?: UpstreamOptions): Promise<string>;
  channel(channelId: string, options?: UpstreamOptions): Promise<ChannelProfile>;
  channelVideos(
    channelId: string,
    tab: 'videos' | 'shorts' | 'streams',
    page: { sort?: ChannelSort; continuation?: string },
    options?: UpstreamOptions,
  ): Promise<ChannelTabPage<VideoCard>>;
  channelPlaylists(
    channelId: string,
    page: { continuation?: string },
    options?: UpstreamOptions,
  ): Promise<ChannelTabPage<PlaylistCard>>;
  /** The newest uploads (up to 15, newest first). */
  latest(channelId: string, options?: UpstreamOptions): Promise<VideoCard[]>;
  playlist(
    playlistId: string,
    page: { continuation?: string },
    options?: UpstreamOptions,
  ): Promise<PlaylistPage>;
  search(
    query: string,
    filters: SearchFilters,
    page: { continuation?: string },
    options?: UpstreamOptions,
  ): Promise<SearchPage>;
  suggestions(query: string, options?: UpstreamOptions): Promise<string[]>;
  /**
   * A page of a video's comments in `page.sort` order, or, when `page.continuation` is a
   * comment's {@link Comment.repliesContinuation}, a page of its replies (each with `parentId`).
   * `page.continuation` is either one this call handed out (a page's `continuation` or a comment's
   * `repliesContinuation`, for the same `videoId`) or absent for the first page; then `sort` is
   * ignored in favour of the order the continuation carries.
   * - A missing or unwatchable video MUST throw `video_unavailable` (or the truthful
   *   `private_video`/… code), never an empty page.
   * - A video whose comments are turned off MUST throw `comments_disabled`.
   * - A video with comments on but none yet MUST answer an empty page without `continuation`.
   * - A continuation the implementation cannot read MUST throw `invalid_cursor`.
   */
  comments(
    videoId: string,
    page: { sort: CommentSort; continuation?: string },
    options?: UpstreamOptions,
  ): Promise<CommentPage>;
  /**
   * The health of the upstream's player clients (optional: upstreams without clients, such as
   * fakes, leave it out and the operator sees an empty list).
   */
  health?(): ClientHealth[];
  /**
   * Start-up work the app's `start()` kicks off without waiting for it (optional): the YouTube
   * driver fetches its clients' visitorData and keeps it fresh in the background. It MUST NOT
   * reject (a failed warm-up only means the request path does the work later), MUST be
   * idempotent, and any timer it leaves MUST NOT keep the process alive.
   */
  start?(): Promise<void>;
  /** Stops what `start()` left running (the app's `close()` calls it). Idempotent. */
  stop?(): void;
}
