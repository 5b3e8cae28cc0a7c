/**
 * Parsing of what clients pass as video, playlist and channel identifiers: bare IDs or YouTube
 * URLs. The URL reader is deliberately strict and does not use `new URL` (which maps full-width
 * and percent-encoded host names to ASCII and treats `\` as `/`): scheme and host must be plain
 * ASCII, the scheme http(s) or absent, the host one of {@link YOUTUBE_HOSTS}, with no user info
 * and no port. Only a handle, custom name or user name in a channel URL is percent-decoded.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { ChannelLocator } from '../ports/upstream.ts';

/** Longest input accepted, in UTF-16 code units. */
export const MAX_ID_INPUT_LENGTH = 2048;

/** The hosts a YouTube URL may name (compared case-insensitively). */
const YOUTUBE_HOSTS: readonly string[] = [
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtu.be',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
];

type IdErrorCode = 'invalid_video_id' | 'invalid_playlist_id' | 'invalid_channel_id';

const VIDEO_ID = /^[A-Za-z0-9_-]{11}$/;
const ID_CHARS = /^[A-Za-z0-9_-]+$/;
const CHANNEL_ID = /^UC[A-Za-z0-9_-]{22}$/;
const HANDLE = /^@[\p{L}\p{M}\p{Nd}_.\-·]{3,30}$/u;
const LEGACY_NAME = /^[\p{L}\p{M}\p{Nd}_.-]{1,100}$/u;
/** Real playlist ID shapes: PL+16 (legacy hex), PL+32, OLAK5uy_+33 (albums), UU/FL/LL/PU + a channel's 22, UUxx+22. */
const PLAYLIST_ID =
  /^(?:PL(?:[A-Za-z0-9_-]{16}|[A-Za-z0-9_-]{32})|OLAK5uy_[A-Za-z0-9_-]{33}|OL(?!AK5uy_)[A-Za-z0-9_-]{10,62}|(?:UU[A-Z]{2}|UU|FL|LL|PU)[A-Za-z0-9_-]{22})$/;
const VIDEO_PATH = /^\/(?:shorts|embed|live|v)\/([^/]+)\/?$/;
// Whitespace (ASCII and Unicode), C0/C1 controls, line/paragraph separators, BOM.
const SPACE_OR_CONTROL = /[\s\p{Cc}]/u;

/** A YouTube URL split into its parts; `query` values are raw (not percent-decoded). */
interface YouTubeUrl {
  host: string;
  /** The raw path, `''` or starting with `/`. */
  path: string;
  /** The non-empty path segments (`['shorts', 'ID']`). */
  segments: string[];
  query: Map<string, string[]>;
}

/** A short, quoted, escaped echo of client input for error messages (at most ~60 characters). */
function show(text: string): string {
  let out = '';
  for (const ch of text.slice(0, 100)) {
    const piece = /\p{C}/u.test(ch)
      ? `\\u{${ch.codePointAt(0)!.toString(16)}}`
      : JSON.stringify(ch).slice(1, -1);
    if (out.length + piece.length > 60) return `"${out}…"`;
    out += piece;
  }
  return `"${out}"`;
}

function fail(code: IdErrorCode, message: string): never {
  throw new ApiError(code, message);
}

/** Checks length and characters, trims surrounding ASCII whitespace (copy-paste). */
function prepare(input: string, code: IdErrorCode, what: string): string {
  if (typeof input !== 'string') fail(code, `${what} must be a string.`);
  if (input.length > MAX_ID_INPUT_LENGTH) {
    fail(code, `${what} is too long (${input.length} characters, at most ${MAX_ID_INPUT_LENGTH}).`);
  }
  const text = input.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
  if (text === '') fail(code, `${what} is empty.`);
  if (SPACE_OR_CONTROL.test(text))
    fail(code, `${what} ${show(text)} contains whitespace or control characters.`);
  return text;
}

/** True when `text` has the form of a URL rather than a bare identifier. */
function looksLikeUrl(text: string): boolean {
  return /[/:.?]/.test(text);
}

/** Splits a URL with the strict rules above; throws `code` for anything else. */
function readUrl(text: string, code: IdErrorCode, what: string): YouTubeUrl {
  let rest = text;
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(rest);
  if (scheme !== null) {
    const name = scheme[1]!.toLowerCase();
    if (name !== 'http' && name !== 'https') {
      fail(code, `${what}: only http and https YouTube URLs are accepted, got ${show(text)}.`);
    }
    rest = rest.slice(scheme[0].length);
    if (!rest.startsWith('//')) fail(code, `${what}: malformed URL ${show(text)}.`);
  }
  if (rest.startsWith('//')) rest = rest.slice(2);
  const end = rest.search(/[/?#]/);
  const authority = end < 0 ? rest : rest.slice(0, end);
  const after = end < 0 ? '' : rest.slice(end);
  if (!/^[\x21-\x7e]*$/.test(authority)) {
    fail(code, `${what}: the host name contains non-ASCII characters (look-alike hosts are refused).`);
  }
  if (authority.includes('@')) fail(code, `${what}: URLs with user info (user@host) are not accepted.`);
  if (authority.includes(':')) fail(code, `${what}: URLs with a port are not accepted.`);
  const host = authority.toLowerCase();
  if (!YOUTUBE_HOSTS.includes(host)) fail(code, `${what}: ${show(authority)} is not a YouTube host.`);
  const hash = after.indexOf('#');
  const beforeHash = hash < 0 ? after : after.slice(0, hash);
  const q = beforeHash.indexOf('?');
  const path = q < 0 ? beforeHash : beforeHash.slice(0, q);
  const query = new Map<string, string[]>();
  if (q >= 0) {
    for (const pair of beforeHash.slice(q + 1).split('&')) {
      const eq = pair.indexOf('=');
      const key = eq < 0 ? pair : pair.slice(0, eq);
      const values = query.get(key) ?? [];
      values.push(eq < 0 ? '' : pair.slice(eq + 1));
      query.set(key, values);
    }
  }
  return { host, path, segments: path.split('/').filter((s) => s !== ''), query };
}

/** The single distinct value of a query parameter; absent → undefined; conflicting → error. */
function param(url: YouTubeUrl, name: string, code: IdErrorCode, what: string): string | undefined {
  const values = new Set(url.query.get(name));
  if (values.size > 1) fail(code, `${what}: the URL has several different "${name}" parameters.`);
  return values.values().next().value;
}

function isYouTubeCom(host: string): boolean {
  return host === 'youtube.com' || host.endsWith('.youtube.com');
}

/**
 * The 11-character video ID named by `input`: a bare ID, or a YouTube URL (`watch?v=`, `youtu.be/`,
 * `/shorts/`, `/embed/`, `/live/`, `/v/`, on youtube.com, www., m., music., youtube-nocookie.com),
 * with or without `http(s)://`. Throws `ApiError('invalid_video_id')` for anything else.
 */
export function parseVideoId(input: string): string {
  const code = 'invalid_video_id';
  const what = 'video_id';
  const text = prepare(input, code, what);
  if (VIDEO_ID.test(text)) return text;
  if (ID_CHARS.test(text)) {
    fail(code, `A video ID has exactly 11 characters of A-Z a-z 0-9 _ -; ${show(text)} has ${text.length}.`);
  }
  if (!looksLikeUrl(text)) fail(code, `${show(text)} is not a video ID or a YouTube video URL.`);
  const url = readUrl(text, code, what);
  let candidate: string | undefined;
  if (url.host === 'youtu.be') {
    candidate = /^\/([^/]+)\/?$/.exec(url.path)?.[1];
  } else if (url.host.endsWith('youtube-nocookie.com')) {
    candidate = /^\/embed\/([^/]+)\/?$/.exec(url.path)?.[1];
  } else if (url.path === '/watch' || url.path === '/watch/') {
    candidate = param(url, 'v', code, what);
  } else {
    candidate = VIDEO_PATH.exec(url.path)?.[1];
  }
  if (candidate === undefined) fail(code, `No video ID found in the URL ${show(text)}.`);
  if (!VIDEO_ID.test(candidate))
    fail(code, `The URL holds ${show(candidate)}, which is not an 11-character video ID.`);
  return candidate;
}

/** Validates a bare playlist ID (mixes refused with their own message). */
function checkPlaylistId(id: string): string {
  const code = 'invalid_playlist_id';
  if (id.startsWith('RD')) {
    fail(code, `${show(id)} is a YouTube mix (RD…); mixes are generated per viewer and are not supported.`);
  }
  if (!PLAYLIST_ID.test(id)) {
    fail(code, `${show(id)} is not a playlist ID (PL…, UU…, OLAK5uy_…, FL…, LL…, PU…, OL…).`);
  }
  return id;
}

/**
 * The playlist ID named by `input`: a bare ID (`PL…`, `UU…`, `UUSH…`, `OLAK5uy_…`, `FL…`, `LL…`,
 * `PU…`, `OL…`) or a YouTube URL with a `list` parameter (`/playlist`, `/watch`, `/embed/…`,
 * `youtu.be/…`). Mixes (`RD…`) and anything else throw `ApiError('invalid_playlist_id')`.
 */
export function parsePlaylistId(input: string): string {
  const code = 'invalid_playlist_id';
  const what = 'playlist id';
  const text = prepare(input, code, what);
  if (ID_CHARS.test(text)) return checkPlaylistId(text);
  if (!looksLikeUrl(text)) fail(code, `${show(text)} is not a playlist ID or a YouTube playlist URL.`);
  const url = readUrl(text, code, what);
  const first = url.segments[0];
  const pathOk =
    url.host === 'youtu.be' ||
    first === 'embed' ||
    (isYouTubeCom(url.host) && (first === 'playlist' || first === 'watch') && url.segments.length === 1);
  const list = pathOk ? param(url, 'list', code, what) : undefined;
  if (list === undefined || list === '')
    fail(code, `No playlist ID (list=…) found in the URL ${show(text)}.`);
  if (!ID_CHARS.test(list)) fail(code, `The URL holds ${show(list)}, which is not a playlist ID.`);
  return checkPlaylistId(list);
}

/** Percent-decodes one path segment; malformed escapes fail. */
function decodeSegment(segment: string, what: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return fail('invalid_channel_id', `${what}: malformed percent-encoding in ${show(segment)}.`);
  }
}

/**
 * How `input` names a channel: a `UC…` ID, an `@handle` (3–30 letters of any script, digits, `·`,
 * `_`, `-`, `.`; the `@` is kept), or a YouTube URL `/channel/UC…`, `/@handle`, `/c/name`,
 * `/user/name` (further path segments such as `/videos` are ignored). Anything else throws
 * `ApiError('invalid_channel_id')`. A bare name without `@` is refused: it would be ambiguous.
 */
export function parseChannel(input: string): ChannelLocator {
  const code = 'invalid_channel_id';
  const what = 'channel id';
  const text = prepare(input, code, what);
  if (CHANNEL_ID.test(text)) return { kind: 'id', id: text };
  if (text.startsWith('@')) {
    if (HANDLE.test(text)) return { kind: 'handle', handle: text };
    fail(code, `${show(text)} is not a valid handle (@ and 3–30 letters, digits, _, - or .).`);
  }
  if (!looksLikeUrl(text)) {
    fail(code, `${show(text)} is not a channel ID (UC…), an @handle or a YouTube channel URL.`);
  }
  const url = readUrl(text, code, what);
  if (!isYouTubeCom(url.host)) fail(code, `${show(text)} is not a YouTube channel URL.`);
  const [first, second] = url.segments;
  if (first === 'channel' && second !== undefined && CHANNEL_ID.test(second))
    return { kind: 'id', id: second };
  if (first?.startsWith('@')) {
    const handle = decodeSegment(first, what);
    if (HANDLE.test(handle)) return { kind: 'handle', handle };
  } else if ((first === 'c' || first === 'user') && second !== undefined) {
    const name = decodeSegment(second, what);
    if (LEGACY_NAME.test(name)) return first === 'c' ? { kind: 'custom', name } : { kind: 'user', name };
  }
  return fail(
    code,
    `No channel (/channel/UC…, /@handle, /c/name, /user/name) found in the URL ${show(text)}.`,
  );
}
