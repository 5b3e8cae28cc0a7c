/**
 * Every type of the Upstream port (src/ports/upstream.ts) as a shape check, field for field, for
 * the Upstream contract. Where the port's type says only `string` or `number`, the check adds
 * what its JSDoc says (Unix seconds, intensity 0–1, 1-based index, `@` of a handle) and what an
 * id looks like; see upstream.ts for the checks that span values (page chains, defaults).
 */
import {
  arrayOf,
  bool,
  CHANNEL_ID,
  type Check,
  count,
  num,
  oneOf,
  PLAYLIST_ID,
  shape,
  str,
  unixSeconds,
  VIDEO_ID,
} from './upstream-shapes.ts';

const text = str();
const nonEmpty = str(/\S/);
const liveState = oneOf('none', 'upcoming', 'live', 'ended');

/** `Thumbnail`: an absolute http(s) URL and its size. */
export const thumbnail: Check = shape({ url: str(/^https?:\/\/\S+$/), width: count, height: count });
const thumbnails = arrayOf(thumbnail);

/** `CaptionTrack`. */
export const captionTrack: Check = shape(
  {
    languageCode: str(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/),
    name: text,
    kind: oneOf('manual', 'asr'),
    isTranslatable: bool,
    isDefault: bool,
    ref: nonEmpty,
  },
  { variant: nonEmpty },
);

/** `PlayerData`. */
export const playerData: Check = shape(
  {
    videoId: str(VIDEO_ID),
    title: text,
    author: text,
    channelId: str(CHANNEL_ID),
    description: text,
    lengthSeconds: count,
    viewCount: count,
    keywords: arrayOf(text),
    thumbnails,
    live: liveState,
    tracks: arrayOf(captionTrack),
  },
  { translationLanguages: arrayOf(nonEmpty) },
);

const json3Seg = shape({ utf8: text }, { tOffsetMs: num(), acAsrConf: num(0, 255) });
const json3Event = shape(
  { tStartMs: num() },
  {
    dDurationMs: num(),
    id: count,
    wWinId: count,
    wpWinPosId: count,
    wsWinStyleId: count,
    aAppend: count,
    segs: arrayOf(json3Seg),
  },
);
const json3 = shape({ format: oneOf('json3'), document: shape({ events: arrayOf(json3Event) }) });
const xml = shape({ format: oneOf('srv1', 'srv3'), xml: str(/^\s*</) });

/** `TimedText`: json3 with the styling tables dropped, or srv1/srv3 XML. */
export const timedText: Check = (v, at, out) =>
  ((v as { format?: unknown } | null)?.format === 'json3' ? json3 : xml)(v, at, out);

/** `VideoExtras`. */
export const videoExtras: Check = shape(
  { chapters: arrayOf(shape({ title: text, startSeconds: num() }, { thumbnails })) },
  {
    publishedAt: unixSeconds,
    likeCount: count,
    description: text,
    channelSubscribersText: nonEmpty,
    channelAvatarUrl: str(/^https?:\/\/\S+$/),
    heatmap: shape({
      markers: arrayOf(shape({ startSeconds: num(), durationSeconds: num(), intensity: num(0, 1) })),
      decorations: arrayOf(shape({ startSeconds: num(), endSeconds: num(), label: text })),
    }),
  },
);

/** `ChannelProfile`. */
export const channelProfile: Check = shape(
  {
    channelId: str(CHANNEL_ID),
    title: nonEmpty,
    description: text,
    verified: bool,
    avatars: thumbnails,
    banners: thumbnails,
    links: arrayOf(nonEmpty),
    tabs: arrayOf(nonEmpty),
  },
  {
    handle: str(/^@\S+$/),
    subscriberCountText: nonEmpty,
    subscriberCount: count,
    videoCount: count,
    customUrl: nonEmpty,
    country: nonEmpty,
  },
);

/** `VideoCard`. */
export const videoCard: Check = shape(
  { videoId: str(VIDEO_ID), title: text, thumbnails },
  {
    lengthText: nonEmpty,
    lengthSeconds: count,
    viewCountText: nonEmpty,
    viewCount: count,
    publishedText: nonEmpty,
    publishedAt: unixSeconds,
    live: liveState,
  },
);

/** `PlaylistCard`. */
export const playlistCard: Check = shape(
  { playlistId: str(PLAYLIST_ID), title: text, thumbnails },
  { videoCount: count, videoCountText: nonEmpty },
);

/** `ChannelTabPage<T>` of the given items. */
export const channelTabPage = (item: Check): Check =>
  shape(
    { channelId: str(CHANNEL_ID), channelTitle: nonEmpty, items: arrayOf(item) },
    { continuation: nonEmpty },
  );

/** `PlaylistPage`. */
export const playlistPage: Check = shape(
  {
    playlistId: str(PLAYLIST_ID),
    videos: arrayOf(
      shape(
        { videoId: str(VIDEO_ID), title: text, index: num(1, Number.POSITIVE_INFINITY, true), thumbnails },
        { lengthSeconds: count, lengthText: nonEmpty, author: text, channelId: str(CHANNEL_ID) },
      ),
    ),
  },
  {
    title: text,
    description: text,
    videoCount: count,
    viewCountText: nonEmpty,
    author: text,
    thumbnails,
    continuation: nonEmpty,
  },
);

const ITEM_ID: Record<string, RegExp> = {
  video: VIDEO_ID,
  shorts: VIDEO_ID,
  movie: VIDEO_ID,
  channel: CHANNEL_ID,
  playlist: PLAYLIST_ID,
};

/** `SearchItem`: the id's form follows the type. */
export const searchItem: Check = (v, at, out) => {
  const type = (v as { type?: unknown } | null)?.type;
  const id = typeof type === 'string' ? ITEM_ID[type] : undefined;
  shape(
    { id: str(id ?? /^\S+$/), type: oneOf(...Object.keys(ITEM_ID)), title: text },
    {
      channelTitle: text,
      channelId: str(CHANNEL_ID),
      durationSeconds: count,
      viewCount: count,
      publishedText: nonEmpty,
      thumbnailUrl: str(/^https?:\/\/\S+$/),
    },
  )(v, at, out);
};

/** `SearchPage`. */
export const searchPage: Check = shape(
  { items: arrayOf(searchItem) },
  { continuation: nonEmpty, estimatedResults: count },
);

/** The result of `suggestions`. */
export const suggestionList: Check = arrayOf(nonEmpty);

/** `Comment`: counts are whole numbers; a reply's id starts with its parent's. */
export const comment: Check = shape(
  {
    commentId: nonEmpty,
    text,
    author: text,
    isVerified: bool,
    isCreator: bool,
    likeCount: count,
    likeCountText: text,
    replyCount: count,
    publishedText: text,
    isPinned: bool,
    isHearted: bool,
    isEdited: bool,
  },
  {
    authorChannelId: str(CHANNEL_ID),
    authorThumbnail: str(/^https?:\/\/\S+$/),
    repliesContinuation: nonEmpty,
    parentId: nonEmpty,
  },
);

/** `CommentPage`. */
export const commentPage: Check = shape(
  { videoId: str(VIDEO_ID), comments: arrayOf(comment) },
  { continuation: nonEmpty },
);
