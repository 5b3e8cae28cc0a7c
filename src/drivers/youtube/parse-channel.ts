/**
 * A channel's `browse` answer → {@link ChannelProfile}: the 2024+ `pageHeaderRenderer` /
 * `pageHeaderViewModel` header and the older `c4TabbedHeaderRenderer`, plus
 * `metadata.channelMetadataRenderer`, `microformat` and the tab list. Also the helpers every
 * browse parser shares: compact numbers ("25M", "1,2 Mio."), thumbnails, error alerts, tab names.
 * @module
 */
import { ApiError } from '../../errors.ts';
import type { ChannelProfile, Thumbnail } from '../../ports/upstream.ts';
import { arr, at, findAll, type Json, type JsonObject, num, obj, ParseError, str, text } from './json.ts';
import { innertubeError, isNotFoundError } from './parse-resolve.ts';
import { decodeToken, protoString } from './protobuf.ts';

/** Suffix word → multiplier. English first, plus the common European and CJK abbreviations. */
const MULTIPLIERS: ReadonlyMap<string, number> = new Map([
  ...['k', 'thousand', 'thousands', 'tsd', 'mil', 'tys', 'тыс', '천'].map((w) => [w, 1e3] as const),
  ...['万', '萬', '만'].map((w) => [w, 1e4] as const),
  ...[
    'm',
    'mn',
    'mio',
    'mln',
    'mill',
    'mi',
    'million',
    'millions',
    'millón',
    'millones',
    'milhões',
    'млн',
  ].map((w) => [w, 1e6] as const),
  ...['億', '亿', '억'].map((w) => [w, 1e8] as const),
  ...['b', 'bn', 'bi', 'md', 'mrd', 'billion', 'billions', 'milliard', 'milliards', 'млрд'].map(
    (w) => [w, 1e9] as const,
  ),
]);

/**
 * A count from YouTube's display text: `"1,545,374 views"`, `"25M subscribers"`,
 * `"5.04m subscribers"`, `"25 million subscribers"`, `"1,2 Mio. Abonnenten"`, `"1.234.567"`,
 * `"12 k"`, `"No views"` (0). Approximate when the text is abbreviated. Undefined without a number.
 */
export function parseCompactNumber(input: string): number | undefined {
  const match = /(\d(?:[\d.,'\u00a0\u202f\u2009 ]*\d)?)\s*([\p{L}]*)/u.exec(input);
  if (!match) return /^\s*no\b/i.test(input) ? 0 : undefined;
  const word = (match[2] ?? '').toLowerCase();
  const multiplier =
    MULTIPLIERS.get(word) ?? (/^[万萬만億亿억천]/.test(word) ? MULTIPLIERS.get(word[0]!) : 1) ?? 1;
  const digits = match[1]!.replace(/['\u00a0\u202f\u2009 ]/g, '');
  const lastDot = digits.lastIndexOf('.');
  const lastComma = digits.lastIndexOf(',');
  let normal: string;
  if (lastDot >= 0 && lastComma >= 0) {
    // Both kinds: the last one is the decimal separator ("1,234.5", "1.234,5").
    const cut = Math.max(lastDot, lastComma);
    normal = `${digits.slice(0, cut).replace(/[.,]/g, '')}.${digits.slice(cut + 1)}`;
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const parts = digits.split(sep);
    const grouping = parts.length > 2 || (multiplier === 1 && parts[1]!.length === 3);
    normal = grouping ? parts.join('') : `${parts[0]}.${parts[1]}`;
  } else {
    normal = digits;
  }
  const value = Number(normal);
  return Number.isFinite(value) ? Math.round(value * multiplier) : undefined;
}

/** A subscriber count from "25M subscribers", "25 million subscribers", "1.2K", … (approximate). */
export function parseSubscriberCount(input: string): number | undefined {
  return parseCompactNumber(input);
}

/** Copies the defined `values` onto `target` (optional properties are omitted, never `undefined`). */
export function assignDefined<T extends object>(target: T, values: { [K in keyof T]?: T[K] | undefined }): T {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) (target as Record<string, unknown>)[key] = value;
  }
  return target;
}

/** Thumbnails from `{thumbnails:[…]}`, `{sources:[…]}` or a plain list; protocol-relative URLs fixed. */
export function thumbnailsOf(value: Json): Thumbnail[] {
  const list = Array.isArray(value) ? value : arr(at(value, 'thumbnails') ?? at(value, 'sources'));
  const out: Thumbnail[] = [];
  for (const item of list) {
    const url = str(at(item, 'url'));
    if (!url) continue;
    out.push({
      url: url.startsWith('//') ? `https:${url}` : url,
      width: num(at(item, 'width')) ?? 0,
      height: num(at(item, 'height')) ?? 0,
    });
  }
  return out;
}

/** The text of the first `ERROR` alert of a browse answer (`""` when it has none), or undefined. */
export function errorAlert(json: Json): string | undefined {
  for (const alert of arr(at(json, 'alerts'))) {
    const body = obj(at(alert, 'alertRenderer')) ?? obj(at(alert, 'alertWithButtonRenderer'));
    if (body && str(body.type) === 'ERROR') return text(body.text) ?? '';
  }
  return undefined;
}

/** Throws `channel_not_found` for the error bodies and alert-only pages of a missing channel. */
export function assertChannelExists(json: Json): void {
  const error = innertubeError(json);
  if (error) {
    if (isNotFoundError(error)) throw new ApiError('channel_not_found', 'Channel not found.');
    throw new ParseError('error', `browse answered ${error.code} ${error.status}`);
  }
  const alert = errorAlert(json);
  if (
    alert !== undefined &&
    at(json, 'contents') === undefined &&
    at(json, 'onResponseReceivedActions') === undefined
  ) {
    throw new ApiError('channel_not_found', 'Channel not found or no longer available.', {
      details: { reason: alert },
    });
  }
}

const TAB_ALIASES: Readonly<Record<string, string>> = {
  featured: 'home',
  community: 'posts',
  live: 'streams',
};

/**
 * The normalised name of a `tabRenderer`: from its browse params (field 2 is the tab's path
 * name, language independent), else its URL, else its title. `featured` → `home`,
 * `community` → `posts`, `live` → `streams`.
 */
export function tabName(tab: Json): string | undefined {
  const params = str(at(tab, 'endpoint', 'browseEndpoint', 'params'));
  const fromParams = params ? protoString(decodeToken(params), 2) : undefined;
  const url = str(at(tab, 'endpoint', 'commandMetadata', 'webCommandMetadata', 'url'));
  const fromUrl = url ? /\/([a-z]+)\/?(?:\?.*)?$/.exec(url)?.[1] : undefined;
  const name = (fromParams || fromUrl || text(at(tab, 'title')))?.toLowerCase();
  return name ? (TAB_ALIASES[name] ?? name) : undefined;
}

/** The link a `urlEndpoint` opens, with YouTube's `/redirect?q=` wrapper removed. */
export function unwrapRedirect(url: string): string {
  try {
    const parsed = new URL(url, 'https://www.youtube.com');
    const target = parsed.pathname === '/redirect' ? parsed.searchParams.get('q') : null;
    return target ?? url;
  } catch {
    return url;
  }
}

function uniqueByUrl(list: Thumbnail[]): Thumbnail[] {
  const seen = new Set<string>();
  return list.filter((t) => !seen.has(t.url) && seen.add(t.url)).sort((a, b) => a.width - b.width);
}

interface HeaderParts {
  title?: string;
  handle?: string;
  description?: string;
  subscriberText?: string;
  videosText?: string;
  verified: boolean;
  avatars: Thumbnail[];
  banners: Thumbnail[];
  links: string[];
}

const VERIFIED_IMAGES = /CHECK_CIRCLE|AUDIO_BADGE|OFFICIAL_ARTIST/;

function fromPageHeader(vm: JsonObject): HeaderParts {
  const parts: string[] = [];
  for (const row of arr(at(vm, 'metadata', 'contentMetadataViewModel', 'metadataRows'))) {
    for (const part of arr(at(row, 'metadataParts'))) {
      const t = text(at(part, 'text'));
      if (t) parts.push(t);
    }
  }
  const handle = parts.find((p) => p.startsWith('@'));
  const numeric = parts.filter((p) => p !== handle && /\d/.test(p));
  const subscriberText = numeric.find((p) => /subscriber/i.test(p)) ?? numeric.find((p) => !/video/i.test(p));
  const videosText = numeric.find((p) => /video/i.test(p)) ?? numeric.find((p) => p !== subscriberText);
  const images = findAll(at(vm, 'title'), 'clientResource').map((r) => str(r.imageName) ?? '');
  const out: HeaderParts = {
    verified: images.some((name) => VERIFIED_IMAGES.test(name)),
    avatars: thumbnailsOf(at(vm, 'image', 'decoratedAvatarViewModel', 'avatar', 'avatarViewModel', 'image')),
    banners: thumbnailsOf(at(vm, 'banner', 'imageBannerViewModel', 'image')),
    links: findAll(at(vm, 'attribution'), 'urlEndpoint').flatMap((e) => str(e.url) ?? []),
  };
  const title = text(at(vm, 'title', 'dynamicTextViewModel', 'text'));
  const description = text(at(vm, 'description', 'descriptionPreviewViewModel', 'description'));
  if (title) out.title = title;
  if (handle) out.handle = handle;
  if (description) out.description = description.trim();
  if (subscriberText) out.subscriberText = subscriberText;
  if (videosText) out.videosText = videosText;
  return out;
}

function fromC4(header: JsonObject): HeaderParts {
  const badges = arr(header.badges).map((b) => str(at(b, 'metadataBadgeRenderer', 'style')) ?? '');
  const out: HeaderParts = {
    verified: badges.some((s) => s.startsWith('BADGE_STYLE_TYPE_VERIFIED')),
    avatars: thumbnailsOf(header.avatar),
    banners: thumbnailsOf(header.banner),
    links: findAll(header.headerLinks, 'urlEndpoint').flatMap((e) => str(e.url) ?? []),
  };
  const title = text(header.title);
  const handle = text(header.channelHandleText);
  const subscriberText = text(header.subscriberCountText);
  const videosText = text(header.videosCountText);
  if (title) out.title = title;
  if (handle?.startsWith('@')) out.handle = handle;
  if (subscriberText) out.subscriberText = subscriberText;
  if (videosText) out.videosText = videosText;
  return out;
}

/**
 * A channel's profile from its `browse` answer (any tab).
 * @throws ApiError `channel_not_found` for a terminated/removed channel (alerts, no contents) or
 *   the 400/404 error bodies.
 * @throws ParseError when neither the metadata nor a header names the channel.
 */
export function parseChannel(json: Json, context: { channelId?: string } = {}): ChannelProfile {
  assertChannelExists(json);
  const meta = obj(at(json, 'metadata', 'channelMetadataRenderer'));
  const micro = obj(at(json, 'microformat', 'microformatDataRenderer'));
  const pageHeader = obj(at(json, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const c4 = obj(at(json, 'header', 'c4TabbedHeaderRenderer'));
  const header: HeaderParts = pageHeader
    ? fromPageHeader(pageHeader)
    : c4
      ? fromC4(c4)
      : { verified: false, avatars: [], banners: [], links: [] };

  const canonical = str(micro?.urlCanonical);
  const channelId =
    str(meta?.externalId) ??
    str(c4?.channelId) ??
    canonical?.match(/\/channel\/(UC[\w-]+)/)?.[1] ??
    context.channelId;
  if (!channelId) throw new ParseError('metadata.channelMetadataRenderer.externalId');
  const title = str(meta?.title) ?? header.title ?? str(micro?.title);
  if (title === undefined) throw new ParseError('metadata.channelMetadataRenderer.title');

  const vanity = str(meta?.vanityChannelUrl);
  const vanityPath = vanity ? /youtube\.com\/(.+)$/.exec(vanity)?.[1] : undefined;
  const handle = header.handle ?? (vanityPath?.startsWith('@') ? decodeURIComponent(vanityPath) : undefined);
  const profile: ChannelProfile = {
    channelId,
    title,
    description: str(meta?.description) ?? header.description ?? str(micro?.description) ?? '',
    verified: header.verified,
    avatars: uniqueByUrl([...header.avatars, ...thumbnailsOf(at(meta, 'avatar'))]),
    banners: uniqueByUrl(header.banners),
    links: [...new Set(header.links.map(unwrapRedirect))],
    tabs: arr(at(json, 'contents', 'twoColumnBrowseResultsRenderer', 'tabs')).flatMap((t) => {
      const tab = obj(at(t, 'tabRenderer'));
      return (tab && tabName(tab)) || [];
    }),
  };
  if (handle) profile.handle = handle;
  if (vanityPath && !vanityPath.startsWith('channel/')) profile.customUrl = decodeURIComponent(vanityPath);
  if (header.subscriberText) {
    profile.subscriberCountText = header.subscriberText;
    const count = parseSubscriberCount(header.subscriberText);
    if (count !== undefined) profile.subscriberCount = count;
  }
  const videoCount = header.videosText ? parseCompactNumber(header.videosText) : undefined;
  if (videoCount !== undefined) profile.videoCount = videoCount;
  return profile;
}
