/**
 * A programmable Upstream for app tests: data by id, failures on demand, and call counts.
 */
import { ApiError } from '../../src/errors.ts';
import type {
  CaptionOptions,
  CaptionTrack,
  ChannelLocator,
  ChannelProfile,
  ChannelTabPage,
  Comment,
  CommentPage,
  CommentSort,
  PlayerData,
  PlaylistCard,
  PlaylistPage,
  PlaylistVideo,
  SearchItem,
  SearchPage,
  TimedText,
  Upstream,
  UpstreamOptions,
  VideoCard,
  VideoExtras,
} from '../../src/ports/upstream.ts';

/** A json3 document with one event per line and (for ASR) one seg per word. */
export function json3(lines: [number, number, string][], asr: boolean): TimedText {
  return {
    format: 'json3',
    document: {
      events: lines.map(([start, duration, text]) => ({
        tStartMs: start,
        dDurationMs: duration,
        segs: asr
          ? text
              .split(' ')
              .map((word, i) => (i === 0 ? { utf8: word } : { utf8: ` ${word}`, tOffsetMs: i * 200 }))
          : [{ utf8: text }],
      })),
    },
  };
}

export const TRACK_EN_MANUAL: CaptionTrack = {
  languageCode: 'en',
  name: 'English',
  kind: 'manual',
  isTranslatable: true,
  isDefault: true,
  ref: 'en-manual',
};
export const TRACK_EN_ASR: CaptionTrack = {
  languageCode: 'en',
  name: 'English (auto-generated)',
  kind: 'asr',
  isTranslatable: true,
  isDefault: false,
  ref: 'en-asr',
};
export const TRACK_DE: CaptionTrack = {
  languageCode: 'de',
  name: 'Deutsch',
  kind: 'manual',
  isTranslatable: true,
  isDefault: false,
  ref: 'de-manual',
};

export const VIDEO = 'dQw4w9WgXcQ';
export const CHANNEL = 'UCuAXFkgsw1L7xaCfnd5JJOw';
export const PLAYLIST = 'PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI';
/** A video whose comments are turned off (the fake answers `comments_disabled`). */
export const COMMENTS_OFF = 'c0mmentsOff';

/** A comment of the fake, with defaults for what a test does not care about. */
function comment(fields: Partial<Comment> & { commentId: string; text: string }): Comment {
  return {
    author: '@viewer',
    authorChannelId: 'UCviewerviewerviewer0001',
    authorThumbnail: 'https://yt3.ggpht.com/viewer=s88',
    isVerified: false,
    isCreator: false,
    likeCount: 0,
    likeCountText: '',
    replyCount: 0,
    publishedText: '1 year ago',
    isPinned: false,
    isHearted: false,
    isEdited: false,
    ...fields,
  };
}

/** The default comments of {@link VIDEO} in "top" order: two on the first page, one on the second. */
const COMMENTS: Comment[] = [
  comment({
    commentId: 'UgyPinned0001',
    text: 'Thanks for watching! 🎉\nMore at example.com',
    author: '@RickAstleyYT',
    authorChannelId: CHANNEL,
    isVerified: true,
    isCreator: true,
    likeCount: 1200,
    likeCountText: '1.2K',
    replyCount: 2,
    publishedText: '2 years ago',
    isPinned: true,
    isHearted: true,
    repliesContinuation: 'r:UgyPinned0001',
  }),
  comment({ commentId: 'UgySecond0002', text: 'Classic.', likeCount: 5, likeCountText: '5', isEdited: true }),
  comment({ commentId: 'UgyThird00003', text: 'Still here in 2026', publishedText: '1 day ago' }),
];

/** The replies of the pinned comment. */
const REPLIES: Comment[] = [
  comment({ commentId: 'UgyPinned0001.reply1', text: 'You are welcome', parentId: 'UgyPinned0001' }),
  comment({
    commentId: 'UgyPinned0001.reply2',
    text: '❤️',
    parentId: 'UgyPinned0001',
    author: '@RickAstleyYT',
    authorChannelId: CHANNEL,
    isCreator: true,
  }),
];

/** The default playlist contents (the first page holds two, the second the rest). */
const PLAYLIST_VIDEOS: PlaylistVideo[] = [
  {
    videoId: VIDEO,
    title: 'Never Gonna Give You Up',
    index: 1,
    lengthSeconds: 213,
    lengthText: '3:33',
    author: 'Rick Astley',
    channelId: CHANNEL,
    thumbnails: [],
  },
  {
    videoId: 'yPYZpwSpKmA',
    title: 'Together Forever',
    index: 2,
    lengthSeconds: 205,
    lengthText: '3:25',
    author: 'Rick Astley',
    thumbnails: [],
  },
  {
    videoId: 'AC3Ejf7vPEY',
    title: 'Whenever You Need Somebody',
    index: 3,
    lengthSeconds: 234,
    lengthText: '3:54',
    author: 'Rick Astley',
    thumbnails: [],
  },
];

/** The default search results. */
const SEARCH_ITEMS: SearchItem[] = [
  {
    id: VIDEO,
    type: 'video',
    title: 'Never Gonna Give You Up',
    channelTitle: 'Rick Astley',
    channelId: CHANNEL,
    durationSeconds: 213,
    viewCount: 1_000_000,
    publishedText: '15 years ago',
    thumbnailUrl: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hq.jpg',
  },
  {
    id: 'yPYZpwSpKmA',
    type: 'video',
    title: 'Together Forever',
    channelTitle: 'Rick Astley',
    channelId: CHANNEL,
    durationSeconds: 205,
    viewCount: 5_000,
    publishedText: '2 days ago',
  },
  { id: CHANNEL, type: 'channel', title: 'Rick Astley' },
  { id: PLAYLIST, type: 'playlist', title: 'Best of Rick' },
  { id: 'AC3Ejf7vPEY', type: 'video', title: 'Whenever You Need Somebody', publishedText: '3 weeks ago' },
];

/** `gate`, or the abort of `signal`, whichever comes first. */
function orAbort(gate: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    gate.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, reject);
  });
}

/** The fake. */
export class FakeUpstream implements Upstream {
  calls: Record<string, number> = {};
  /** Makes the next calls of a method throw. */
  failures: Record<string, ApiError | Error> = {};
  /** Delays every call (ms) so tests can abort or time out. */
  delayMs = 0;
  /** When set, every call waits for it (after counting) before answering, or until its signal aborts. */
  gate: Promise<void> | undefined;
  /** The options of the latest call of each method. */
  lastOptions: Record<string, UpstreamOptions | undefined> = {};
  players = new Map<string, PlayerData>();
  texts = new Map<string, TimedText>();
  /** Playlist, channel ids and handles (lower case) that answer "not found". */
  missing = new Set<string>();
  playlistVideos: PlaylistVideo[] = structuredClone(PLAYLIST_VIDEOS);
  searchItems: SearchItem[] = structuredClone(SEARCH_ITEMS);
  /** The comments of {@link VIDEO} in "top" order (two per page) and the replies of the first. */
  videoComments: Comment[] = structuredClone(COMMENTS);
  replies: Comment[] = structuredClone(REPLIES);
  /** Search results per upstream page. */
  searchPageSize = 20;

  constructor() {
    this.players.set(VIDEO, {
      videoId: VIDEO,
      title: 'Never Gonna Give You Up',
      author: 'Rick Astley',
      channelId: 'UCuAXFkgsw1L7xaCfnd5JJOw',
      description: 'The official video.',
      lengthSeconds: 213,
      viewCount: 1_000_000,
      keywords: ['rick'],
      thumbnails: [{ url: 'https://i.ytimg.com/vi/x/default.jpg', width: 120, height: 90 }],
      live: 'none',
      tracks: [TRACK_EN_MANUAL, TRACK_EN_ASR, TRACK_DE],
    });
    this.texts.set(
      'en-manual',
      json3(
        [
          [0, 2000, 'Hello world.'],
          [2000, 2500, 'Second line here.'],
        ],
        false,
      ),
    );
    this.texts.set(
      'en-asr',
      json3(
        [
          [0, 1800, 'hello world'],
          [2000, 2400, 'second line here'],
        ],
        true,
      ),
    );
    this.texts.set('de-manual', json3([[0, 2000, 'Hallo Welt.']], false));
  }

  /** Counts a call, then waits for the gate and the delay; an aborted `signal` rejects (the port's promise). */
  private async step(name: string, signal?: AbortSignal, options?: UpstreamOptions): Promise<void> {
    signal?.throwIfAborted(); // aborted before the call: no upstream work
    this.calls[name] = (this.calls[name] ?? 0) + 1;
    this.lastOptions[name] = options;
    if (this.gate) await (signal ? orAbort(this.gate, signal) : this.gate);
    if (this.delayMs > 0) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, this.delayMs);
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(signal.reason);
        });
      });
    }
    const failure = this.failures[name];
    if (failure) throw failure;
  }

  async player(videoId: string, o?: UpstreamOptions): Promise<PlayerData> {
    await this.step('player', o?.signal, o);
    const p = this.players.get(videoId);
    if (!p) throw new ApiError('video_unavailable', 'This video is unavailable.');
    return structuredClone(p);
  }
  async captions(track: CaptionTrack, o?: CaptionOptions): Promise<TimedText> {
    await this.step('captions', o?.signal, o);
    const target = o?.translateTo;
    if (target !== undefined) {
      if (!track.isTranslatable) throw new ApiError('translation_unavailable', 'not translatable');
      const translated = this.texts.get(`${track.ref}.${target}`);
      if (!translated) throw new ApiError('translation_unavailable', `no ${target} translation`);
      return structuredClone(translated);
    }
    const t = this.texts.get(track.ref);
    if (!t) throw new ApiError('upstream_error', 'no text');
    return structuredClone(t);
  }
  async videoExtras(id: string, o?: UpstreamOptions): Promise<VideoExtras> {
    await this.step('videoExtras', o?.signal, o);
    if (!this.players.has(id)) throw new ApiError('video_unavailable', 'This video is unavailable.');
    return { publishedAt: 1_256_000_000, likeCount: 42, chapters: [{ title: 'Intro', startSeconds: 0 }] };
  }
  async resolveChannel(locator: ChannelLocator, o?: UpstreamOptions): Promise<string> {
    await this.step('resolveChannel', o?.signal, o);
    const name =
      locator.kind === 'id' ? locator.id : locator.kind === 'handle' ? locator.handle : locator.name;
    if (this.missing.has(name.toLowerCase())) throw new ApiError('channel_not_found', 'No such channel.');
    return CHANNEL;
  }
  private checkChannel(id: string): void {
    if (this.missing.has(id.toLowerCase())) throw new ApiError('channel_not_found', 'No such channel.');
  }
  async channel(id: string, o?: UpstreamOptions): Promise<ChannelProfile> {
    await this.step('channel', o?.signal, o);
    this.checkChannel(id);
    return {
      channelId: id,
      title: 'Rick Astley',
      handle: '@RickAstleyYT',
      description: 'The official channel.',
      subscriberCountText: '4.2M subscribers',
      subscriberCount: 4_200_000,
      videoCount: 300,
      verified: true,
      country: 'GB',
      avatars: [{ url: 'https://yt3.ggpht.com/a', width: 88, height: 88 }],
      banners: [],
      links: ['https://rickastley.co.uk'],
      tabs: ['videos', 'shorts', 'streams', 'playlists'],
    };
  }
  async channelVideos(
    id: string,
    _tab: string,
    page: { continuation?: string },
    o?: UpstreamOptions,
  ): Promise<ChannelTabPage<VideoCard>> {
    await this.step('channelVideos', o?.signal, o);
    this.checkChannel(id);
    const second = page.continuation === 'p2';
    return {
      channelId: id,
      channelTitle: 'Rick Astley',
      items: [
        {
          videoId: second ? 'bbbbbbbbbbb' : 'aaaaaaaaaaa',
          title: second ? 'B' : 'A',
          lengthText: '3:33',
          lengthSeconds: 213,
          viewCountText: '1M views',
          viewCount: 1_000_000,
          publishedText: '1 day ago',
          thumbnails: [],
        },
      ],
      ...(second ? {} : { continuation: 'p2' }),
    };
  }
  async channelPlaylists(
    id: string,
    page: { continuation?: string },
    o?: UpstreamOptions,
  ): Promise<ChannelTabPage<PlaylistCard>> {
    await this.step('channelPlaylists', o?.signal, o);
    this.checkChannel(id);
    if (page.continuation) return { channelId: id, channelTitle: 'Rick Astley', items: [] };
    return {
      channelId: id,
      channelTitle: 'Rick Astley',
      items: [
        {
          playlistId: PLAYLIST,
          title: 'Best of Rick',
          videoCount: 3,
          videoCountText: '3 videos',
          thumbnails: [],
        },
      ],
      continuation: 'pl2',
    };
  }
  async latest(id: string, o?: UpstreamOptions): Promise<VideoCard[]> {
    await this.step('latest', o?.signal, o);
    this.checkChannel(id);
    return Array.from({ length: 15 }, (_, i) => ({
      videoId: `latest${String(i).padStart(5, '0')}`,
      title: `Upload ${i}`,
      publishedAt: 1_772_000_000 - i * 86_400,
      thumbnails: [],
    }));
  }
  async playlist(id: string, page: { continuation?: string }, o?: UpstreamOptions): Promise<PlaylistPage> {
    await this.step('playlist', o?.signal, o);
    if (this.missing.has(id.toLowerCase())) throw new ApiError('playlist_not_found', 'No such playlist.');
    if (page.continuation) return { playlistId: id, videos: this.playlistVideos.slice(2) };
    return {
      playlistId: id,
      title: 'P',
      description: 'A playlist.',
      videoCount: this.playlistVideos.length,
      viewCountText: '1,234 views',
      author: 'Rick Astley',
      thumbnails: [],
      videos: this.playlistVideos.slice(0, 2),
      continuation: 'x',
    };
  }
  async search(
    _q: string,
    _filters: unknown,
    page: { continuation?: string },
    o?: UpstreamOptions,
  ): Promise<SearchPage> {
    await this.step('search', o?.signal, o);
    const from = page.continuation ? Number(page.continuation.slice(2)) : 0;
    const to = from + this.searchPageSize;
    return {
      items: structuredClone(this.searchItems.slice(from, to)),
      ...(to < this.searchItems.length ? { continuation: `s:${to}` } : {}),
    };
  }
  async suggestions(q: string, o?: UpstreamOptions): Promise<string[]> {
    await this.step('suggestions', o?.signal, o);
    return [q, `${q} world`];
  }
  async comments(
    videoId: string,
    page: { sort: CommentSort; continuation?: string },
    o?: UpstreamOptions,
  ): Promise<CommentPage> {
    await this.step('comments', o?.signal, o);
    if (videoId === COMMENTS_OFF) throw new ApiError('comments_disabled', 'Comments are turned off.');
    if (!this.players.has(videoId)) throw new ApiError('video_unavailable', 'This video is unavailable.');
    const c = page.continuation;
    if (c?.startsWith('r:')) {
      const replies = this.replies.filter((r) => r.parentId === c.slice(2));
      return { videoId, comments: structuredClone(replies) };
    }
    if (c !== undefined && !/^(top|newest):\d+$/.test(c)) throw new ApiError('invalid_cursor', 'Bad token.');
    const [sort, from] = c ? [c.split(':')[0] as CommentSort, Number(c.split(':')[1])] : [page.sort, 0];
    const all = sort === 'newest' ? [...this.videoComments].reverse() : this.videoComments;
    const to = from + 2;
    return {
      videoId,
      comments: structuredClone(all.slice(from, to)),
      ...(to < all.length ? { continuation: `${sort}:${to}` } : {}),
    };
  }
}
