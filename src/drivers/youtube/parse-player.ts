/**
 * The player response (VISIONOS / ANDROID / WEB `/player`, or the ANDROID reel endpoint's
 * `playerResponse`) → {@link PlayerData}: `videoDetails`, `microformat.playerMicroformatRenderer`
 * when present, and the caption tracks (youtube-protocol.md §2.3–2.4, §3).
 * @module
 */
import type { CaptionTrack, LiveState, PlayerData, Thumbnail } from '../../ports/upstream.ts';
import { arr, at, bool, num, obj, ParseError, required, str, text } from './json.ts';
import { classifyPlayability, playerResponseOf } from './playability.ts';

/** A parsed player response, with the caption tracks that need a PO token set apart. */
export interface PlayerParse {
  /** The video; `data.tracks` holds only the tracks usable without a PO token. */
  data: PlayerData;
  /** Tracks whose URL needs a PO token (`exp=xpe|xpv`): another player client may do better. */
  poTokenTracks: CaptionTrack[];
  /** Every track, in YouTube's order (usable ones and PO-gated ones): with a PO token at hand. */
  allTracks: CaptionTrack[];
}

const YOUTUBE = 'https://www.youtube.com';

/** `url` made absolute (`//host/…` → `https://host/…`, `/path` → `https://www.youtube.com/path`). */
function absolute(url: string): string {
  if (url.startsWith('//')) return `https:${url}`;
  if (url.startsWith('/')) return `${YOUTUBE}${url}`;
  return url;
}

/** The raw value of query parameter `name` in `url`, or undefined. */
function queryParam(url: string, name: string): string | undefined {
  const query = url.split('#', 1)[0]!.split('?')[1];
  if (query === undefined) return undefined;
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (key === name) return eq < 0 ? '' : pair.slice(eq + 1);
  }
  return undefined;
}

/** A percent-decoded query value (`+` as space); the raw value when it is malformed. */
function decode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

/** True when a caption URL needs a PO token: its `exp` parameter contains `xpe` or `xpv`. */
export function needsPoToken(url: string): boolean {
  const exp = queryParam(url, 'exp');
  return exp !== undefined && /xp[ev]/.test(exp);
}

/**
 * The timedtext URL for a track's `ref` (its baseUrl) in `format`: any `fmt`, `tlang` and `xosf`
 * are removed, `fmt=<format>` is appended, the other parameters keep their exact encoding (the
 * URL is signed). With `origin` (TUBESCRIBE_YOUTUBE_ORIGIN) the scheme and host are replaced by
 * the origin's scheme, host and port. With `tlang`, `tlang=<code>` asks YouTube for its machine
 * translation of the track into that language.
 */
export function timedTextUrl(
  ref: string,
  format: 'json3' | 'srv3' | 'srv1',
  origin?: string,
  tlang?: string,
): string {
  const url = absolute(ref);
  const hash = url.indexOf('#');
  const bare = hash < 0 ? url : url.slice(0, hash);
  const q = bare.indexOf('?');
  const base = q < 0 ? bare : bare.slice(0, q);
  const kept = (q < 0 ? [] : bare.slice(q + 1).split('&')).filter((pair) => {
    const key = pair.split('=', 1)[0];
    return pair !== '' && key !== 'fmt' && key !== 'tlang' && key !== 'xosf';
  });
  kept.push(`fmt=${format}`);
  if (tlang !== undefined) kept.push(`tlang=${encodeURIComponent(tlang)}`);
  let head = base;
  if (origin !== undefined) {
    const o = new URL(origin);
    head = base.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]+/i, `${o.protocol}//${o.host}`);
  }
  return `${head}?${kept.join('&')}`;
}

/** Thumbnails from a `{thumbnails:[{url,width,height}]}` object; entries without a URL dropped. */
export function thumbnailsOf(value: unknown): Thumbnail[] {
  const out: Thumbnail[] = [];
  for (const t of arr(at(value, 'thumbnails'))) {
    const url = str(at(t, 'url'));
    if (url === undefined || url === '') continue;
    out.push({ url: absolute(url), width: num(at(t, 'width')) ?? 0, height: num(at(t, 'height')) ?? 0 });
  }
  return out;
}

/** The index of the track YouTube plays by default: the default audio track's default caption. */
function defaultTrackIndex(list: Record<string, unknown>): number | undefined {
  const audio = arr(list.audioTracks);
  const chosen = obj(audio[num(list.defaultAudioTrackIndex) ?? 0]) ?? obj(audio[0]);
  if (!chosen || chosen.hasDefaultTrack === false) return undefined;
  return num(chosen.defaultCaptionTrackIndex);
}

/** The caption tracks of a player response, in YouTube's order; malformed entries skipped. */
function tracksOf(response: Record<string, unknown>): CaptionTrack[] {
  const list = obj(at(response, 'captions', 'playerCaptionsTracklistRenderer'));
  if (!list) return [];
  const defaultIndex = defaultTrackIndex(list);
  const out: CaptionTrack[] = [];
  arr(list.captionTracks).forEach((value, index) => {
    const t = obj(value);
    const baseUrl = str(t?.baseUrl);
    if (!t || baseUrl === undefined || baseUrl === '') return;
    const vssId = str(t.vssId) ?? '';
    const languageCode = str(t.languageCode) ?? vssId.replace(/^a?\./, '').split('.')[0] ?? '';
    if (languageCode === '') return;
    const urlVariant = queryParam(baseUrl, 'variant');
    const variant = str(t.trackName) || (urlVariant ? decode(urlVariant) : undefined);
    out.push({
      languageCode,
      name: text(t.name) ?? languageCode,
      kind: t.kind === 'asr' || vssId.startsWith('a.') ? 'asr' : 'manual',
      ...(variant ? { variant } : {}),
      isTranslatable: bool(t.isTranslatable) ?? false,
      isDefault: index === defaultIndex,
      ref: absolute(baseUrl),
    });
  });
  return out;
}

/** The translation targets of a player response's caption list; undefined without a list. */
function translationLanguagesOf(response: Record<string, unknown>): string[] | undefined {
  const list = obj(at(response, 'captions', 'playerCaptionsTracklistRenderer'));
  if (!list || !Array.isArray(list.translationLanguages)) return undefined;
  return arr(list.translationLanguages)
    .map((l) => str(at(l, 'languageCode')))
    .filter((code): code is string => code !== undefined && code !== '');
}

/** The live state from `videoDetails` flags, the status and the microformat's broadcast details. */
function liveOf(details: Record<string, unknown>, status: string, micro: unknown): LiveState {
  const broadcast = obj(at(micro, 'liveBroadcastDetails'));
  if (details.isLive === true || broadcast?.isLiveNow === true) return 'live';
  if (details.isUpcoming === true || status === 'LIVE_STREAM_OFFLINE') return 'upcoming';
  if (details.isLiveContent === true || broadcast !== undefined) return 'ended';
  return 'none';
}

/**
 * Parses a player response after {@link classifyPlayability} (which throws the API errors and
 * `WrongVideoError`). Tracks needing a PO token are returned apart in `poTokenTracks`.
 * Throws {@link ParseError} when `videoDetails` (or its channel id) is missing.
 */
export function parsePlayerResponse(player: unknown, requestedId: string): PlayerParse {
  classifyPlayability(player, requestedId);
  const response = playerResponseOf(player)!;
  const details = obj(response.videoDetails);
  if (!details) throw new ParseError('videoDetails');
  const micro = obj(at(response, 'microformat', 'playerMicroformatRenderer'));
  const status = str(at(response, 'playabilityStatus', 'status')) ?? '';
  const tracks = tracksOf(response);
  const data: PlayerData = {
    videoId: str(details.videoId) ?? requestedId,
    title: required(str(details.title) ?? text(micro?.title), 'videoDetails.title'),
    author: str(details.author) ?? str(micro?.ownerChannelName) ?? '',
    channelId: required(str(details.channelId) ?? str(micro?.externalChannelId), 'videoDetails.channelId'),
    description: str(details.shortDescription) ?? text(micro?.description) ?? '',
    lengthSeconds: num(details.lengthSeconds) ?? num(micro?.lengthSeconds) ?? 0,
    viewCount: num(details.viewCount) ?? num(micro?.viewCount) ?? 0,
    keywords: arr(details.keywords).filter((k): k is string => typeof k === 'string'),
    thumbnails: thumbnailsOf(details.thumbnail),
    live: liveOf(details, status, micro),
    tracks: tracks.filter((t) => !needsPoToken(t.ref)),
  };
  const targets = translationLanguagesOf(response);
  if (targets !== undefined && targets.length > 0) data.translationLanguages = targets;
  return { data, poTokenTracks: tracks.filter((t) => needsPoToken(t.ref)), allTracks: tracks };
}

/** {@link parsePlayerResponse} without the tracks that need a PO token. */
export function parsePlayer(player: unknown, requestedId: string): PlayerData {
  return parsePlayerResponse(player, requestedId).data;
}
