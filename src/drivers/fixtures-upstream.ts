/**
 * The fixtures Upstream: YouTube data from a folder of normalised JSON, for offline demos and
 * tests (`TUBESCRIBE_UPSTREAM=fixtures:<dir>`). Layout (all optional):
 *
 * - `videos/<videoId>.json`: `{ player: PlayerData, extras?: VideoExtras }` or
 *   `{ error: { code, message } }` (a YouTube failure to replay, e.g. `private_video`);
 *   a track's `ref` names a file `captions/<ref>.json` holding a `TimedText`.
 * - `channels/<UC id>.json`: `{ profile, handles?: ["@name"], custom?: [], users?: [],
 *   tabs?: { videos|shorts|streams: { newest|popular|oldest: [{ items }] } },
 *   playlists?: [{ items }], latest?: VideoCard[] }`.
 * - `playlists/<id>.json`: `{ pages: [PlaylistPage without continuation] }`.
 * - `search/<query>.json`: `{ pages: [SearchPage] }` or `{ "<type>": { pages } , "default": { pages } }`
 *   (the file name is the lower-cased query, URI-encoded).
 * - `suggestions/<query>.json`: `string[]`.
 *
 * Continuations are synthesised (`fx:<list>:<page>`); a foreign one is `invalid_cursor`.
 * @module
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, type ErrorCode } from '../errors.ts';
import type {
  CaptionTrack,
  ChannelLocator,
  ChannelProfile,
  ChannelSort,
  ChannelTabPage,
  PlayerData,
  PlaylistCard,
  PlaylistPage,
  SearchFilters,
  SearchPage,
  TimedText,
  Upstream,
  UpstreamOptions,
  VideoCard,
  VideoExtras,
} from '../ports/upstream.ts';

interface VideoFile {
  player?: PlayerData;
  extras?: VideoExtras;
  error?: { code: ErrorCode; message: string };
}

interface ChannelFile {
  profile: ChannelProfile;
  handles?: string[];
  custom?: string[];
  users?: string[];
  tabs?: Partial<
    Record<'videos' | 'shorts' | 'streams', Partial<Record<ChannelSort, { items: VideoCard[] }[]>>>
  >;
  playlists?: { items: PlaylistCard[] }[];
  latest?: VideoCard[];
}

type Pages<T> = { pages: T[] };

/** Creates the fixtures upstream over the folder `dir`. */
export function createFixturesUpstream(dir: string): Upstream {
  const files = new Map<string, Promise<unknown>>();

  /** A parsed JSON file, or undefined when absent (read once, then kept). */
  function load<T>(...path: string[]): Promise<T | undefined> {
    const file = join(dir, ...path);
    let pending = files.get(file);
    if (!pending) {
      pending = readFile(file, 'utf8').then(
        (text) => JSON.parse(text) as unknown,
        (error: { code?: string }) => {
          if (error.code === 'ENOENT') return undefined;
          throw error;
        },
      );
      files.set(file, pending);
    }
    return pending as Promise<T | undefined>;
  }

  const safe = (name: string) => encodeURIComponent(name);

  async function channelFile(id: string): Promise<ChannelFile> {
    const file = /^UC[A-Za-z0-9_-]{22}$/.test(id)
      ? await load<ChannelFile>('channels', `${id}.json`)
      : undefined;
    if (!file) throw new ApiError('channel_not_found', `No channel ${id}.`);
    return file;
  }

  function pageIndex(list: string, continuation: string | undefined): number {
    if (continuation === undefined) return 0;
    const prefix = `fx:${list}:`;
    const n = continuation.startsWith(prefix) ? Number(continuation.slice(prefix.length)) : Number.NaN;
    if (!Number.isInteger(n) || n < 1)
      throw new ApiError('invalid_cursor', 'The cursor does not belong to this list.');
    return n;
  }

  function paged<T>(
    list: string,
    pages: T[],
    continuation: string | undefined,
  ): { page: T; continuation?: string } {
    const index = pageIndex(list, continuation);
    const page = pages[index];
    if (page === undefined)
      throw new ApiError('invalid_cursor', 'The cursor points past the end of this list.');
    return index + 1 < pages.length ? { page, continuation: `fx:${list}:${index + 1}` } : { page };
  }

  async function video(videoId: string): Promise<VideoFile & { player: PlayerData }> {
    const file = await load<VideoFile>('videos', `${safe(videoId)}.json`);
    if (file?.error) throw new ApiError(file.error.code, file.error.message);
    if (!file?.player) throw new ApiError('video_unavailable', 'This video is unavailable.');
    return file as VideoFile & { player: PlayerData };
  }

  const check = (o: UpstreamOptions | undefined) => o?.signal?.throwIfAborted();

  return {
    async player(videoId, o) {
      check(o);
      return structuredClone((await video(videoId)).player);
    },
    async captions(track: CaptionTrack, o) {
      check(o);
      const text = await load<TimedText>('captions', `${safe(track.ref)}.json`);
      if (!text) throw new ApiError('upstream_error', `The fixtures have no caption file ${track.ref}.`);
      return structuredClone(text);
    },
    async videoExtras(videoId, o) {
      check(o);
      return structuredClone((await video(videoId)).extras ?? { chapters: [] });
    },
    async resolveChannel(locator: ChannelLocator, o) {
      check(o);
      if (locator.kind === 'id') return locator.id;
      const index = await load<Record<string, string>>('channels', 'index.json');
      const name = locator.kind === 'handle' ? locator.handle : `${locator.kind}/${locator.name}`;
      const id = index?.[name.toLowerCase()];
      if (!id) throw new ApiError('channel_not_found', `No channel ${name}.`);
      return id;
    },
    async channel(channelId, o) {
      check(o);
      return structuredClone((await channelFile(channelId)).profile);
    },
    async channelVideos(channelId, tab, page, o): Promise<ChannelTabPage<VideoCard>> {
      check(o);
      const file = await channelFile(channelId);
      const sort = page.sort ?? 'newest';
      const pages = file.tabs?.[tab]?.[sort] ?? file.tabs?.[tab]?.newest ?? [{ items: [] }];
      const { page: current, continuation } = paged(`${tab}.${sort}`, pages, page.continuation);
      return structuredClone({
        channelId,
        channelTitle: file.profile.title,
        items: current.items,
        ...(continuation ? { continuation } : {}),
      });
    },
    async channelPlaylists(channelId, page, o): Promise<ChannelTabPage<PlaylistCard>> {
      check(o);
      const file = await channelFile(channelId);
      const { page: current, continuation } = paged(
        'playlists',
        file.playlists ?? [{ items: [] }],
        page.continuation,
      );
      return structuredClone({
        channelId,
        channelTitle: file.profile.title,
        items: current.items,
        ...(continuation ? { continuation } : {}),
      });
    },
    async latest(channelId, o) {
      check(o);
      return structuredClone((await channelFile(channelId)).latest ?? []);
    },
    async playlist(playlistId, page, o): Promise<PlaylistPage> {
      check(o);
      const file = await load<Pages<PlaylistPage>>('playlists', `${safe(playlistId)}.json`);
      if (!file || file.pages.length === 0)
        throw new ApiError('playlist_not_found', `No playlist ${playlistId}.`);
      const { page: current, continuation } = paged('playlist', file.pages, page.continuation);
      return structuredClone({ ...current, playlistId, ...(continuation ? { continuation } : {}) });
    },
    async search(query, filters: SearchFilters, page, o): Promise<SearchPage> {
      check(o);
      const file = await load<Pages<SearchPage> & Record<string, Pages<SearchPage>>>(
        'search',
        `${safe(query.trim().toLowerCase())}.json`,
      );
      const set = file?.[filters.type ?? 'video'] ?? file?.default ?? (file?.pages ? file : undefined);
      if (!set || set.pages.length === 0) return { items: [] };
      const { page: current, continuation } = paged(
        `search.${filters.type ?? 'video'}`,
        set.pages,
        page.continuation,
      );
      const out: SearchPage = { items: current.items };
      if (current.estimatedResults !== undefined) out.estimatedResults = current.estimatedResults;
      if (continuation) out.continuation = continuation;
      return structuredClone(out);
    },
    async suggestions(query, o) {
      check(o);
      return [...((await load<string[]>('suggestions', `${safe(query.trim().toLowerCase())}.json`)) ?? [])];
    },
  };
}
