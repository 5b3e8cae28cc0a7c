/**
 * Channels: resolve a handle or URL to an id, the profile, latest uploads, and the paged tabs
 * (videos with sort, streams, shorts, playlists).
 * @module
 */
import {
  type ChannelProfileRecord,
  channelProfileRecord,
  type PlaylistCardRecord,
  playlistCardRecord,
  type VideoCardRecord,
  videoCardRecord,
} from '../core/records.ts';
import type { ChannelLocator, ChannelSort, ChannelTabPage, Upstream } from '../ports/upstream.ts';
import { type CacheStatus, type CacheTtls, combineStatus, type ResponseCache } from './cache.ts';
import { type CallContext, upstreamOptions } from './context.ts';
import type { Pager } from './paging.ts';

/** Dependencies of {@link Channels}. */
export interface ChannelsDeps {
  upstream: Upstream;
  cache: ResponseCache;
  ttl: CacheTtls;
  pager: Pager;
  deadlineMs: number;
}

/** One page of a channel's videos. */
export interface ChannelVideoPage {
  channel_id: string;
  channel_title: string;
  videos: VideoCardRecord[];
  has_more: boolean;
  next_cursor: string | null;
  continuation: string | null;
}

/** One page of a channel's playlists. */
export interface ChannelPlaylistPage {
  channel_id: string;
  channel_title: string;
  playlists: PlaylistCardRecord[];
  has_more: boolean;
  next_cursor: string | null;
  continuation: string | null;
}

const locatorKey = (l: ChannelLocator): string =>
  l.kind === 'id' ? l.id : l.kind === 'handle' ? l.handle.toLowerCase() : `${l.kind}/${l.name.toLowerCase()}`;

/** The channel service. */
export class Channels {
  constructor(private readonly deps: ChannelsDeps) {}

  private load<T>(key: string, ttl: number, fn: (signal: AbortSignal) => Promise<T>, ctx: CallContext) {
    return this.deps.cache.get(key, ttl, () => fn(AbortSignal.timeout(this.deps.deadlineMs)), ctx.signal);
  }

  /** The `UC…` id of a locator (cached a day: handles rarely move). */
  async resolve(locator: ChannelLocator, ctx: CallContext): Promise<{ id: string; status: CacheStatus }> {
    if (locator.kind === 'id') return { id: locator.id, status: 'HIT' };
    const resolved = await this.load(
      `resolve:${locatorKey(locator)}`,
      24 * 3_600_000,
      (signal) => this.deps.upstream.resolveChannel(locator, upstreamOptions(ctx, signal)),
      ctx,
    );
    return { id: resolved.value, status: resolved.status };
  }

  /** The channel profile. */
  async profile(
    locator: ChannelLocator,
    ctx: CallContext,
  ): Promise<{ record: ChannelProfileRecord; cache: CacheStatus }> {
    const { id, status } = await this.resolve(locator, ctx);
    const profile = await this.load(
      `channel:${id}:${ctx.hl ?? ''}:${ctx.gl ?? ''}`,
      this.deps.ttl.channel,
      (signal) => this.deps.upstream.channel(id, upstreamOptions(ctx, signal)),
      ctx,
    );
    return { record: channelProfileRecord(profile.value), cache: combineStatus(status, profile.status) };
  }

  /** The newest uploads (up to 15, newest first). */
  async latest(
    locator: ChannelLocator,
    ctx: CallContext,
  ): Promise<{ record: { channel_id: string; videos: VideoCardRecord[] }; cache: CacheStatus }> {
    const { id, status } = await this.resolve(locator, ctx);
    const videos = await this.load(
      `latest:${id}`,
      this.deps.ttl.latest,
      (signal) => this.deps.upstream.latest(id, upstreamOptions(ctx, signal)),
      ctx,
    );
    return {
      record: { channel_id: id, videos: videos.value.slice(0, 15).map(videoCardRecord) },
      cache: combineStatus(status, videos.status),
    };
  }

  /** A page of the videos, shorts or streams tab. */
  async videos(
    locator: ChannelLocator,
    tab: 'videos' | 'shorts' | 'streams',
    options: { sort: ChannelSort; cursor?: string },
    ctx: CallContext,
  ): Promise<{ record: ChannelVideoPage; cache: CacheStatus }> {
    const page = await this.tabPage(
      locator,
      tab,
      { sort: options.sort },
      options.cursor,
      ctx,
      (id, continuation, signal) =>
        this.deps.upstream.channelVideos(
          id,
          tab,
          continuation === undefined ? { sort: options.sort } : { sort: options.sort, continuation },
          upstreamOptions(ctx, signal),
        ),
    );
    return {
      record: { ...page.head, videos: page.items.map(videoCardRecord), ...page.paging },
      cache: page.cache,
    };
  }

  /** A page of the playlists tab. */
  async playlists(
    locator: ChannelLocator,
    options: { cursor?: string },
    ctx: CallContext,
  ): Promise<{ record: ChannelPlaylistPage; cache: CacheStatus }> {
    const page = await this.tabPage(
      locator,
      'playlists',
      {},
      options.cursor,
      ctx,
      (id, continuation, signal) =>
        this.deps.upstream.channelPlaylists(
          id,
          continuation === undefined ? {} : { continuation },
          upstreamOptions(ctx, signal),
        ),
    );
    return {
      record: { ...page.head, playlists: page.items.map(playlistCardRecord), ...page.paging },
      cache: page.cache,
    };
  }

  /**
   * One page of a tab: resolves the channel, opens the cursor (bound to the channel, the tab and
   * `filters`), loads the page through the cache and signs the next cursor.
   */
  private async tabPage<T>(
    locator: ChannelLocator,
    tab: string,
    filters: Record<string, string>,
    cursor: string | undefined,
    ctx: CallContext,
    fetchPage: (
      id: string,
      continuation: string | undefined,
      signal: AbortSignal,
    ) => Promise<ChannelTabPage<T>>,
  ): Promise<{
    head: { channel_id: string; channel_title: string };
    items: T[];
    paging: { has_more: boolean; next_cursor: string | null; continuation: string | null };
    cache: CacheStatus;
  }> {
    const { id, status } = await this.resolve(locator, ctx);
    const route = `channels.${tab}`;
    const bound = { channel: id, ...filters };
    const continuation =
      cursor === undefined ? undefined : await this.deps.pager.decode(route, bound, cursor);
    const page = await this.load(
      `tab:${id}:${tab}:${filters.sort ?? ''}:${continuation ?? ''}`,
      this.deps.ttl.channelPage,
      (signal) => fetchPage(id, continuation, signal),
      ctx,
    );
    const next = page.value.continuation
      ? await this.deps.pager.encode(route, bound, page.value.continuation)
      : null;
    return {
      head: { channel_id: page.value.channelId, channel_title: page.value.channelTitle },
      items: page.value.items,
      paging: { has_more: next !== null, next_cursor: next, continuation: next },
      cache: combineStatus(status, page.status),
    };
  }
}
