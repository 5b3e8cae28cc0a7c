/**
 * The browse side of the YouTube driver: channels, channel tabs, playlists, search, suggestions
 * and the channel feed, sent as NewPipe's 2026 WEB client sends them (youtube-protocol.md §4–§7):
 * `navigation/resolve_url`, `browse` (tab params, sort chips, continuations; playlists as a
 * `$fields` header call plus a self-built item continuation), `search`, the suggest GET and the RSS
 * feed. Continuations handed out carry what the next call needs and the next answer lacks (the
 * channel title, the next playlist index) after a `|`, which YouTube's base64 tokens never hold.
 * @module
 */
import { ApiError } from '../../errors.ts';
import type * as Up from '../../ports/upstream.ts';
import { type CallOptions, failureOutcome } from './innertube.ts';
import { type Json, ParseError } from './json.ts';
import { parseChannel } from './parse-channel.ts';
import {
  parseChannelPlaylists,
  parseChannelVideos,
  sortChipTokens,
  TAB_PARAMS,
} from './parse-channel-tab.ts';
import { parsePlaylist } from './parse-playlist.ts';
import { innertubeError, isNotFoundError, parseResolveUrl } from './parse-resolve.ts';
import { parseChannelFeed } from './parse-rss.ts';
import { parseSearch } from './parse-search.ts';
import { parseSuggestions } from './parse-suggestions.ts';
import type { ClientProfile, YouTubeHost } from './profiles.ts';
import { encodeBase64UrlSafe, encodeMessage, type ProtoField } from './protobuf.ts';
import { searchParams } from './search-params.ts';
import type { SourceDeps } from './source-deps.ts';
import type { RawResponse } from './transport.ts';

/** `browse` params of a playlist (`{104: {1: 0}}`), as NewPipe sends them. */
export const PLAYLIST_PARAMS = 'wgYCCAA%3D';

/** The field mask of the playlist header call. */
export const PLAYLIST_HEADER_FIELDS = 'sidebar,header,microformat,alerts';

/** `context.client` fields NewPipe's WEB browse, search and resolve requests carry beyond the profile's. */
const WEB_CLIENT: Readonly<Record<string, string>> = { originalUrl: 'https://www.youtube.com' };

const pct = (b64: string) => b64.replace(/=/g, '%3D');

/** Field 3 of the first playlist item token: `{1: 0, 104: {1: 0}}`, base64, padding percent-encoded. */
const PLAYLIST_ITEMS_PARAMS = 'CADCBgIIAA%3D%3D';

/** The continuation of a playlist's first item page (NewPipe builds it): `{80226972: {2: VL<id>, 3: …, 35: <id>}}`. */
export function playlistItemsToken(playlistId: string): string {
  const fields: ProtoField[] = [
    [2, `VL${playlistId}`],
    [3, PLAYLIST_ITEMS_PARAMS],
    [35, playlistId],
  ];
  return pct(encodeBase64UrlSafe(encodeMessage([[80226972, fields]])));
}

/** `token|extra`, the extra URI-encoded (so it never holds a `|`). */
export function wrapContinuation(token: string, extra: string): string {
  return `${token}|${encodeURIComponent(extra)}`;
}

/** The upstream token and the extra of a continuation; `invalid_cursor` when it holds no token. */
export function unwrapContinuation(continuation: string): { token: string; extra?: string } {
  const cut = continuation.lastIndexOf('|');
  const token = cut < 0 ? continuation : continuation.slice(0, cut);
  if (!token) throw new ApiError('invalid_cursor', 'The continuation holds no upstream token.');
  if (cut < 0) return { token };
  try {
    return { token, extra: decodeURIComponent(continuation.slice(cut + 1)) };
  } catch {
    return { token };
  }
}

function withTitle<T>(page: Up.ChannelTabPage<T>): Up.ChannelTabPage<T> {
  const { continuation, ...rest } = page;
  return continuation ? { ...rest, continuation: wrapContinuation(continuation, page.channelTitle) } : rest;
}

/** Orders a complete single page (a tab with no sort chips): exact for `oldest`, by view count for `popular`. */
function sortLocally(items: Up.VideoCard[], sort: Up.ChannelSort): Up.VideoCard[] {
  if (sort === 'oldest') return [...items].reverse();
  if (sort === 'popular') return [...items].sort((a, b) => (b.viewCount ?? -1) - (a.viewCount ?? -1));
  return items;
}

/** The browse-side Upstream calls over InnerTube's WEB client and the public GET endpoints. */
export class BrowseSource {
  private readonly web: ClientProfile;

  constructor(private readonly deps: SourceDeps) {
    const web = deps.profiles.WEB;
    if (!web) throw new Error('The YouTube driver needs the WEB client profile.');
    this.web = web;
  }

  /** The `UC…` id of a locator: no request for an id, else `navigation/resolve_url` (404 → `channel_not_found`). */
  async resolveChannel(locator: Up.ChannelLocator, o: Up.UpstreamOptions = {}): Promise<string> {
    o.signal?.throwIfAborted();
    if (locator.kind === 'id') return locator.id;
    const path =
      locator.kind === 'handle'
        ? `@${encodeURIComponent(locator.handle.replace(/^@/, ''))}`
        : `${locator.kind === 'custom' ? 'c' : 'user'}/${encodeURIComponent(locator.name)}`;
    const answer = await this.call('navigation/resolve_url', { url: `https://www.youtube.com/${path}` }, o);
    return parseResolveUrl(answer);
  }

  /** The profile, from the channel's videos-tab `browse` (NewPipe's request). */
  async channel(channelId: string, o: Up.UpstreamOptions = {}): Promise<Up.ChannelProfile> {
    const answer = await this.call('browse', { browseId: channelId, params: TAB_PARAMS.videos }, o);
    return parseChannel(answer, { channelId });
  }

  /** A page of a video tab; `popular`/`oldest` follow the tab's sort chip (2 requests for the first page). */
  async channelVideos(
    channelId: string,
    tab: 'videos' | 'shorts' | 'streams',
    page: { sort?: Up.ChannelSort; continuation?: string },
    o: Up.UpstreamOptions = {},
  ): Promise<Up.ChannelTabPage<Up.VideoCard>> {
    if (page.continuation !== undefined) {
      const { token, extra } = unwrapContinuation(page.continuation);
      const answer = await this.continue('browse', token, o);
      return withTitle(parseChannelVideos(answer, { channelId, ...(extra ? { channelTitle: extra } : {}) }));
    }
    const first = await this.call('browse', { browseId: channelId, params: TAB_PARAMS[tab] }, o);
    const result = parseChannelVideos(first, { channelId, tab });
    const sort = page.sort ?? 'newest';
    if (sort === 'newest' || result.items.length === 0) return withTitle(result);
    const chip = sortChipTokens(first)[sort];
    if (chip) {
      const sorted = await this.call('browse', { continuation: chip }, o);
      const ctx = { channelId: result.channelId, channelTitle: result.channelTitle };
      return withTitle(parseChannelVideos(sorted, ctx));
    }
    if (result.continuation !== undefined)
      throw new ParseError('sort chips', `no "${sort}" chip on the ${tab} tab`);
    return withTitle({ ...result, items: sortLocally(result.items, sort) });
  }

  /** A page of the playlists tab. */
  async channelPlaylists(
    channelId: string,
    page: { continuation?: string },
    o: Up.UpstreamOptions = {},
  ): Promise<Up.ChannelTabPage<Up.PlaylistCard>> {
    if (page.continuation !== undefined) {
      const { token, extra } = unwrapContinuation(page.continuation);
      const answer = await this.continue('browse', token, o);
      return withTitle(
        parseChannelPlaylists(answer, { channelId, ...(extra ? { channelTitle: extra } : {}) }),
      );
    }
    const answer = await this.call('browse', { browseId: channelId, params: TAB_PARAMS.playlists }, o);
    return withTitle(parseChannelPlaylists(answer, { channelId, tab: 'playlists' }));
  }

  /** The newest uploads from the RSS feed (newest first, up to 15); 404 → `channel_not_found`. */
  async latest(channelId: string, o: Up.UpstreamOptions = {}): Promise<Up.VideoCard[]> {
    const res = await this.get(
      'www',
      `/feeds/videos.xml?channel_id=${encodeURIComponent(channelId)}`,
      o,
      false,
    );
    if (res.status !== 200 && res.status !== 404)
      throw new ParseError(`feeds/videos.xml: HTTP ${res.status}`);
    const videos = parseChannelFeed(res.text, { status: res.status }).videos;
    return videos.sort((a, b) => (b.publishedAt ?? 0) - (a.publishedAt ?? 0)).slice(0, 15);
  }

  /** A playlist page: first page = header call (`$fields`) + first item page (2 requests); then 1 per page. */
  async playlist(
    playlistId: string,
    page: { continuation?: string },
    o: Up.UpstreamOptions = {},
  ): Promise<Up.PlaylistPage> {
    if (page.continuation !== undefined) {
      const { token, extra } = unwrapContinuation(page.continuation);
      const firstIndex = extra && /^\d+$/.test(extra) ? Number(extra) : undefined;
      const answer = await this.continue('browse', token, o);
      return withNextIndex(
        parsePlaylist(answer, { playlistId, ...(firstIndex ? { firstIndex } : {}) }),
        firstIndex,
      );
    }
    const body = { browseId: `VL${playlistId}`, params: PLAYLIST_PARAMS };
    const header = await this.call('browse', body, o, { $fields: PLAYLIST_HEADER_FIELDS });
    const head = parsePlaylist(header, { playlistId });
    const first = await this.call('browse', { continuation: playlistItemsToken(playlistId) }, o);
    const items = parsePlaylist(first, { playlistId });
    const { continuation, ...rest } = items;
    return withNextIndex({
      ...rest,
      ...head,
      videos: items.videos,
      ...(continuation ? { continuation } : {}),
    });
  }

  /** A search page: `{query, params}` first, `{continuation}` after. */
  async search(
    query: string,
    filters: Up.SearchFilters,
    page: { continuation?: string },
    o: Up.UpstreamOptions = {},
  ): Promise<Up.SearchPage> {
    const answer =
      page.continuation !== undefined
        ? await this.continue('search', unwrapContinuation(page.continuation).token, o)
        : await this.call('search', { query, params: searchParams(filters) }, o);
    const { items, continuation, estimatedResults } = parseSearch(answer);
    const out: Up.SearchPage = { items };
    if (continuation) out.continuation = continuation;
    if (estimatedResults !== undefined) out.estimatedResults = estimatedResults;
    return out;
  }

  /** Autocomplete suggestions (suggestqueries, `xhr=t` JSON; JSONP accepted too). */
  async suggestions(query: string, o: Up.UpstreamOptions = {}): Promise<string[]> {
    const { hl, gl } = this.locale(o);
    const qs = new URLSearchParams({ client: 'youtube', ds: 'yt', gl, hl, q: query, xhr: 't' });
    const res = await this.get('suggest', `/complete/search?${qs}`, o, true);
    if (res.status !== 200) throw new ParseError(`complete/search: HTTP ${res.status}`);
    return parseSuggestions(res.text);
  }

  private locale(o: Up.UpstreamOptions): { hl: string; gl: string } {
    const transport = this.deps.tube.transport;
    return { hl: o.hl ?? transport.hl, gl: o.gl ?? transport.gl };
  }

  /** An InnerTube call with the WEB client; a 4xx/5xx without InnerTube's error object is unparseable. */
  private async call(
    endpoint: string,
    body: Record<string, unknown>,
    o: Up.UpstreamOptions,
    query?: CallOptions['query'],
  ): Promise<Json> {
    const options: CallOptions = {
      ...this.locale(o),
      client: WEB_CLIENT,
      ...(o.signal ? { signal: o.signal } : {}),
    };
    if (query) options.query = query;
    const answer = await this.deps.tube.call(this.web, endpoint, body, options);
    if (answer.status >= 400 && !innertubeError(answer.json))
      throw new ParseError(`${endpoint}: HTTP ${answer.status}`);
    return answer.json;
  }

  /** A continuation a client handed back: YouTube rejecting it (400/404) is `invalid_cursor`. */
  private async continue(endpoint: string, token: string, o: Up.UpstreamOptions): Promise<Json> {
    const json = await this.call(endpoint, { continuation: token }, o);
    const error = innertubeError(json);
    if (error && isNotFoundError(error))
      throw new ApiError(
        'invalid_cursor',
        'YouTube no longer accepts this continuation; start from the first page.',
      );
    return json;
  }

  /** A GET with the WEB client's headers; the observer hears it as `feed` or `suggestions` (by host). */
  private async get(
    host: YouTubeHost,
    path: string,
    o: Up.UpstreamOptions,
    origin: boolean,
  ): Promise<RawResponse> {
    const { transport, observe } = this.deps.tube;
    const endpoint = host === 'suggest' ? 'suggestions' : 'feed';
    const headers: Record<string, string> = { 'Accept-Language': `${this.locale(o).hl}, en;q=0.9` };
    if (this.web.userAgent) headers['User-Agent'] = this.web.userAgent;
    if (origin)
      Object.assign(headers, { Origin: 'https://www.youtube.com', Referer: 'https://www.youtube.com/' });
    try {
      const res = await transport.request('GET', transport.url(host, path), headers, undefined, o.signal);
      // A feed's 404 is the truthful "no such channel".
      observe(this.web.name, endpoint, res.status === 200 || res.status === 404 ? 'ok' : 'error');
      return res;
    } catch (error) {
      const outcome = failureOutcome(error, o.signal);
      if (outcome) observe(this.web.name, endpoint, outcome);
      throw error;
    }
  }
}

/** Appends the next page's first index to a playlist continuation (lockup items carry no index). */
function withNextIndex(page: Up.PlaylistPage, firstIndex = 1): Up.PlaylistPage {
  const { continuation, ...rest } = page;
  if (!continuation) return rest;
  const next = (page.videos.at(-1)?.index ?? firstIndex - 1) + 1;
  return { ...rest, continuation: wrapContinuation(continuation, String(next)) };
}
