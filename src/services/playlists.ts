/**
 * Playlists: the first page with the playlist's details, later pages with videos only.
 * @module
 */
import { type PlaylistVideoRecord, playlistDetailsRecord, playlistVideoRecord } from '../core/records.ts';
import type { Upstream } from '../ports/upstream.ts';
import type { CacheStatus, CacheTtls, ResponseCache } from './cache.ts';
import { type CallContext, upstreamOptions } from './context.ts';
import type { Pager } from './paging.ts';

/** Dependencies of {@link Playlists}. */
export interface PlaylistsDeps {
  upstream: Upstream;
  cache: ResponseCache;
  ttl: CacheTtls;
  pager: Pager;
  deadlineMs: number;
}

/** One page of a playlist. The first page also carries the details. */
export type PlaylistPageRecord = Record<string, unknown> & {
  playlist_id: string;
  videos: PlaylistVideoRecord[];
  has_more: boolean;
  next_cursor: string | null;
};

/** The playlist service. */
export class Playlists {
  constructor(private readonly deps: PlaylistsDeps) {}

  /** A page of `playlistId` (`cursor` from the previous page's `next_cursor`). */
  async page(
    playlistId: string,
    options: { cursor?: string },
    ctx: CallContext,
  ): Promise<{ record: PlaylistPageRecord; cache: CacheStatus }> {
    const route = 'playlists';
    const filters = { playlist: playlistId };
    const continuation =
      options.cursor === undefined ? undefined : await this.deps.pager.decode(route, filters, options.cursor);
    const page = await this.deps.cache.get(
      `playlist:${playlistId}:${continuation ?? ''}:${ctx.hl ?? ''}:${ctx.gl ?? ''}`,
      this.deps.ttl.playlist,
      () =>
        this.deps.upstream.playlist(
          playlistId,
          continuation === undefined ? {} : { continuation },
          upstreamOptions(ctx, AbortSignal.timeout(this.deps.deadlineMs)),
        ),
      ctx.signal,
    );
    const next = page.value.continuation
      ? await this.deps.pager.encode(route, filters, page.value.continuation)
      : null;
    const videos = page.value.videos.map(playlistVideoRecord);
    const paging = { videos, has_more: next !== null, next_cursor: next };
    const record: PlaylistPageRecord =
      continuation === undefined
        ? { ...playlistDetailsRecord(page.value), playlist_id: playlistId, ...paging }
        : { playlist_id: playlistId, ...(page.value.title ? { title: page.value.title } : {}), ...paging };
    return { record, cache: page.status };
  }
}
