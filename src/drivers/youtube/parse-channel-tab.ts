/**
 * A channel tab (`videos`, `shorts`, `streams`, `playlists`) and its continuation pages →
 * {@link ChannelTabPage}, the tab's sort chips, and the item-level readers the playlist and
 * search parsers reuse: 2025–26 `lockupViewModel` / `shortsLockupViewModel` and the older
 * `videoRenderer` / `gridVideoRenderer` / `reelItemRenderer` / `gridPlaylistRenderer` /
 * `playlistRenderer`, continuation tokens, durations and view counts.
 * @module
 */
import type {
  ChannelSort,
  ChannelTab,
  ChannelTabPage,
  LiveState,
  PlaylistCard,
  VideoCard,
} from '../../ports/upstream.ts';
import { arr, at, findAll, type Json, type JsonObject, obj, ParseError, str, text } from './json.ts';
import { assertChannelExists, parseCompactNumber, tabName, thumbnailsOf } from './parse-channel.ts';
import { decodeMessage, decodeToken, protoField, protoMessage, protoString } from './protobuf.ts';

/** `browse` params of each channel tab (youtube-protocol.md §4.2), as YouTube's web client sends them. */
export const TAB_PARAMS: Readonly<
  Record<ChannelTab | 'podcasts' | 'releases' | 'featured' | 'search', string>
> = {
  videos: 'EgZ2aWRlb3PyBgQKAjoA',
  shorts: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D',
  streams: 'EgdzdHJlYW1z8gYECgJ6AA%3D%3D',
  playlists: 'EglwbGF5bGlzdHPyBgQKAkIA',
  podcasts: 'Eghwb2RjYXN0c_IGBQoDugEA',
  releases: 'EghyZWxlYXNlc_IGBQoDsgEA',
  featured: 'EghmZWF0dXJlZPIGBAoCMgA%3D',
  search: 'EgZzZWFyY2jyBgQKAloA',
};

/** Seconds of a clock-style duration ("1:07:34", "3:03", "0:59"); undefined for "LIVE", "SHORTS", … */
export function parseDurationText(input: string): number | undefined {
  const t = input.trim();
  if (!/^\d+(?::\d{1,2}){1,3}$/.test(t)) return undefined;
  return t.split(':').reduce((total, part, i) => (i === 3 ? total * 24 : total * 60) + Number(part), 0);
}

/** A view count from "1,545,374 views", "1.2M views", "895k views", "No views" (0), "12K watching". */
export function parseViewCount(input: string): number | undefined {
  return parseCompactNumber(input);
}

/** The continuation token of a `continuationItemRenderer` / `continuationItemViewModel` item. */
export function continuationToken(item: Json): string | undefined {
  const holder = obj(at(item, 'continuationItemRenderer')) ?? obj(at(item, 'continuationItemViewModel'));
  if (!holder) return undefined;
  const direct = str(at(holder, 'continuationEndpoint', 'continuationCommand', 'token'));
  return direct ?? findAll(holder, 'continuationCommand').flatMap((c) => str(c.token) ?? [])[0];
}

/**
 * The items of a continuation answer (append actions and body reload commands; the header
 * reload a sort chip triggers is left out), or undefined when the answer is not one.
 */
export function continuationItems(json: Json): unknown[] | undefined {
  const actions = at(json, 'onResponseReceivedActions') ?? at(json, 'onResponseReceivedCommands');
  if (!Array.isArray(actions)) return undefined;
  return actions.flatMap((a) => {
    const reload = obj(at(a, 'reloadContinuationItemsCommand'));
    if (reload && str(reload.slot) === 'RELOAD_CONTINUATION_SLOT_HEADER') return [];
    return arr(at(a, 'appendContinuationItemsAction', 'continuationItems') ?? reload?.continuationItems);
  });
}

/** Unwraps the grid/section containers around items: `richItemRenderer`, `itemSectionRenderer`, `gridRenderer`. */
export function flattenItems(list: unknown[]): JsonObject[] {
  const out: JsonObject[] = [];
  for (const item of list) {
    const o = obj(item);
    if (!o) continue;
    const rich = obj(at(o, 'richItemRenderer', 'content'));
    const nested = at(o, 'itemSectionRenderer', 'contents') ?? at(o, 'gridRenderer', 'items');
    if (rich) out.push(rich);
    else if (Array.isArray(nested)) out.push(...flattenItems(nested));
    else out.push(o);
  }
  return out;
}

/** The parts of a `lockupViewModel` that every list shows. */
export interface Lockup {
  id: string;
  contentType: string;
  title: string;
  /** Metadata rows → parts, each with the channel it links to when it does. */
  rows: { text: string; browseId?: string }[][];
  badges: { text: string; style: string }[];
  thumbnails: VideoCard['thumbnails'];
}

/** Reads a `lockupViewModel`; undefined without an id. */
export function readLockup(lockup: JsonObject): Lockup | undefined {
  const id = str(lockup.contentId);
  if (!id) return undefined;
  const meta = at(lockup, 'metadata', 'lockupMetadataViewModel');
  const rows = arr(at(meta, 'metadata', 'contentMetadataViewModel', 'metadataRows')).map((row) =>
    arr(at(row, 'metadataParts')).flatMap((part) => {
      const t = text(at(part, 'text'));
      if (t === undefined) return [];
      const browseId = str(findAll(at(part, 'text', 'commandRuns'), 'browseEndpoint', 1)[0]?.browseId);
      return [browseId ? { text: t, browseId } : { text: t }];
    }),
  );
  const image =
    at(lockup, 'contentImage', 'thumbnailViewModel', 'image') ??
    at(
      lockup,
      'contentImage',
      'collectionThumbnailViewModel',
      'primaryThumbnail',
      'thumbnailViewModel',
      'image',
    );
  return {
    id,
    contentType: str(lockup.contentType) ?? '',
    title: text(at(meta, 'title')) ?? '',
    rows: rows.filter((r) => r.length > 0),
    badges: findAll(lockup.contentImage, 'thumbnailBadgeViewModel').map((b) => ({
      text: str(b.text) ?? '',
      style: str(b.badgeStyle) ?? '',
    })),
    thumbnails: thumbnailsOf(image),
  };
}

const VIEWS = /\bviews?\b|\bwatching\b|^no views$/i;
const PUBLISHED = /\bago\b|^streamed\b|^premiere|^scheduled/i;

/** `live` state from badge texts/styles and the published text ("Streamed 2 years ago" → ended). */
function liveState(signals: string[], published: string | undefined): LiveState | undefined {
  if (signals.some((s) => /(^|_)LIVE($|_NOW)|^LIVE$/i.test(s))) return 'live';
  if (signals.some((s) => /UPCOMING/i.test(s))) return 'upcoming';
  if (published && /^streamed\b/i.test(published)) return 'ended';
  return undefined;
}

function finishCard(card: VideoCard, lengthText?: string, viewText?: string, published?: string): VideoCard {
  if (lengthText) {
    const seconds = parseDurationText(lengthText);
    if (seconds !== undefined) {
      card.lengthText = lengthText;
      card.lengthSeconds = seconds;
    }
  }
  if (viewText) {
    card.viewCountText = viewText;
    const views = parseViewCount(viewText);
    if (views !== undefined) card.viewCount = views;
  }
  if (published) card.publishedText = published;
  return card;
}

/** A {@link VideoCard} from a video `lockupViewModel`. */
export function lockupVideoCard(lockup: Lockup): VideoCard {
  const parts = lockup.rows.flat().map((p) => p.text);
  const last = lockup.rows.at(-1) ?? [];
  const viewText = parts.find((p) => VIEWS.test(p)) ?? (last.length >= 2 ? last[0]?.text : undefined);
  const published = parts.find((p) => PUBLISHED.test(p)) ?? (last.length >= 2 ? last[1]?.text : undefined);
  const card = finishCard(
    { videoId: lockup.id, title: lockup.title, thumbnails: lockup.thumbnails },
    lockup.badges.find((b) => parseDurationText(b.text) !== undefined)?.text,
    viewText,
    published,
  );
  const live = liveState(
    lockup.badges.flatMap((b) => [b.text, b.style]),
    published,
  );
  if (live) card.live = live;
  return card;
}

/** A {@link VideoCard} from `videoRenderer` / `gridVideoRenderer` (and the similar older renderers). */
export function rendererVideoCard(r: JsonObject): VideoCard | undefined {
  const videoId = str(r.videoId);
  if (!videoId) return undefined;
  const overlays = arr(r.thumbnailOverlays).map((o) => obj(at(o, 'thumbnailOverlayTimeStatusRenderer')));
  const timeStatus = overlays.find((o) => o !== undefined);
  const published = text(r.publishedTimeText);
  const card = finishCard(
    { videoId, title: text(r.title) ?? text(r.headline) ?? '', thumbnails: thumbnailsOf(r.thumbnail) },
    text(r.lengthText) ?? text(timeStatus?.text),
    text(r.viewCountText) ?? text(r.shortViewCountText),
    published,
  );
  const signals = [
    str(timeStatus?.style) ?? '',
    ...arr(r.badges).map((b) => str(at(b, 'metadataBadgeRenderer', 'style')) ?? ''),
    r.upcomingEventData ? 'UPCOMING' : '',
  ];
  const live = liveState(signals, published);
  if (live) card.live = live;
  return card;
}

/** A {@link VideoCard} from a `shortsLockupViewModel`. */
export function shortsVideoCard(s: JsonObject): VideoCard | undefined {
  const videoId =
    str(at(s, 'onTap', 'innertubeCommand', 'reelWatchEndpoint', 'videoId')) ??
    str(s.entityId)?.replace(/^shorts-shelf-item-/, '');
  if (!videoId) return undefined;
  const title =
    text(at(s, 'overlayMetadata', 'primaryText')) ?? str(s.accessibilityText)?.split(',')[0] ?? '';
  const thumbnails = thumbnailsOf(at(s, 'thumbnailViewModel', 'thumbnailViewModel', 'image'));
  return finishCard(
    { videoId, title, thumbnails },
    undefined,
    text(at(s, 'overlayMetadata', 'secondaryText')),
  );
}

/** A {@link VideoCard} from any video item renderer; undefined for other renderers. */
export function videoCard(item: JsonObject): VideoCard | undefined {
  const lockup = obj(item.lockupViewModel);
  if (lockup) {
    const l = readLockup(lockup);
    return l && (l.contentType === '' || l.contentType === 'LOCKUP_CONTENT_TYPE_VIDEO')
      ? lockupVideoCard(l)
      : undefined;
  }
  const shorts = obj(item.shortsLockupViewModel);
  if (shorts) return shortsVideoCard(shorts);
  const renderer = obj(item.videoRenderer) ?? obj(item.gridVideoRenderer) ?? obj(item.reelItemRenderer);
  return renderer ? rendererVideoCard(renderer) : undefined;
}

/** A {@link PlaylistCard} from a playlist `lockupViewModel`, `gridPlaylistRenderer` or `playlistRenderer`. */
export function playlistCard(item: JsonObject): PlaylistCard | undefined {
  const lockup = obj(item.lockupViewModel);
  if (lockup) {
    const l = readLockup(lockup);
    if (!l || !/PLAYLIST|PODCAST|ALBUM/.test(l.contentType)) return undefined;
    const countText = l.badges.find((b) => /\d/.test(b.text))?.text;
    return withCount({ playlistId: l.id, title: l.title, thumbnails: l.thumbnails }, countText);
  }
  const r = obj(item.gridPlaylistRenderer) ?? obj(item.playlistRenderer);
  const playlistId = str(r?.playlistId);
  if (!r || !playlistId) return undefined;
  const thumbnails = thumbnailsOf(
    r.thumbnail ??
      at(r, 'thumbnails', 0) ??
      at(r, 'thumbnailRenderer', 'playlistVideoThumbnailRenderer', 'thumbnail'),
  );
  const count = str(r.videoCount);
  const countText =
    text(r.videoCountText) ?? text(r.videoCountShortText) ?? (count ? `${count} videos` : undefined);
  return withCount({ playlistId, title: text(r.title) ?? '', thumbnails }, countText);
}

function withCount(card: PlaylistCard, countText: string | undefined): PlaylistCard {
  if (countText) {
    card.videoCountText = countText;
    const n = parseCompactNumber(countText);
    if (n !== undefined) card.videoCount = n;
  }
  return card;
}

/** Renderers a list may hold that carry no item (ads, messages, shelves we do not flatten). */
export const SKIPPED_RENDERERS: ReadonlySet<string> = new Set([
  'continuationItemRenderer',
  'continuationItemViewModel',
  'messageRenderer',
  'richSectionRenderer',
  'adSlotRenderer',
  'backgroundPromoRenderer',
  'chipBarViewModel',
  'feedFilterChipBarRenderer',
]);

/**
 * Maps items with `read` (which returns `null` for an item it knows but drops), collecting the
 * continuation token. Throws {@link ParseError} when items were present but none was understood
 * (layout drift: renamed renderers), instead of answering an empty page.
 */
export function mapItems<T>(
  items: JsonObject[],
  read: (item: JsonObject) => T | null | undefined,
  skipped: ReadonlySet<string> = SKIPPED_RENDERERS,
): { items: T[]; continuation?: string } {
  const out: { items: T[]; continuation?: string } = { items: [] };
  const unknown = new Set<string>();
  let dropped = 0;
  for (const item of items) {
    const token = continuationToken(item);
    if (token) out.continuation = token;
    const value = read(item);
    if (value === null) dropped++;
    else if (value !== undefined) out.items.push(value);
    else for (const key of Object.keys(item)) if (!skipped.has(key)) unknown.add(key);
  }
  if (out.items.length === 0 && dropped === 0 && unknown.size > 0) {
    throw new ParseError('items', `no known item renderer among: ${[...unknown].join(', ')}`);
  }
  return out;
}

/** Where a channel tab page comes from; continuation pages carry no channel metadata. */
export interface ChannelTabContext {
  channelId: string;
  channelTitle?: string;
  /** The tab requested: when the answer shows another tab (the channel has none), the page is empty. */
  tab?: ChannelTab;
}

function tabPage<T>(
  json: Json,
  ctx: ChannelTabContext,
  read: (item: JsonObject) => T | undefined,
): ChannelTabPage<T> {
  assertChannelExists(json);
  const meta = obj(at(json, 'metadata', 'channelMetadataRenderer'));
  const page: ChannelTabPage<T> = {
    channelId: str(meta?.externalId) ?? ctx.channelId,
    channelTitle: str(meta?.title) ?? ctx.channelTitle ?? '',
    items: [],
  };
  let raw = continuationItems(json);
  if (!raw) {
    const tabs = at(json, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs');
    if (!Array.isArray(tabs)) throw new ParseError('contents.twoColumnBrowseResultsRenderer.tabs');
    const selected = tabs.map((t) => obj(at(t, 'tabRenderer'))).find((t) => t?.selected === true);
    if (!selected)
      throw new ParseError('contents.twoColumnBrowseResultsRenderer.tabs[].tabRenderer.selected');
    if (ctx.tab && tabName(selected) !== ctx.tab) return page;
    const content = at(selected, 'content');
    raw = arr(at(content, 'richGridRenderer', 'contents') ?? at(content, 'sectionListRenderer', 'contents'));
  }
  const mapped = mapItems(flattenItems(raw), read);
  page.items = mapped.items;
  if (mapped.continuation) page.continuation = mapped.continuation;
  return page;
}

/**
 * A page of a channel's `videos`, `shorts` or `streams` tab, first page or continuation.
 * @throws ApiError `channel_not_found` for a removed channel; ParseError for unknown layouts.
 */
export function parseChannelVideos(json: Json, ctx: ChannelTabContext): ChannelTabPage<VideoCard> {
  return tabPage(json, ctx, videoCard);
}

/** A page of a channel's `playlists` tab, first page or continuation. */
export function parseChannelPlaylists(json: Json, ctx: ChannelTabContext): ChannelTabPage<PlaylistCard> {
  return tabPage(json, ctx, playlistCard);
}

/** Sort code inside a chip token → sort (videos/shorts 4/2/5, streams 12/14/13). */
const SORT_CODES: Readonly<Record<number, ChannelSort>> = {
  4: 'newest',
  2: 'popular',
  5: 'oldest',
  12: 'newest',
  14: 'popular',
  13: 'oldest',
};

/**
 * The sort a channel chip token requests, read from inside the token
 * (`{80226972:{3: b64({110:{3:{<tab>:{7|8:{3: SORT}}}}})}}`); language independent.
 */
export function sortOfChipToken(token: string): ChannelSort | undefined {
  const inner = protoString(protoMessage(decodeToken(token), 80226972), 3);
  const tabs = protoMessage(protoMessage(inner ? decodeToken(inner) : undefined, 110), 3) ?? [];
  for (const entry of tabs) {
    if (!(entry.value instanceof Uint8Array)) continue;
    const tab = decodeMessage(entry.value);
    for (const field of [8, 7]) {
      const code = protoField(protoMessage(tab, field), 3)?.value;
      if (typeof code === 'number' && SORT_CODES[code]) return SORT_CODES[code];
    }
  }
  return undefined;
}

function sortFromText(label: string | undefined): ChannelSort | undefined {
  if (!label) return undefined;
  if (/latest|newest/i.test(label)) return 'newest';
  if (/popular/i.test(label)) return 'popular';
  if (/oldest/i.test(label)) return 'oldest';
  return undefined;
}

/**
 * The continuation tokens of a video tab's sort chips (`chipBarViewModel` and the older
 * `feedFilterChipBarRenderer`): English labels first, else the sort code inside the token.
 */
export function sortChipTokens(page: Json): Partial<Record<ChannelSort, string>> {
  const scope = [at(page, 'contents'), at(page, 'onResponseReceivedActions')];
  const chips = [
    ...findAll(scope, 'chipViewModel').map((c) => ({
      label: str(c.text),
      token: str(at(c, 'tapCommand', 'innertubeCommand', 'continuationCommand', 'token')),
    })),
    ...findAll(scope, 'chipCloudChipRenderer').map((c) => ({
      label: text(c.text),
      token: str(at(c, 'navigationEndpoint', 'continuationCommand', 'token')),
    })),
  ];
  const out: Partial<Record<ChannelSort, string>> = {};
  for (const { label, token } of chips) {
    if (!token) continue;
    const sort = sortFromText(label) ?? sortOfChipToken(token);
    if (sort && out[sort] === undefined) out[sort] = token;
  }
  return out;
}
