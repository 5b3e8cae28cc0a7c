/**
 * The channel feed (`/feeds/videos.xml?channel_id=UC…`, the 15 newest uploads) → video cards,
 * through a tiny tolerant XML reader: elements, attributes, text and CDATA, entities decoded,
 * comments / processing instructions / doctype skipped, stray closing tags ignored.
 * @module
 */
import { ApiError } from '../../errors.ts';
import type { Thumbnail, VideoCard } from '../../ports/upstream.ts';
import { ParseError } from './json.ts';

/** One XML element. */
export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  /** The element's own text (not its children's), entities decoded. */
  text: string;
}

const NAMED: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes the five XML entities and numeric character references; unknown entities stay as written. */
export function decodeEntities(input: string): string {
  return input.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, ref: string) => {
    if (ref[0] !== '#') return NAMED[ref.toLowerCase()] ?? whole;
    const code = ref[1] === 'x' || ref[1] === 'X' ? Number.parseInt(ref.slice(2), 16) : Number(ref.slice(1));
    return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<![^>]*>|<\/\s*([^\s>]+)\s*>|<([^\s/>!?]+)((?:\s+[^\s=/>]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+))?)*)\s*(\/?)>|([^<]+)/g;
const ATTR = /([^\s=/>]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;

/** Parses a document into a synthetic root element whose children are the top-level elements. */
export function parseXml(xml: string): XmlElement {
  const root: XmlElement = { name: '#root', attrs: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  for (const m of xml.matchAll(TOKEN)) {
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) top.text += m[1];
    else if (m[6] !== undefined) top.text += decodeEntities(m[6]);
    else if (m[2] !== undefined) {
      const index = stack.findLastIndex((e) => e.name === m[2]);
      if (index > 0) stack.length = index;
    } else if (m[3] !== undefined) {
      const attrs: Record<string, string> = {};
      for (const a of (m[4] ?? '').matchAll(ATTR)) attrs[a[1]!] = decodeEntities(a[2] ?? a[3] ?? a[4] ?? '');
      const element: XmlElement = { name: m[3], attrs, children: [], text: '' };
      top.children.push(element);
      if (m[5] !== '/') stack.push(element);
    }
  }
  return root;
}

/** The first child element named `name`. */
export function child(element: XmlElement | undefined, name: string): XmlElement | undefined {
  return element?.children.find((c) => c.name === name);
}

/** The channel feed, parsed. */
export interface ChannelFeed {
  channelId: string;
  title: string;
  /** Newest first, as the feed lists them. */
  videos: VideoCard[];
}

function entryCard(entry: XmlElement): VideoCard | undefined {
  const videoId =
    child(entry, 'yt:videoId')?.text.trim() ??
    child(entry, 'id')
      ?.text.trim()
      .replace(/^yt:video:/, '');
  if (!videoId) return undefined;
  const group = child(entry, 'media:group');
  const thumbnails: Thumbnail[] = [];
  for (const t of group?.children ?? []) {
    if (t.name !== 'media:thumbnail' || !t.attrs.url) continue;
    thumbnails.push({
      url: t.attrs.url,
      width: Number(t.attrs.width) || 0,
      height: Number(t.attrs.height) || 0,
    });
  }
  const card: VideoCard = {
    videoId,
    title: (child(entry, 'title') ?? child(group, 'media:title'))?.text.trim() ?? '',
    thumbnails,
  };
  const published = Date.parse(child(entry, 'published')?.text.trim() ?? '');
  if (Number.isFinite(published)) card.publishedAt = Math.floor(published / 1000);
  const views = child(child(group, 'media:community'), 'media:statistics')?.attrs.views;
  if (views !== undefined && /^\d+$/.test(views)) card.viewCount = Number(views);
  return card;
}

/**
 * The channel id, title and videos of a channel feed.
 * @param context.status the HTTP status, when known: 404 is a removed or unknown channel.
 * @throws ApiError `channel_not_found` for a 404 (status or Google's HTML error page).
 * @throws ParseError when the body is not an Atom feed.
 */
export function parseChannelFeed(xml: string, context: { status?: number } = {}): ChannelFeed {
  const notFoundPage = !xml.includes('<feed') && /<title>\s*Error 404/i.test(xml);
  if (context.status === 404 || notFoundPage) throw new ApiError('channel_not_found', 'Channel not found.');
  const feed = child(parseXml(xml), 'feed');
  if (!feed) throw new ParseError('feed');
  const entries = feed.children.filter((c) => c.name === 'entry');
  // The feed-level yt:channelId lacks the "UC" prefix; links and entries carry the full id.
  const links = [
    child(child(feed, 'author'), 'uri')?.text ?? '',
    ...feed.children.filter((c) => c.name === 'link').map((l) => l.attrs.href ?? ''),
    ...entries.map((e) => child(e, 'yt:channelId')?.text ?? ''),
  ];
  const bare = child(feed, 'yt:channelId')?.text.trim();
  const channelId =
    links.map((l) => /(UC[\w-]{22})/.exec(l)?.[1]).find(Boolean) ??
    (bare && /^[\w-]{22}$/.test(bare) ? `UC${bare}` : bare);
  if (!channelId) throw new ParseError('feed.yt:channelId');
  return {
    channelId,
    title: child(feed, 'title')?.text.trim() ?? '',
    videos: entries.flatMap((e) => entryCard(e) ?? []),
  };
}
