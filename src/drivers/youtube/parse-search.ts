/**
 * A `search` answer, first page or continuation → {@link SearchPage}.
 *
 * Results: `videoRenderer`, `channelRenderer`, `movieRenderer`, `playlistRenderer` and
 * `lockupViewModel` (videos, playlists, podcasts); shorts from `gridShelfViewModel` /
 * `reelShelfRenderer` shelves (flattened, type `shorts`).
 * Dropped on purpose: mixes (`radioRenderer`, `RD…` playlist lockups — the playlist routes reject
 * mixes, so returning them would hand out unusable ids), `shelfRenderer` shelves (YouTube's own
 * suggestions such as "Popular in Lyon", "Channels new to you", "People also watched" — not
 * results for the query, and often duplicates), `emergencyOneboxRenderer` (crisis resources),
 * ads, messages ("No more results") and correction banners (reported as {@link SearchCorrection}).
 * @module
 */
import type { SearchItem, SearchPage, Thumbnail } from '../../ports/upstream.ts';
import { arr, at, type Json, type JsonObject, num, obj, ParseError, str, text } from './json.ts';
import { assignDefined, thumbnailsOf } from './parse-channel.ts';
import {
  continuationItems,
  flattenItems,
  lockupVideoCard,
  mapItems,
  readLockup,
  rendererVideoCard,
  SKIPPED_RENDERERS,
  shortsVideoCard,
} from './parse-channel-tab.ts';
import { bylineChannelId } from './parse-playlist.ts';

/** A query correction YouTube applied or suggested. */
export interface SearchCorrection {
  /** `showing_results_for`: the results are for `query`; `did_you_mean`: only suggested. */
  kind: 'showing_results_for' | 'did_you_mean';
  query: string;
}

/** A search page plus the correction banner, when there is one. */
export interface ParsedSearchPage extends SearchPage {
  correction?: SearchCorrection;
}

const SKIPPED: ReadonlySet<string> = new Set([
  ...SKIPPED_RENDERERS,
  'showingResultsForRenderer',
  'didYouMeanRenderer',
  'emergencyOneboxRenderer',
  'shelfRenderer',
  'horizontalCardListRenderer',
  'radioRenderer',
  'searchPyvRenderer',
  'promotedSparklesWebRenderer',
  'clarificationRenderer',
  'infoPanelContainerRenderer',
]);

function largest(thumbnails: Thumbnail[]): string | undefined {
  let best: Thumbnail | undefined;
  for (const t of thumbnails) if (!best || t.width >= best.width) best = t;
  return best?.url;
}

/** Channel name and id from a byline (`ownerText`, `longBylineText`, `shortBylineText`). */
function byline(r: JsonObject): { channelTitle?: string; channelId?: string } {
  const source = r.ownerText ?? r.longBylineText ?? r.shortBylineText;
  return assignDefined<{ channelTitle?: string; channelId?: string }>(
    {},
    { channelTitle: text(source), channelId: bylineChannelId(source) },
  );
}

function fromLockup(lockup: JsonObject): SearchItem | null | undefined {
  const l = readLockup(lockup);
  if (!l) return undefined;
  const channel = l.rows.flat().find((p) => p.browseId?.startsWith('UC'));
  const owner = { channelTitle: channel?.text, channelId: channel?.browseId };
  if (/PLAYLIST|PODCAST|ALBUM/.test(l.contentType)) {
    if (l.id.startsWith('RD')) return null;
    return assignDefined<SearchItem>(
      { id: l.id, type: 'playlist', title: l.title },
      { ...owner, thumbnailUrl: largest(l.thumbnails) },
    );
  }
  if (l.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO') return undefined;
  const card = lockupVideoCard(l);
  return assignDefined<SearchItem>(
    { id: card.videoId, type: 'video', title: card.title },
    {
      ...owner,
      durationSeconds: card.lengthSeconds,
      viewCount: card.viewCount,
      publishedText: card.publishedText,
      thumbnailUrl: largest(card.thumbnails),
    },
  );
}

function fromVideoRenderer(r: JsonObject, type: 'video' | 'movie'): SearchItem | undefined {
  const card = rendererVideoCard(r);
  if (!card) return undefined;
  const isShort = at(r, 'navigationEndpoint', 'reelWatchEndpoint') !== undefined;
  return assignDefined<SearchItem>(
    { id: card.videoId, type: isShort ? 'shorts' : type, title: card.title },
    {
      ...byline(r),
      durationSeconds: card.lengthSeconds,
      viewCount: card.viewCount,
      publishedText: card.publishedText,
      thumbnailUrl: largest(card.thumbnails),
    },
  );
}

/** One search result from an item renderer: `null` for a known item that is dropped, undefined when unknown. */
export function searchItem(entry: JsonObject): SearchItem | null | undefined {
  if (entry.videoRenderer) return fromVideoRenderer(obj(entry.videoRenderer) ?? {}, 'video');
  if (entry.movieRenderer) return fromVideoRenderer(obj(entry.movieRenderer) ?? {}, 'movie');
  if (entry.lockupViewModel) return fromLockup(obj(entry.lockupViewModel) ?? {});
  const channel = obj(entry.channelRenderer);
  if (channel) {
    const id = str(channel.channelId);
    const title = text(channel.title) ?? '';
    if (!id) return undefined;
    return assignDefined<SearchItem>(
      { id, type: 'channel', title },
      { channelTitle: title, channelId: id, thumbnailUrl: largest(thumbnailsOf(channel.thumbnail)) },
    );
  }
  const playlist = obj(entry.playlistRenderer);
  if (playlist) {
    const id = str(playlist.playlistId);
    if (!id) return undefined;
    if (id.startsWith('RD')) return null;
    return assignDefined<SearchItem>(
      { id, type: 'playlist', title: text(playlist.title) ?? '' },
      { ...byline(playlist), thumbnailUrl: largest(thumbnailsOf(at(playlist, 'thumbnails', 0))) },
    );
  }
  const shorts = obj(entry.shortsLockupViewModel) ?? obj(entry.reelItemRenderer);
  if (shorts) {
    const card = entry.shortsLockupViewModel ? shortsVideoCard(shorts) : rendererVideoCard(shorts);
    if (!card) return undefined;
    return assignDefined<SearchItem>(
      { id: card.videoId, type: 'shorts', title: card.title },
      { viewCount: card.viewCount, thumbnailUrl: largest(card.thumbnails) },
    );
  }
  return undefined;
}

/** Shorts shelves flattened into their items; other entries as they are. */
function expandShelves(items: JsonObject[]): JsonObject[] {
  return items.flatMap((entry): JsonObject[] => {
    const grid = at(entry, 'gridShelfViewModel', 'contents') ?? at(entry, 'reelShelfRenderer', 'items');
    return Array.isArray(grid) ? flattenItems(grid) : [entry];
  });
}

function correctionOf(items: JsonObject[]): SearchCorrection | undefined {
  for (const entry of items) {
    const showing = obj(entry.showingResultsForRenderer);
    const didYouMean = obj(entry.didYouMeanRenderer);
    const r = showing ?? didYouMean;
    if (!r) continue;
    const query = str(at(r, 'correctedQueryEndpoint', 'searchEndpoint', 'query')) ?? text(r.correctedQuery);
    if (query) return { kind: showing ? 'showing_results_for' : 'did_you_mean', query };
  }
  return undefined;
}

/**
 * A search page: results in YouTube's order, the next continuation (absent on the last page),
 * YouTube's `estimatedResults`, and the correction banner.
 * @throws ParseError when the answer holds neither results nor a continuation answer.
 */
export function parseSearch(json: Json): ParsedSearchPage {
  const sections =
    continuationItems(json) ??
    at(
      json,
      'contents',
      'twoColumnSearchResultsRenderer',
      'primaryContents',
      'sectionListRenderer',
      'contents',
    );
  if (!Array.isArray(sections)) {
    throw new ParseError(
      'contents.twoColumnSearchResultsRenderer.primaryContents.sectionListRenderer.contents',
    );
  }
  const entries = expandShelves(flattenItems(arr(sections)));
  const mapped = mapItems(entries, searchItem, SKIPPED);
  const page: ParsedSearchPage = { items: mapped.items };
  if (mapped.continuation) page.continuation = mapped.continuation;
  const estimated = num(at(json, 'estimatedResults'));
  if (estimated !== undefined) page.estimatedResults = estimated;
  const correction = correctionOf(entries);
  if (correction) page.correction = correction;
  return page;
}
