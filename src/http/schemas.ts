/**
 * valibot schemas shared by the route modules, with the contract's aliases normalised at the edge
 * (decisions.md): `words` → `word_timestamps`, `auto` → `*`, `date` → `upload_date`,
 * `continuation` → `cursor`, `country` → `gl`.
 * @module
 */
import * as v from 'valibot';
import { parseChannel, parsePlaylistId, parseVideoId } from '../core/ids.ts';
import { TRANSCRIPT_FORMATS, type TranscriptFormat } from '../core/render/index.ts';
import { TRACK_POLICIES, type TrackPolicy } from '../core/tracks.ts';
import type { ChannelLocator } from '../ports/upstream.ts';
import { oneOf, text } from './validate.ts';

/** A video ID or any YouTube video URL → the 11-character ID (`invalid_video_id` otherwise). */
export const videoId: v.GenericSchema<string, string> = v.pipe(
  v.string('expected a video ID or URL'),
  v.metadata({
    minLength: 1,
    maxLength: 2048,
    description: 'An 11-character video ID, or a YouTube video URL (watch, youtu.be, shorts, embed, live)',
    examples: ['rCAS2eD-mcw'],
  }),
  v.transform((s) => parseVideoId(s)),
) as v.GenericSchema<string, string>;

/** A playlist ID or URL → the ID (`invalid_playlist_id` otherwise). */
export const playlistId: v.GenericSchema<string, string> = v.pipe(
  v.string('expected a playlist ID or URL'),
  v.metadata({
    minLength: 2,
    maxLength: 2048,
    description: 'A playlist ID (PL…, UU…, OLAK5uy_…) or a percent-encoded playlist URL',
    examples: ['PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI'],
  }),
  v.transform((s) => parsePlaylistId(s)),
) as v.GenericSchema<string, string>;

/** A channel `UC…` ID, `@handle` or URL → a locator (`invalid_channel_id` otherwise). */
export const channel: v.GenericSchema<string, ChannelLocator> = v.pipe(
  v.string('expected a channel ID, @handle or URL'),
  v.metadata({
    minLength: 2,
    maxLength: 2048,
    description:
      'A channel ID (UC + 22 characters), an @handle (3 to 30 characters after the @) or a percent-encoded channel URL',
    examples: ['UCuAXFkgsw1L7xaCfnd5JJOw', '@YouTube'],
  }),
  v.transform((s) => parseChannel(s)),
) as v.GenericSchema<string, ChannelLocator>;

/** The transcript formats, `words` accepted as an alias of `word_timestamps`. */
export const format: v.GenericSchema<string, TranscriptFormat> = oneOf(TRANSCRIPT_FORMATS, {
  words: 'word_timestamps',
});

/** Track policies. */
export const trackPolicy: v.GenericSchema<string, TrackPolicy> = oneOf(TRACK_POLICIES);

/** One language code (or `*` / `auto`, normalised to `*`). */
const languageCode = v.pipe(
  v.string('expected a language code'),
  v.transform((s) => s.trim()),
  v.check(
    (s) => s === '*' || s.toLowerCase() === 'auto' || /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(s),
    'expected language codes like en, en-GB, * or auto',
  ),
  v.transform((s) => (s.toLowerCase() === 'auto' ? '*' : s)),
);

/** A `translate_to` target: one concrete language code (no `*`), e.g. `de`, `pt-BR`, `zh-Hans`. */
export const translateTo: v.GenericSchema<string, string> = v.pipe(
  v.string('expected a language code'),
  v.transform((s) => s.trim()),
  v.check(
    (s) => /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/.test(s),
    'expected a language code like de, pt-BR or zh-Hans',
  ),
) as v.GenericSchema<string, string>;

/** A list of languages (POST body). */
export const languageList: v.GenericSchema<string[], string[]> = v.pipe(
  v.array(languageCode, 'expected an array of language codes'),
  v.minLength(1, 'expected at least one language code'),
  v.maxLength(20, 'expected at most 20 language codes'),
) as v.GenericSchema<string[], string[]>;

/** A comma-separated list of languages (query string). */
export const languageCsv: v.GenericSchema<string, string[]> = v.pipe(
  v.string('expected comma-separated language codes'),
  v.transform((s) =>
    s
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== ''),
  ),
  languageList,
) as v.GenericSchema<string, string[]>;

/** An opaque cursor. */
export const cursor: v.GenericSchema<string, string> = v.pipe(
  v.string('expected a cursor'),
  v.metadata({
    minLength: 1,
    maxLength: 8192,
    pattern: '^\\s*[A-Za-z0-9_-]+\\s*$',
    description: "Opaque: a previous page's `next_cursor`",
  }),
  text(8192, 'a cursor'),
) as v.GenericSchema<string, string>;

/** `gl` (country) and `hl` (language) hints. */
export const countryCode: v.GenericSchema<string, string> = v.pipe(
  v.string('expected a two-letter country code'),
  v.metadata({
    minLength: 2,
    maxLength: 2,
    pattern: '^[A-Za-z]{2}$',
    description: 'Country hint (ISO 3166-1 alpha-2)',
    examples: ['US'],
  }),
  v.check((s) => /^[A-Za-z]{2}$/.test(s), 'expected a two-letter country code'),
  v.transform((s) => s.toUpperCase()),
) as v.GenericSchema<string, string>;

/** An interface language hint. */
export const uiLanguage: v.GenericSchema<string, string> = v.pipe(
  v.string('expected a language code'),
  v.metadata({
    minLength: 2,
    maxLength: 12,
    pattern: '^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})?$',
    description: 'Interface language hint',
    examples: ['en'],
  }),
  v.check(
    (s) => /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})?$/.test(s),
    'expected a language code like en or pt-BR',
  ),
) as v.GenericSchema<string, string>;

type Opt<T> = v.OptionalSchema<v.GenericSchema<string, T>, undefined>;

/** Locale hints with `country` as an alias of `gl`. */
export const localeQuery: { gl: Opt<string>; country: Opt<string>; hl: Opt<string> } = {
  gl: v.optional(countryCode),
  country: v.optional(countryCode),
  hl: v.optional(uiLanguage),
};

/** A paged listing's query: `cursor`, or its alias `continuation`. */
export const pageQuery: { cursor: Opt<string>; continuation: Opt<string> } = {
  cursor: v.optional(cursor),
  continuation: v.optional(cursor),
};

/** The call context hints of a validated query with locale fields. */
export function localeOf(query: {
  gl?: string | undefined;
  country?: string | undefined;
  hl?: string | undefined;
}): {
  gl?: string;
  hl?: string;
} {
  const out: { gl?: string; hl?: string } = {};
  const gl = query.gl ?? query.country;
  if (gl) out.gl = gl;
  if (query.hl) out.hl = query.hl;
  return out;
}

/** The cursor of a validated page query (`cursor` wins over `continuation`). */
export function cursorOf(query: { cursor?: string | undefined; continuation?: string | undefined }): {
  cursor?: string;
} {
  const value = query.cursor ?? query.continuation;
  return value === undefined ? {} : { cursor: value };
}
