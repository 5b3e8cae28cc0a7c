/**
 * The fixtures Upstream: YouTube data from a folder of normalised JSON, for offline demos and
 * tests (`TUBESCRIBE_UPSTREAM=fixtures:<dir>`; the shipped demo set is `fixtures/demo`). Layout
 * (every file optional; a name is URI-encoded with `encodeURIComponent`):
 *
 * - `videos/<videoId>.json`: `{ player: PlayerData, extras?: VideoExtras }`, or
 *   `{ error: { code, message, details?, retryAfter? } }`: a YouTube failure to replay (e.g.
 *   `private_video`). No file (or neither key) is `video_unavailable`; no `extras` is no chapters.
 *   A playable video may add `comments: { top?: [{ comments: Comment[] }, …], newest?: […],
 *   replies?: { "<commentId>": [{ comments: Comment[] }, …] } }` (a sort without pages falls back
 *   to `top`; no `comments` key is no comments yet) or `comments: { disabled: true }`
 *   (`comments_disabled`). A comment with replies gets its `repliesContinuation`, a reply its
 *   `parentId`, from the file's structure.
 * - `captions/<ref>.json`: the `TimedText` of the caption track whose `ref` is `<ref>`;
 *   `captions/<ref>.<lang>.json`: its translation into `<lang>` (`translateTo`). A track marked
 *   not translatable, or a translation without a file, is `translation_unavailable`.
 * - `channels/<UC id>.json`: `{ profile: ChannelProfile,
 *   tabs?: { videos|shorts|streams: { newest|popular|oldest: [{ items: VideoCard[] }, …] } },
 *   playlists?: [{ items: PlaylistCard[] }, …], latest?: VideoCard[] }`. A sort without pages
 *   falls back to `newest`; a tab without pages is one empty page.
 * - `channels/index.json`: `{ "<lower-cased name>": "<UC id>" }` where a name is `@handle`,
 *   `custom/<name>` (`/c/` URLs) or `user/<name>` (`/user/` URLs).
 * - `playlists/<id>.json`: `{ pages: [PlaylistPage without continuation, …] }`; the header
 *   fields belong on the first page.
 * - `search/<lower-cased, trimmed query>.json`: `{ pages: [SearchPage without continuation, …] }`
 *   for any filters, or sets by type: `{ "video"|"channel"|"playlist"|"movie"|"shorts": { pages },
 *   "all": { pages }, "default": { pages } }`: the set of `filters.type` (`all` when no type is
 *   given), else `default`, else no results. Other filters are ignored.
 * - `suggestions/<lower-cased, trimmed query>.json`: `string[]`.
 *
 * Continuations are synthesised as `fx:<list>:<page>`, where the list names the entity too (a
 * channel's tab and sort, a playlist, a query and type); one of another list is `invalid_cursor`.
 * Unreadable JSON or an unknown error code in a file is `upstream_error`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, ERROR_CODES, type ErrorCode } from '../../errors.ts';
import type {
  ChannelProfile,
  ChannelSort,
  ChannelTabPage,
  Comment,
  CommentPage,
  CommentSort,
  PlayerData,
  PlaylistCard,
  PlaylistPage,
  SearchPage,
  TimedText,
  Upstream,
  UpstreamOptions,
  VideoCard,
  VideoExtras,
} from '../../ports/upstream.ts';

type CommentPages = { comments: Comment[] }[];

interface CommentsFile {
  disabled?: boolean;
  top?: CommentPages;
  newest?: CommentPages;
  replies?: Record<string, CommentPages>;
}

interface VideoFile {
  player?: PlayerData;
  extras?: VideoExtras;
  comments?: CommentsFile;
  error?: { code: ErrorCode; message: string; details?: Record<string, unknown>; retryAfter?: number };
}

type Pages<T> = { pages: T[] };

interface ChannelFile {
  profile: ChannelProfile;
  tabs?: Partial<
    Record<'videos' | 'shorts' | 'streams', Partial<Record<ChannelSort, { items: VideoCard[] }[]>>>
  >;
  playlists?: { items: PlaylistCard[] }[];
  latest?: VideoCard[];
}

const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;

/** The `pages` of a `{ pages }` value, if it has them. */
function pagesOf<T>(value: unknown): T[] | undefined {
  const pages = (value as Partial<Pages<T>> | null | undefined)?.pages;
  return Array.isArray(pages) ? pages : undefined;
}

/** The fixtures page `index` of `list` for `continuation` (0 without one); `invalid_cursor` when foreign. */
function pageIndex(list: string, continuation: string | undefined): number {
  if (continuation === undefined) return 0;
  const prefix = `fx:${list}:`;
  const n = continuation.startsWith(prefix) ? Number(continuation.slice(prefix.length)) : Number.NaN;
  if (!Number.isInteger(n) || n < 1)
    throw new ApiError('invalid_cursor', 'The cursor does not belong to this list.');
  return n;
}

/** The page a continuation points at, and the continuation of the page after it. */
function paged<T>(
  list: string,
  pages: readonly T[],
  continuation: string | undefined,
): { page: T; next?: string } {
  const index = pageIndex(list, continuation);
  const page = pages[index];
  if (page === undefined)
    throw new ApiError('invalid_cursor', 'The cursor points past the end of this list.');
  return index + 1 < pages.length ? { page, next: `fx:${list}:${index + 1}` } : { page };
}

/** `fx:<video>/replies/<comment>:<page>`: a replies list (page 0 is the first, handed out on the comment). */
const REPLIES = /^fx:([^/]+)\/replies\/(.+):(\d+)$/;

/** A page of a video's comments (or of one comment's replies) from its `comments` entry. */
function commentPage(
  videoId: string,
  file: CommentsFile | undefined,
  page: { sort: CommentSort; continuation?: string },
): CommentPage {
  if (file?.disabled) throw new ApiError('comments_disabled', 'Comments are turned off for this video.');
  const at = page.continuation;
  const replies = at === undefined ? null : REPLIES.exec(at);
  if (replies && replies[1] === videoId) {
    const parentId = replies[2] ?? '';
    const list = `${videoId}/replies/${parentId}`;
    const pages = file?.replies?.[parentId] ?? [{ comments: [] }];
    const { page: current, next } = paged(list, pages, replies[3] === '0' ? undefined : at);
    const comments = current.comments.map((c) => ({ ...c, parentId }));
    return { videoId, comments, ...(next ? { continuation: next } : {}) };
  }
  const sort = at?.startsWith(`fx:${videoId}/newest:`) ? 'newest' : at === undefined ? page.sort : 'top';
  const pages = (sort === 'newest' ? file?.newest : undefined) ?? file?.top ?? [{ comments: [] }];
  const { page: current, next } = paged(`${videoId}/${pages === file?.newest ? 'newest' : 'top'}`, pages, at);
  const comments = current.comments.map((c) => {
    const { repliesContinuation: _stored, parentId: _parent, ...rest } = c;
    return file?.replies?.[c.commentId]
      ? { ...rest, repliesContinuation: `fx:${videoId}/replies/${c.commentId}:0` }
      : rest;
  });
  return { videoId, comments, ...(next ? { continuation: next } : {}) };
}

/** Creates the fixtures upstream over the folder `dir`. */
export function createFixturesUpstream(dir: string): Upstream {
  const files = new Map<string, Promise<unknown>>();

  /** A parsed JSON file, or undefined when absent (read once, then kept). */
  function load<T>(folder: string, name: string): Promise<T | undefined> {
    const file = join(dir, folder, `${encodeURIComponent(name)}.json`);
    let pending = files.get(file);
    if (!pending) {
      pending = readFile(file, 'utf8').then(
        (text) => {
          try {
            return JSON.parse(text) as unknown;
          } catch (cause) {
            throw new ApiError('upstream_error', `The fixture ${folder}/${name} is not valid JSON.`, {
              cause,
            });
          }
        },
        (error: { code?: string }) => {
          if (error.code === 'ENOENT') return undefined;
          throw new ApiError('upstream_error', `The fixture ${folder}/${name} cannot be read.`, {
            cause: error,
          });
        },
      );
      files.set(file, pending);
    }
    return pending as Promise<T | undefined>;
  }

  /** Runs `fn` unless `o.signal` has aborted, and rejects if it aborts meanwhile. */
  async function guarded<T>(o: UpstreamOptions | undefined, fn: () => Promise<T>): Promise<T> {
    o?.signal?.throwIfAborted();
    const value = await fn();
    o?.signal?.throwIfAborted();
    return structuredClone(value);
  }

  async function video(videoId: string): Promise<VideoFile & { player: PlayerData }> {
    const file = await load<VideoFile>('videos', videoId);
    const error = file?.error;
    if (error) {
      if (!Object.hasOwn(ERROR_CODES, error.code)) {
        throw new ApiError('upstream_error', `The fixture videos/${videoId} has an unknown error code.`);
      }
      throw new ApiError(error.code, error.message, {
        ...(error.details ? { details: error.details } : {}),
        ...(error.retryAfter === undefined ? {} : { retryAfter: error.retryAfter }),
      });
    }
    if (!file?.player) throw new ApiError('video_unavailable', 'This video is unavailable.');
    return file as VideoFile & { player: PlayerData };
  }

  async function channelFile(id: string): Promise<ChannelFile> {
    const file = CHANNEL_ID.test(id) ? await load<ChannelFile>('channels', id) : undefined;
    if (!file) throw new ApiError('channel_not_found', `No channel ${id}.`);
    return file;
  }

  function tabPage<T>(
    file: ChannelFile,
    channelId: string,
    list: string,
    pages: { items: T[] }[],
    at?: string,
  ) {
    const { page, next } = paged(`${channelId}/${list}`, pages, at);
    const out: ChannelTabPage<T> = { channelId, channelTitle: file.profile.title, items: page.items };
    if (next) out.continuation = next;
    return out;
  }

  return {
    player: (videoId, o) => guarded(o, async () => (await video(videoId)).player),
    captions: (track, o) =>
      guarded(o, async () => {
        const target = o?.translateTo;
        if (target !== undefined) {
          const translated = track.isTranslatable
            ? await load<TimedText>('captions', `${track.ref}.${target}`)
            : undefined;
          if (!translated) {
            throw new ApiError(
              'translation_unavailable',
              `The ${track.languageCode} captions cannot be translated into ${target}.`,
            );
          }
          return translated;
        }
        const text = await load<TimedText>('captions', track.ref);
        if (!text) throw new ApiError('upstream_error', `The fixtures have no caption file ${track.ref}.`);
        return text;
      }),
    videoExtras: (videoId, o) => guarded(o, async () => (await video(videoId)).extras ?? { chapters: [] }),
    resolveChannel: (locator, o) =>
      guarded(o, async () => {
        if (locator.kind === 'id') return locator.id;
        const name = (
          locator.kind === 'handle' ? locator.handle : `${locator.kind}/${locator.name}`
        ).toLowerCase();
        const index = await load<Record<string, string>>('channels', 'index');
        const id = index && Object.hasOwn(index, name) ? index[name] : undefined;
        if (!id) throw new ApiError('channel_not_found', `No channel ${name}.`);
        return id;
      }),
    channel: (channelId, o) => guarded(o, async () => (await channelFile(channelId)).profile),
    channelVideos: (channelId, tab, page, o) =>
      guarded(o, async () => {
        const file = await channelFile(channelId);
        const sorts = file.tabs?.[tab];
        const sort = page.sort !== undefined && sorts?.[page.sort] ? page.sort : 'newest';
        return tabPage(
          file,
          channelId,
          `${tab}.${sort}`,
          sorts?.[sort] ?? [{ items: [] }],
          page.continuation,
        );
      }),
    channelPlaylists: (channelId, page, o) =>
      guarded(o, async () => {
        const file = await channelFile(channelId);
        return tabPage(file, channelId, 'playlists', file.playlists ?? [{ items: [] }], page.continuation);
      }),
    latest: (channelId, o) => guarded(o, async () => (await channelFile(channelId)).latest ?? []),
    playlist: (playlistId, page, o) =>
      guarded(o, async (): Promise<PlaylistPage> => {
        const pages = pagesOf<PlaylistPage>(await load('playlists', playlistId));
        if (!pages?.length) throw new ApiError('playlist_not_found', `No playlist ${playlistId}.`);
        const { page: current, next } = paged(playlistId, pages, page.continuation);
        const { continuation: _stored, ...rest } = current;
        return { ...rest, playlistId, ...(next ? { continuation: next } : {}) };
      }),
    search: (query, filters, page, o) =>
      guarded(o, async (): Promise<SearchPage> => {
        const q = query.trim().toLowerCase();
        const file = await load<Record<string, unknown>>('search', q);
        const key = filters.type ?? 'all';
        const pages =
          pagesOf<SearchPage>(file?.[key]) ?? pagesOf<SearchPage>(file?.default) ?? pagesOf<SearchPage>(file);
        if (!pages?.length) return { items: [] };
        const { page: current, next } = paged(`search/${key}/${q}`, pages, page.continuation);
        const out: SearchPage = { items: current.items };
        if (current.estimatedResults !== undefined) out.estimatedResults = current.estimatedResults;
        if (next) out.continuation = next;
        return out;
      }),
    comments: (videoId, page, o) =>
      guarded(o, async () => commentPage(videoId, (await video(videoId)).comments, page)),
    suggestions: (query, o) =>
      guarded(o, async () => (await load<string[]>('suggestions', query.trim().toLowerCase())) ?? []),
  };
}
