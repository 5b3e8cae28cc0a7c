/**
 * The WEB player's `microformat.playerMicroformatRenderer` (fetched with
 * `$fields=microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId`, or inside any WEB
 * player response): exact publish date, exact like count, category (youtube-protocol.md §3).
 * @module
 */
import type { VideoExtras } from '../../ports/upstream.ts';
import { arr, at, bool, num, obj, ParseError, str, text } from './json.ts';
import type { NextData } from './parse-next.ts';

/** What the microformat tells; every field optional (absent when YouTube leaves it out). */
export interface MicroformatData {
  videoId?: string;
  /** Unix seconds: `publishDate`, or the live start when the publish date has no time. */
  publishedAt?: number;
  /** Unix seconds of `uploadDate`. */
  uploadedAt?: number;
  /** Exact (absent when ratings are hidden). */
  likeCount?: number;
  viewCount?: number;
  lengthSeconds?: number;
  category?: string;
  title?: string;
  description?: string;
  channelId?: string;
  channelName?: string;
  isFamilySafe?: boolean;
  isUnlisted?: boolean;
  availableCountries?: string[];
  /** `liveBroadcastDetails`: live now, the (scheduled or actual) start and the end, unix seconds. */
  live?: { isLiveNow: boolean; start?: number; end?: number };
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Unix seconds of an ISO 8601 date as YouTube writes it: `2018-06-19T12:41:34-07:00`,
 * `2026-06-04T06:53:18+00:00`, `2023-02-27` (00:00 UTC). A time without offset is read as UTC.
 */
export function parseIsoDate(value: string): number | undefined {
  const m = ISO.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone = 'Z'] = m;
  const utc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)) / 1000;
  if (Number(mo) > 12 || Number(d) > 31 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59)
    return undefined;
  if (zone === 'Z') return utc;
  const digits = zone.replace(':', '');
  const offset = Number(digits.slice(1, 3)) * 3600 + Number(digits.slice(3, 5)) * 60;
  return zone.startsWith('-') ? utc + offset : utc - offset;
}

/** True when the string carries a time of day, not only a date. */
const hasTime = (value: string | undefined): boolean => value?.includes('T') === true;

/**
 * Parses the microformat of a WEB player response. A response without a microformat yields `{}`
 * (the extras then lack a publish date); a body that is not an object throws {@link ParseError}.
 */
export function parseMicroformat(player: unknown): MicroformatData {
  if (!obj(player)) throw new ParseError('microformat', 'player response is not a JSON object');
  const m = obj(at(player, 'microformat', 'playerMicroformatRenderer'));
  if (!m) return {};
  const out: MicroformatData = {};
  const videoId = str(m.externalVideoId) ?? str(at(player, 'videoDetails', 'videoId'));
  if (videoId !== undefined) out.videoId = videoId;
  const broadcast = obj(m.liveBroadcastDetails);
  const started = str(broadcast?.startTimestamp);
  const publish = str(m.publishDate) ?? str(m.uploadDate);
  const precise = hasTime(publish) || started === undefined ? publish : started;
  const publishedAt = precise === undefined ? undefined : parseIsoDate(precise);
  if (publishedAt !== undefined) out.publishedAt = publishedAt;
  const uploadedAt = str(m.uploadDate) === undefined ? undefined : parseIsoDate(str(m.uploadDate)!);
  if (uploadedAt !== undefined) out.uploadedAt = uploadedAt;
  const numbers = { likeCount: m.likeCount, viewCount: m.viewCount, lengthSeconds: m.lengthSeconds } as const;
  for (const [key, value] of Object.entries(numbers) as [keyof typeof numbers, unknown][]) {
    const n = num(value);
    if (n !== undefined) out[key] = n;
  }
  const strings = {
    category: str(m.category),
    title: text(m.title),
    description: text(m.description),
    channelId: str(m.externalChannelId),
    channelName: str(m.ownerChannelName),
  };
  for (const [key, value] of Object.entries(strings) as [keyof typeof strings, string | undefined][]) {
    if (value !== undefined) out[key] = value;
  }
  const familySafe = bool(m.isFamilySafe);
  if (familySafe !== undefined) out.isFamilySafe = familySafe;
  const unlisted = bool(m.isUnlisted);
  if (unlisted !== undefined) out.isUnlisted = unlisted;
  if (Array.isArray(m.availableCountries)) {
    out.availableCountries = arr(m.availableCountries).filter((c): c is string => typeof c === 'string');
  }
  if (broadcast) {
    const start = started === undefined ? undefined : parseIsoDate(started);
    const ended = str(broadcast.endTimestamp);
    const end = ended === undefined ? undefined : parseIsoDate(ended);
    out.live = {
      isLiveNow: broadcast.isLiveNow === true,
      ...(start === undefined ? {} : { start }),
      ...(end === undefined ? {} : { end }),
    };
  }
  return out;
}

/**
 * The port's {@link VideoExtras} from the two WEB answers: `/next` and the microformat. The
 * microformat's exact publish date and like count win; the next response's date line and
 * rounded like label are fallbacks.
 */
export function mergeVideoExtras(next: NextData, micro: MicroformatData): VideoExtras {
  const {
    videoId: _id,
    viewCount: _views,
    likeCountApproximate: _approx,
    dateText: _date,
    dateTextSeconds,
    ...extras
  } = next;
  const out: VideoExtras = { ...extras };
  const publishedAt = micro.publishedAt ?? dateTextSeconds;
  if (publishedAt !== undefined) out.publishedAt = publishedAt;
  const likeCount = micro.likeCount ?? next.likeCount;
  if (likeCount !== undefined) out.likeCount = likeCount;
  return out;
}
