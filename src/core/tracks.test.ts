import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import type { CaptionTrack, TrackKind } from '../ports/upstream.ts';
import {
  availableLanguages,
  chooseTrack,
  spokenLanguage,
  TRACK_POLICIES,
  type TrackChoice,
  type TrackPolicy,
} from './tracks.ts';

/** A track whose `ref` names it: `kind:code` (plus `:variant`, or `#n` to tell twins apart). */
const tr = (languageCode: string, kind: TrackKind, extra: Partial<CaptionTrack> = {}): CaptionTrack => ({
  languageCode,
  name: `${languageCode} (${kind})`,
  kind,
  isTranslatable: true,
  isDefault: false,
  ref: `${kind}:${languageCode}${extra.variant === undefined ? '' : `:${extra.variant}`}`,
  ...extra,
});

/** Tracks from a compact list: `m:en` manual, `a:en` ASR, `*` = isDefault, `/CC` = variant. */
function tracksOf(list: string): CaptionTrack[] {
  return list
    .split(' ')
    .filter((t) => t !== '')
    .map((t) => {
      const [, k, code = '', star, variant] = /^([ma]):([^*/]+)(\*?)(?:\/(.+))?$/.exec(t) ?? [];
      const extra: Partial<CaptionTrack> = { isDefault: star === '*' };
      if (variant !== undefined) extra.variant = variant;
      return tr(code, k === 'a' ? 'asr' : 'manual', extra);
    });
}

const BOTH_EN = 'm:en a:en';
const REGIONAL = 'm:en-GB a:en';
// Video GJLlxj_dtq8 of the recordings: 8 manual tracks and an English ASR track.
const RECORDED = 'm:zh m:cs m:en m:de m:hi m:ja m:ko m:es a:en';

describe('chooseTrack', () => {
  // name, tracks, languages, policy → "ref match index"
  it.each<[string, string, string[], TrackPolicy, string]>([
    ['manual_first prefers manual', BOTH_EN, ['en'], 'manual_first', 'manual:en exact 0'],
    ['asr_first prefers asr', BOTH_EN, ['en'], 'asr_first', 'asr:en exact 0'],
    ['exact_only prefers manual', BOTH_EN, ['en'], 'exact_only', 'manual:en exact 0'],
    ['manual_only', BOTH_EN, ['en'], 'manual_only', 'manual:en exact 0'],
    ['asr_only', BOTH_EN, ['en'], 'asr_only', 'asr:en exact 0'],
    ['manual_first falls back to asr', 'm:de a:en', ['en'], 'manual_first', 'asr:en exact 0'],
    ['asr_first falls back to manual', 'm:en a:de', ['en'], 'asr_first', 'manual:en exact 0'],
    ['language order before kind (asr_first)', 'm:de a:en', ['de', 'en'], 'asr_first', 'manual:de exact 0'],
    [
      'language order before kind (manual_first)',
      'm:en a:de',
      ['de', 'en'],
      'manual_first',
      'asr:de exact 0',
    ],
    ['skips a missing language', BOTH_EN, ['fr', 'en'], 'manual_first', 'manual:en exact 1'],
    ['recorded video, de', RECORDED, ['de'], 'manual_first', 'manual:de exact 0'],
    ['recorded video, en asr_first', RECORDED, ['en'], 'asr_first', 'asr:en exact 0'],
    ['case-insensitive request', BOTH_EN, ['EN'], 'manual_first', 'manual:en exact 0'],
    ['case-insensitive track', 'm:EN-gb', ['en-GB'], 'exact_only', 'manual:EN-gb exact 0'],
    ['underscore reads as dash', 'm:en-US', ['en_us'], 'exact_only', 'manual:en-US exact 0'],
    ['request en → en-GB', 'm:en-GB m:de', ['en'], 'manual_first', 'manual:en-GB prefix 0'],
    ['request en-GB → en', 'm:en', ['en-GB'], 'manual_first', 'manual:en prefix 0'],
    ['request en-GB → en-US', 'a:en-US', ['en-GB'], 'asr_first', 'asr:en-US prefix 0'],
    ['subtag prefix beats sibling', 'm:en-US m:en', ['en-GB'], 'manual_first', 'manual:en prefix 0'],
    [
      'kind beats closeness among prefixes',
      'a:en m:en-US',
      ['en-GB'],
      'manual_first',
      'manual:en-US prefix 0',
    ],
    [
      'prefix manual beats exact asr (manual_first: creator captions within the language)',
      REGIONAL,
      ['en'],
      'manual_first',
      'manual:en-GB prefix 0',
    ],
    ['exact asr beats prefix manual (asr_first)', REGIONAL, ['en'], 'asr_first', 'asr:en exact 0'],
    ['manual_only takes the prefix manual', REGIONAL, ['en'], 'manual_only', 'manual:en-GB prefix 0'],
    ['asr_only takes the prefix asr', REGIONAL, ['en-GB'], 'asr_only', 'asr:en prefix 0'],
    ['exact_only skips a prefix', 'm:en-GB a:de', ['en', 'de'], 'exact_only', 'asr:de exact 1'],
    ['prefix in a later language', 'm:pt-BR', ['es', 'pt'], 'manual_first', 'manual:pt-BR prefix 1'],
    [
      'zh-Hans → zh-Hant (same primary subtag)',
      'm:zh-Hant',
      ['zh-Hans'],
      'manual_first',
      'manual:zh-Hant prefix 0',
    ],
    ['prefix tie → isDefault', 'm:en-US m:en-GB*', ['en'], 'manual_first', 'manual:en-GB prefix 0'],
    ['prefix tie → first listed', 'm:en-US m:en-GB', ['en'], 'manual_first', 'manual:en-US prefix 0'],
    ['exact tie → isDefault', 'm:en/CC m:en*/SDH', ['en'], 'manual_first', 'manual:en:SDH exact 0'],
    ['exact tie → first listed', 'm:en/CC m:en/SDH', ['en'], 'manual_first', 'manual:en:CC exact 0'],
    ['* = the asr language', 'm:de* a:en', ['*'], 'manual_first', 'asr:en spoken 0'],
    [
      '* prefers manual in the spoken language',
      `m:de ${BOTH_EN}`,
      ['*'],
      'manual_first',
      'manual:en spoken 0',
    ],
    ['* asr_first', `m:de ${BOTH_EN}`, ['*'], 'asr_first', 'asr:en spoken 0'],
    ['* without asr = the default track', 'm:de m:fr*', ['*'], 'manual_first', 'manual:fr spoken 0'],
    ['* without asr or default = the first', 'm:de m:fr', ['*'], 'manual_first', 'manual:de spoken 0'],
    ['* with two asr tracks = the default one', 'a:en a:de*', ['*'], 'asr_first', 'asr:de spoken 0'],
    ['auto is *', 'm:de a:en', ['auto'], 'manual_first', 'asr:en spoken 0'],
    ['AUTO is *', 'm:de a:en', ['AUTO'], 'manual_first', 'asr:en spoken 0'],
    ['* manual_only takes a prefix manual', REGIONAL, ['*'], 'manual_only', 'manual:en-GB spoken 0'],
    ['* exact_only', REGIONAL, ['*'], 'exact_only', 'asr:en spoken 0'],
    ['* asr_only', `m:de* ${BOTH_EN}`, ['*'], 'asr_only', 'asr:en spoken 0'],
    ['* asr_only takes a prefix asr', 'a:en-US m:en', ['*'], 'asr_only', 'asr:en-US spoken 0'],
    ['* after a missing language', 'm:de a:en', ['fr', '*'], 'manual_first', 'asr:en spoken 1'],
    ['a language before *', 'm:de a:en', ['de', '*'], 'asr_first', 'manual:de exact 0'],
    ['empty languages = *', 'm:de a:en', [], 'manual_first', 'asr:en spoken 0'],
    ['blank entries are skipped', BOTH_EN, ['', '  ', 'en'], 'manual_first', 'manual:en exact 2'],
    ['trimmed entries', BOTH_EN, [' en '], 'exact_only', 'manual:en exact 0'],
  ])('%s', (_name, tracks, languages, policy, expected) => {
    const choice = chooseTrack(tracksOf(tracks), languages, policy);
    expect(`${choice.track.ref} ${choice.match} ${choice.index}`).toBe(expected);
    expect(choice.requested).toBe(languages[choice.index] ?? '*');
  });

  it.each(TRACK_POLICIES)('no tracks → captions_disabled (%s)', (policy) => {
    expect(() => chooseTrack([], ['en'], policy)).toThrow(
      expect.objectContaining({ code: 'captions_disabled' }),
    );
  });

  it.each<[string, string, string[], TrackPolicy]>([
    ['missing language', BOTH_EN, ['fr'], 'manual_first'],
    ['exact_only rejects a prefix', 'm:en-GB', ['en'], 'exact_only'],
    ['manual_only has no manual', 'a:en', ['en'], 'manual_only'],
    ['asr_only has no asr', 'm:en', ['en'], 'asr_only'],
    ['* asr_only without asr', 'm:de', ['*'], 'asr_only'],
    ['different primary subtag', 'm:en', ['eng'], 'manual_first'],
    ['blank only', BOTH_EN, [''], 'manual_first'],
  ])('%s → language_not_found', (_name, tracks, languages, policy) => {
    expect(() => chooseTrack(tracksOf(tracks), languages, policy)).toThrow(
      expect.objectContaining({ code: 'language_not_found', status: 404 }),
    );
  });

  it('names the requested and available languages', () => {
    const tracks = [tr('de', 'manual'), tr('en', 'asr', { name: 'English (auto-generated)' })];
    let error: unknown;
    try {
      chooseTrack(tracks, ['fr', 'es'], 'manual_only');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    expect(e.message).toContain('fr, es');
    expect(e.message).toContain('de (manual), en (asr)');
    expect(e.details).toEqual({
      requested: ['fr', 'es'],
      available: [
        { code: 'de', name: 'de (manual)', kind: 'manual' },
        { code: 'en', name: 'English (auto-generated)', kind: 'asr' },
      ],
    });
  });
});

describe('spokenLanguage', () => {
  it.each<[string, string, string | undefined]>([
    ['no tracks', '', undefined],
    ['asr wins over default', 'm:de* a:en', 'en'],
    ['default asr among several', 'a:en a:ja*', 'ja'],
    ['first asr among several', 'a:en a:ja', 'en'],
    ['default without asr', 'm:de m:fr*', 'fr'],
    ['first otherwise', 'm:de m:fr', 'de'],
    ['real code kept', 'a:en-US', 'en-US'],
  ])('%s', (_name, tracks, expected) => {
    expect(spokenLanguage(tracksOf(tracks))).toBe(expected);
  });
});

describe('availableLanguages', () => {
  it('maps tracks to API fields in order, variant only when present', () => {
    const tracks = [
      tr('en', 'manual', { variant: 'SDH', isTranslatable: false }),
      tr('en', 'asr', { name: 'English (auto-generated)' }),
    ];
    const list = availableLanguages(tracks);
    expect(list).toEqual([
      { code: 'en', name: 'en (manual)', kind: 'manual', variant: 'SDH', is_translatable: false },
      { code: 'en', name: 'English (auto-generated)', kind: 'asr', is_translatable: true },
    ]);
    expect('variant' in (list[1] ?? {})).toBe(false);
  });

  it('is empty without tracks', () => {
    expect(availableLanguages([])).toEqual([]);
  });
});

const CODES = ['en', 'en-GB', 'en-US', 'EN', 'de', 'de-AT', 'fr', 'pt-BR', 'pt', 'zh-Hans', 'zh-Hant', 'ja'];
const REQUESTS = [...CODES, '*', 'auto', 'es', 'EN-us', 'en_GB', ''];
const trackArb = fc.record({
  languageCode: fc.constantFrom(...CODES),
  kind: fc.constantFrom<TrackKind>('manual', 'asr'),
  isDefault: fc.boolean(),
  variant: fc.option(fc.constantFrom('CC', 'SDH'), { nil: undefined }),
});
const tracksArb = fc
  .array(trackArb, { maxLength: 8 })
  .map((list) =>
    list.map((t, i) => ({ ...tr(t.languageCode, t.kind, { isDefault: t.isDefault }), ref: `#${i}` })),
  );
const languagesArb = fc.array(fc.constantFrom(...REQUESTS), { maxLength: 5 });
const policyArb = fc.constantFrom(...TRACK_POLICIES);
const norm = (code: string): string => code.trim().replace(/_/g, '-').toLowerCase();

/** The choice, or the error code. */
function attempt(tracks: CaptionTrack[], languages: string[], policy: TrackPolicy): TrackChoice | string {
  try {
    return chooseTrack(tracks, languages, policy);
  } catch (e) {
    return e instanceof ApiError ? e.code : 'not an ApiError';
  }
}

describe('chooseTrack properties', () => {
  it('returns one of the given tracks, or captions_disabled / language_not_found', () => {
    fc.assert(
      fc.property(tracksArb, languagesArb, policyArb, (tracks, languages, policy) => {
        const r = attempt(tracks, languages, policy);
        if (typeof r === 'string') {
          expect(r).toBe(tracks.length === 0 ? 'captions_disabled' : 'language_not_found');
        } else {
          expect(tracks).toContain(r.track);
          expect(r.requested).toBe(languages.length === 0 ? '*' : languages[r.index]);
        }
      }),
    );
  });

  it('respects the policy kinds and exact_only codes', () => {
    fc.assert(
      fc.property(tracksArb, languagesArb, policyArb, (tracks, languages, policy) => {
        const r = attempt(tracks, languages, policy);
        if (typeof r === 'string') return;
        if (policy === 'manual_only') expect(r.track.kind).toBe('manual');
        if (policy === 'asr_only') expect(r.track.kind).toBe('asr');
        if (policy === 'exact_only') {
          const star = ['*', 'auto'].includes(norm(r.requested));
          const wanted = star ? (spokenLanguage(tracks) ?? '') : r.requested;
          expect(norm(r.track.languageCode)).toBe(norm(wanted));
          expect(r.match).toBe(star ? 'spoken' : 'exact');
        }
        if (r.match === 'prefix') {
          // a prefix match only when no track of the same or a preferred kind has the exact code
          const order = policy === 'asr_first' ? ['asr', 'manual'] : ['manual', 'asr'];
          const kinds = { manual_only: ['manual'], asr_only: ['asr'] }[policy as string] ?? order;
          const better = kinds.slice(0, kinds.indexOf(r.track.kind) + 1);
          const exact = tracks.filter(
            (t) => better.includes(t.kind) && norm(t.languageCode) === norm(r.requested),
          );
          expect(exact).toEqual([]);
        }
      }),
    );
  });

  it('an earlier language that can be satisfied always wins', () => {
    fc.assert(
      fc.property(tracksArb, languagesArb, policyArb, (tracks, languages, policy) => {
        const r = attempt(tracks, languages, policy);
        const first = languages.findIndex((l) => typeof attempt(tracks, [l], policy) !== 'string');
        if (typeof r === 'string') {
          if (languages.length > 0) expect(first).toBe(-1);
          return;
        }
        if (languages.length === 0) return;
        expect(r.index).toBe(first);
        const alone = attempt(tracks, [languages[first] ?? ''], policy);
        expect(typeof alone === 'string' ? alone : alone.track).toBe(r.track);
      }),
    );
  });

  it('within a language, manual_first only returns asr when no manual track fits', () => {
    fc.assert(
      fc.property(tracksArb, languagesArb, (tracks, languages) => {
        const r = attempt(tracks, languages, 'manual_first');
        if (typeof r === 'string' || r.track.kind === 'manual') return;
        const manual = attempt(tracks, [r.requested], 'manual_only');
        if (typeof manual === 'string') return;
        // a manual track of that language would have won, unless it only shares the primary
        // subtag while the asr track has the exact code
        const star = ['*', 'auto'].includes(norm(r.requested));
        const target = norm(star ? (spokenLanguage(tracks) ?? '') : r.requested);
        expect(norm(r.track.languageCode)).toBe(target);
        expect(norm(manual.track.languageCode)).not.toBe(target);
      }),
    );
  });
});
