/**
 * Caption track selection: which track of a video answers a transcript request for a list of
 * languages under a track policy, and the video's track inventory in the API's field names.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { CaptionTrack, TrackKind } from '../ports/upstream.ts';

/**
 * How tracks of one language are chosen (decisions.md, Transcripts): `manual_first` (default)
 * and `asr_first` fall back to the other kind, `exact_only` wants the exact code (manual first),
 * `manual_only` and `asr_only` never fall back to the other kind.
 */
export type TrackPolicy = 'manual_first' | 'asr_first' | 'exact_only' | 'manual_only' | 'asr_only';

/** Every {@link TrackPolicy}, the default first. */
export const TRACK_POLICIES: readonly TrackPolicy[] = [
  'manual_first',
  'asr_first',
  'exact_only',
  'manual_only',
  'asr_only',
];

/** How a track matched: same code, same primary subtag, or the video's spoken language (`*`). */
export type TrackMatch = 'exact' | 'prefix' | 'spoken';

/** The outcome of {@link chooseTrack}. */
export interface TrackChoice {
  /** The chosen track; its `languageCode` is the real code (it may differ from the request). */
  track: CaptionTrack;
  /** The entry of `languages` that matched, exactly as the caller gave it. */
  requested: string;
  /** Position of `requested` in `languages`. */
  index: number;
  match: TrackMatch;
}

/** One entry of the API's `available_languages` list (basic-info, `language_not_found`). */
export interface AvailableLanguage {
  code: string;
  name: string;
  kind: TrackKind;
  variant?: string;
  is_translatable: boolean;
}

/** Normalised language code: trimmed, lower case, `_` read as `-`. */
const norm = (code: string): string => code.trim().replace(/_/g, '-').toLowerCase();

/** The primary subtag (`en` of `en-GB`) of a normalised code. */
const primary = (code: string): string => code.split('-')[0] ?? '';

/** The kinds a policy allows, in order of preference. */
function kindsOf(policy: TrackPolicy): readonly TrackKind[] {
  if (policy === 'asr_first') return ['asr', 'manual'];
  if (policy === 'manual_only') return ['manual'];
  if (policy === 'asr_only') return ['asr'];
  return ['manual', 'asr'];
}

/** The track that carries the video's spoken language: ASR, else YouTube's default, else the first. */
function spokenTrack(tracks: readonly CaptionTrack[]): CaptionTrack | undefined {
  const asr = tracks.filter((t) => t.kind === 'asr');
  return asr.find((t) => t.isDefault) ?? asr[0] ?? tracks.find((t) => t.isDefault) ?? tracks[0];
}

/**
 * The video's own spoken language (what `*` / `auto` stands for): the language of the ASR track
 * if there is one (the default one among several), else of the track YouTube marks default,
 * else of the first track; `undefined` when there are no tracks.
 */
export function spokenLanguage(tracks: readonly CaptionTrack[]): string | undefined {
  return spokenTrack(tracks)?.languageCode;
}

/** How closely a track code relates to a requested one: 1 when one is a subtag prefix of the other. */
function closeness(request: string, code: string): number {
  return code.startsWith(`${request}-`) || request.startsWith(`${code}-`) ? 1 : 2;
}

/** The best track for one (normalised) language code under a policy, or undefined. */
function pick(
  tracks: readonly CaptionTrack[],
  code: string,
  policy: TrackPolicy,
): { track: CaptionTrack; match: 'exact' | 'prefix' } | undefined {
  const kinds = kindsOf(policy);
  const allowed = tracks
    .map((track, position) => ({ track, position, code: norm(track.languageCode) }))
    .filter((c) => kinds.includes(c.track.kind));
  // exact_only: the exact code only. Otherwise every track of the same primary language is a
  // candidate ("creator captions within a matched language"), ranked below.
  const p = primary(code);
  const candidates =
    policy === 'exact_only' || p === ''
      ? allowed.filter((c) => c.code === code)
      : allowed.filter((c) => c.code === code || primary(c.code) === p);
  // Kind by policy, then closeness (exact, subtag prefix, sibling), then isDefault, then listing order.
  const rank = (c: (typeof allowed)[number]): number[] => [
    kinds.indexOf(c.track.kind),
    c.code === code ? 0 : closeness(code, c.code),
    c.track.isDefault ? 0 : 1,
    c.position,
  ];
  let best: (typeof allowed)[number] | undefined;
  for (const c of candidates) {
    if (best === undefined || lessThan(rank(c), rank(best))) best = c;
  }
  return best === undefined
    ? undefined
    : { track: best.track, match: best.code === code ? 'exact' : 'prefix' };
}

/** Lexicographic comparison of two rank tuples of the same length. */
function lessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (x !== y) return x < y;
  }
  return false;
}

/**
 * Picks the caption track for a transcript request (decisions.md, Transcripts).
 *
 * Languages are tried in the given order before the track kind is considered. `*` and its alias
 * `auto` stand for {@link spokenLanguage}. Codes compare case-insensitively (`_` reads as `-`).
 * Within one language, outside `exact_only`, every allowed track with the same primary subtag is
 * a candidate (`en` ↔ `en-GB`, `en-GB` ↔ `en`, `en-GB` ↔ `en-US`): the policy's kind order wins
 * first ("creator captions within a matched language", so under `manual_first` a manual `en-GB`
 * beats an ASR `en` for a request of `en`), then the closer code (exact, subtag prefix,
 * sibling), then `isDefault`, then the first listed. `exact_only` considers the exact code only. An empty `languages` list means `['*']`; blank entries match nothing.
 *
 * @throws ApiError `captions_disabled` when there are no tracks, `language_not_found` (with
 *   `details.requested` and `details.available`) when no language can be satisfied.
 */
export function chooseTrack(
  tracks: readonly CaptionTrack[],
  languages: readonly string[],
  policy: TrackPolicy,
): TrackChoice {
  if (tracks.length === 0) throw new ApiError('captions_disabled', 'This video has no captions.');
  const wanted = languages.length === 0 ? ['*'] : languages;
  for (const [index, requested] of wanted.entries()) {
    const code = norm(requested);
    const spoken = code === '*' || code === 'auto';
    const target = spoken ? norm(spokenLanguage(tracks) ?? '') : code;
    if (target === '') continue;
    const found = pick(tracks, target, policy);
    if (found !== undefined) {
      return { track: found.track, requested, index, match: spoken ? 'spoken' : found.match };
    }
  }
  const available = tracks.map((t) => ({ code: t.languageCode, name: t.name, kind: t.kind }));
  const list = available.map((a) => `${a.code} (${a.kind})`).join(', ');
  throw new ApiError(
    'language_not_found',
    `No caption track matches the requested languages (${wanted.join(', ')}) with track_policy ` +
      `${policy}. Available: ${list}.`,
    { details: { requested: [...wanted], available } },
  );
}

/** The track inventory in the API's field names, in YouTube's order (basic-info, languages routes). */
export function availableLanguages(tracks: readonly CaptionTrack[]): AvailableLanguage[] {
  return tracks.map((t) => ({
    code: t.languageCode,
    name: t.name,
    kind: t.kind,
    ...(t.variant === undefined ? {} : { variant: t.variant }),
    is_translatable: t.isTranslatable,
  }));
}
