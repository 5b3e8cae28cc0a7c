/**
 * The transcript routes: POST and GET /v1/transcripts in every format, track negotiation, the
 * transcript headers, and the compatibility routes GET /v1/transcripts/{id} and /languages.
 */
import { describe, expect, test } from 'vitest';
import type { CaptionTrack } from '../../src/ports/upstream.ts';
import { json3, TRACK_DE, TRACK_EN_ASR, TRACK_EN_MANUAL, VIDEO } from '../fakes/upstream.ts';
import { expectError, expectJson, expectKeyedHeaders, type Fixture, fixture } from '../helpers/http.ts';

const MANUAL_SEGMENTS = [
  { text: 'Hello world.', start: 0, end: 2, duration: 2 },
  { text: 'Second line here.', start: 2, end: 4.5, duration: 2.5 },
];
const ASR_WORDS = [
  [
    { word: 'hello', start: 0, end: 0.2 },
    { word: 'world', start: 0.2, end: 1.8 },
  ],
  [
    { word: 'second', start: 2, end: 2.2 },
    { word: 'line', start: 2.2, end: 2.4 },
    { word: 'here', start: 2.4, end: 4.4 },
  ],
];
const ASR_SEGMENTS = [
  { text: 'hello world', start: 0, end: 1.8, duration: 1.8 },
  { text: 'second line here', start: 2, end: 4.4, duration: 2.4 },
];

/** Adds a video with the given tracks (each track's text: one line in its language). */
function addVideo(
  f: Fixture,
  id: string,
  tracks: CaptionTrack[],
  live: 'none' | 'live' | 'upcoming' = 'none',
) {
  const base = f.upstream.players.get(VIDEO)!;
  f.upstream.players.set(id, { ...structuredClone(base), videoId: id, tracks, live });
  for (const t of tracks)
    f.upstream.texts.set(t.ref, json3([[0, 1000, `${t.languageCode} ${t.kind} text`]], t.kind === 'asr'));
}

const track = (languageCode: string, kind: 'manual' | 'asr', isDefault = false): CaptionTrack => ({
  languageCode,
  name: languageCode,
  kind,
  isTranslatable: true,
  isDefault,
  ref: `${languageCode}-${kind}`,
});

describe('POST /v1/transcripts', () => {
  test('default: segments of the manual track, every header', async () => {
    const f = await fixture();
    const res = await f.post('/v1/transcripts', { video_id: VIDEO });
    const body = await expectJson(res);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(body).toEqual({
      video_id: VIDEO,
      language: 'en',
      track_kind: 'manual',
      duration_seconds: 213,
      has_word_level: false,
      segments: MANUAL_SEGMENTS,
    });
    expectKeyedHeaders(res, 1);
    expect(res.headers.get('x-track-type')).toBe('MANUAL');
    expect(res.headers.get('x-language-code')).toBe('en');
    expect(res.headers.get('x-duration-seconds')).toMatch(/^\d+\.\d{3}$/);
    expect(res.headers.get('x-cache')).toBe('MISS');
    expect(await f.balance(f.accountId)).toBe(999);
  });

  test.each([
    ['segments', 'application/json; charset=utf-8'],
    ['word_timestamps', 'application/json; charset=utf-8'],
    ['words', 'application/json; charset=utf-8'],
    ['sentences', 'application/json; charset=utf-8'],
    ['json3', 'application/json; charset=utf-8'],
    ['markdown', 'text/markdown; charset=utf-8'],
    ['text', 'text/plain; charset=utf-8'],
    ['srt', 'text/plain; charset=utf-8'],
    ['vtt', 'text/vtt; charset=utf-8'],
  ])('format %s answers %s with the transcript headers', async (format, type) => {
    const f = await fixture();
    const res = await f.post('/v1/transcripts', { video_id: VIDEO, format, track_policy: 'asr_first' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(type);
    expect(res.headers.get('x-track-type')).toBe('ASR');
    expect(res.headers.get('x-language-code')).toBe('en');
    expectKeyedHeaders(res, 1);
    const text = await res.text();
    if (type.startsWith('application/json')) {
      const body = JSON.parse(text);
      expect(body).toMatchObject({
        video_id: VIDEO,
        language: 'en',
        track_kind: 'asr',
        has_word_level: true,
      });
      if (format === 'word_timestamps' || format === 'words') {
        expect(body.segments).toEqual(ASR_SEGMENTS.map((s, i) => ({ ...s, words: ASR_WORDS[i] })));
      }
      if (format === 'json3') expect(body.events).toHaveLength(2);
      if (format === 'sentences') expect(body.segments[0].text).toBe('hello world second line here');
    }
    if (format === 'markdown') {
      expect(text).toMatch(/^# Never Gonna Give You Up\n/);
      expect(text).toContain('## 0:00 Intro');
    }
    if (format === 'text') expect(text).toMatch(/^hello world\nsecond line here\n?$/);
    if (format === 'srt') expect(text).toContain('1\n00:00:00,000 --> 00:00:01,800\nhello world');
    if (format === 'vtt') expect(text).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:01\.800\nhello world/);
  });

  test('word_level: words only on ASR tracks, never on manual ones', async () => {
    const f = await fixture();
    const asr = await expectJson<{ segments: { words?: unknown }[] }>(
      await f.post('/v1/transcripts', { video_id: VIDEO, track_policy: 'asr_first', word_level: true }),
    );
    expect(asr.segments.map((s) => s.words)).toEqual(ASR_WORDS);
    const asrOff = await expectJson<{ segments: { words?: unknown }[] }>(
      await f.post('/v1/transcripts', { video_id: VIDEO, track_policy: 'asr_first', word_level: false }),
    );
    expect(asrOff.segments).toEqual(ASR_SEGMENTS);
    for (const format of ['segments', 'word_timestamps', 'sentences', 'json3']) {
      const manual = await expectJson<{ has_word_level: boolean; segments: Record<string, unknown>[] }>(
        await f.post('/v1/transcripts', { video_id: VIDEO, format, word_level: true }),
      );
      expect(manual.has_word_level).toBe(false);
      for (const s of manual.segments) expect(s).not.toHaveProperty('words');
    }
  });

  test('languages are tried in order before the track kind', async () => {
    const f = await fixture();
    const de = await f.post('/v1/transcripts', { video_id: VIDEO, languages: ['de', 'en'] });
    expect(de.headers.get('x-language-code')).toBe('de');
    expect((await expectJson(de)).segments).toEqual([{ text: 'Hallo Welt.', start: 0, end: 2, duration: 2 }]);
    const fr = await f.post('/v1/transcripts', {
      video_id: VIDEO,
      languages: ['fr', 'en'],
      track_policy: 'asr_first',
    });
    expect([fr.headers.get('x-language-code'), fr.headers.get('x-track-type')]).toEqual(['en', 'ASR']);
  });

  test.each([['*'], ['auto'], ['AUTO']])("'%s' is the spoken language (the ASR track's)", async (lang) => {
    const f = await fixture();
    addVideo(f, 'spoken00001', [track('de', 'manual', true), track('fr', 'asr'), track('en', 'manual')]);
    const res = await f.post('/v1/transcripts', { video_id: 'spoken00001', languages: [lang] });
    expect([res.headers.get('x-language-code'), res.headers.get('x-track-type')]).toEqual(['fr', 'ASR']);
  });

  test('prefix match: en-GB matches en, en matches en-GB; the real code is returned', async () => {
    const f = await fixture();
    const gb = await f.post('/v1/transcripts', { video_id: VIDEO, languages: ['en-GB'] });
    expect(gb.headers.get('x-language-code')).toBe('en');
    expect((await expectJson(gb)).language).toBe('en');
    addVideo(f, 'britishonly', [track('en-GB', 'manual')]);
    const en = await f.post('/v1/transcripts', { video_id: 'britishonly', languages: ['en'] });
    expect(en.headers.get('x-language-code')).toBe('en-GB');
    expect((await expectJson(en)).language).toBe('en-GB');
  });

  test.each([
    ['manual_first', 'MANUAL'],
    ['asr_first', 'ASR'],
    ['exact_only', 'MANUAL'],
    ['manual_only', 'MANUAL'],
    ['asr_only', 'ASR'],
  ])('track_policy %s picks the %s track when both kinds exist', async (policy, kind) => {
    const f = await fixture();
    const res = await f.post('/v1/transcripts', { video_id: VIDEO, languages: ['en'], track_policy: policy });
    expect(res.headers.get('x-track-type')).toBe(kind);
  });

  test('manual_only and asr_only never fall back; exact_only refuses a prefix', async () => {
    const f = await fixture();
    addVideo(f, 'asronly0001', [track('en', 'asr')]);
    addVideo(f, 'manualonly1', [track('en-GB', 'manual')]);
    const cases: [string, string, string[]][] = [
      ['asronly0001', 'manual_only', ['en']],
      ['manualonly1', 'asr_only', ['en']],
      ['manualonly1', 'exact_only', ['en']],
    ];
    for (const [id, policy, languages] of cases) {
      const e = await expectError(
        await f.post('/v1/transcripts', { video_id: id, languages, track_policy: policy }),
        404,
        'language_not_found',
      );
      const only = id === 'asronly0001' ? { code: 'en', kind: 'asr' } : { code: 'en-GB', kind: 'manual' };
      expect(e.details?.available).toEqual([{ ...only, name: only.code }]);
    }
    const fallback = await f.post('/v1/transcripts', {
      video_id: 'asronly0001',
      track_policy: 'manual_first',
    });
    expect(fallback.headers.get('x-track-type')).toBe('ASR');
    expect(await f.balance(f.accountId)).toBe(999);
  });

  test('language_not_found names the available languages', async () => {
    const f = await fixture();
    const e = await expectError(
      await f.post('/v1/transcripts', { video_id: VIDEO, languages: ['ja'] }),
      404,
      'language_not_found',
    );
    expect(e.message).toContain('en');
    expect(e.details?.available).toEqual([
      { code: 'en', name: TRACK_EN_MANUAL.name, kind: 'manual' },
      { code: 'en', name: TRACK_EN_ASR.name, kind: 'asr' },
      { code: 'de', name: TRACK_DE.name, kind: 'manual' },
    ]);
  });

  test('video URLs are accepted as video_id', async () => {
    const f = await fixture();
    for (const url of [
      `https://www.youtube.com/watch?v=${VIDEO}&t=1`,
      `https://youtu.be/${VIDEO}`,
      `youtube.com/shorts/${VIDEO}`,
      `https://www.youtube.com/embed/${VIDEO}`,
      `https://www.youtube.com/live/${VIDEO}`,
      `https://m.youtube.com/watch?v=${VIDEO}`,
    ]) {
      const body = await expectJson(await f.post('/v1/transcripts', { video_id: url }));
      expect(body.video_id).toBe(VIDEO);
    }
  });

  test.each([
    [{}, 'invalid_parameter', 'video_id'],
    [{ video_id: 12 }, 'invalid_parameter', 'video_id'],
    [{ video_id: VIDEO, format: 'pdf' }, 'invalid_parameter', 'format'],
    [{ video_id: VIDEO, word_level: 'yes' }, 'invalid_parameter', 'word_level'],
    [{ video_id: VIDEO, languages: 'en' }, 'invalid_parameter', 'languages'],
    [{ video_id: VIDEO, languages: [] }, 'invalid_parameter', 'languages'],
    [{ video_id: VIDEO, languages: ['en', 'not a code'] }, 'invalid_parameter', 'languages.1'],
    [{ video_id: VIDEO, track_policy: 'best' }, 'invalid_parameter', 'track_policy'],
    [{ video_id: 'short' }, 'invalid_video_id', undefined],
    [{ video_id: 'https://vimeo.com/123' }, 'invalid_video_id', undefined],
    [[VIDEO], 'invalid_request', undefined],
  ] as const)('400 for %j: %s', async (body, code, parameter) => {
    const f = await fixture();
    const e = await expectError(await f.post('/v1/transcripts', body), 400, code);
    if (parameter) {
      expect(e.message).toContain(`'${parameter}'`);
      expect(e.details).toMatchObject({ parameter });
    }
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('404 captions_disabled, video_unavailable, live_stream_not_ready (live and upcoming)', async () => {
    const f = await fixture();
    addVideo(f, 'nocaptions1', []);
    addVideo(f, 'livenow0001', [track('en', 'asr')], 'live');
    addVideo(f, 'upcoming001', [track('en', 'asr')], 'upcoming');
    await expectError(await f.post('/v1/transcripts', { video_id: 'nocaptions1' }), 404, 'captions_disabled');
    await expectError(await f.post('/v1/transcripts', { video_id: 'unknown0001' }), 404, 'video_unavailable');
    const live = await expectError(
      await f.post('/v1/transcripts', { video_id: 'livenow0001' }),
      404,
      'live_stream_not_ready',
    );
    expect(live.retryable).toBe(true);
    await expectError(
      await f.post('/v1/transcripts', { video_id: 'upcoming001' }),
      404,
      'live_stream_not_ready',
    );
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});

describe('GET /v1/transcripts', () => {
  test('is equivalent to POST for every format', async () => {
    const f = await fixture();
    for (const format of ['segments', 'words', 'sentences', 'json3', 'markdown', 'text', 'srt', 'vtt']) {
      const post = await f.post('/v1/transcripts', {
        video_id: VIDEO,
        format,
        languages: ['de', 'en'],
        word_level: true,
        track_policy: 'asr_first',
      });
      const get = await f.get(
        `/v1/transcripts?video_id=${VIDEO}&format=${format}&languages=de,en&word_level=true&track_policy=asr_first`,
      );
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe(post.headers.get('content-type'));
      for (const h of ['x-track-type', 'x-language-code', 'x-credits-to-deduct'])
        expect(get.headers.get(h)).toBe(post.headers.get(h));
      expect(await get.text()).toBe(await post.text());
    }
  });

  test('query forms: repeated languages, word_level 1/yes, URL video_id', async () => {
    const f = await fixture();
    const res = await f.get(
      `/v1/transcripts?video_id=${encodeURIComponent(`https://youtu.be/${VIDEO}`)}&languages=fr&languages=en&word_level=1&track_policy=asr_only`,
    );
    const body = await expectJson(res);
    expect(body.segments).toEqual(ASR_SEGMENTS.map((s, i) => ({ ...s, words: ASR_WORDS[i] })));
    addVideo(f, 'spoken00002', [track('de', 'manual', true), track('fr', 'asr')]);
    for (const lang of ['auto', '*', 'ja,auto', 'AUTO']) {
      const res = await f.get(`/v1/transcripts?video_id=spoken00002&languages=${lang}`);
      expect(res.headers.get('x-language-code')).toBe('fr');
    }
  });

  test.each([
    ['', 'invalid_parameter', 'video_id'],
    [`?video_id=${VIDEO}&format=doc`, 'invalid_parameter', 'format'],
    [`?video_id=${VIDEO}&word_level=maybe`, 'invalid_parameter', 'word_level'],
    [`?video_id=${VIDEO}&languages=,`, 'invalid_parameter', 'languages'],
    [`?video_id=${VIDEO}&track_policy=x`, 'invalid_parameter', 'track_policy'],
    ['?video_id=abc', 'invalid_video_id', undefined],
  ] as const)('400 for %s', async (query, code, parameter) => {
    const f = await fixture();
    const e = await expectError(await f.get(`/v1/transcripts${query}`), 400, code);
    if (parameter) expect(e.details).toMatchObject({ parameter, location: 'query' });
  });
});

describe('compatibility routes', () => {
  test('GET /v1/transcripts/{id}: json (default), text, srt, vtt, lang', async () => {
    const f = await fixture();
    const json = await f.get(`/v1/transcripts/${VIDEO}`);
    expect(await expectJson(json)).toEqual({
      video_id: VIDEO,
      language: 'en',
      track_kind: 'manual',
      duration_seconds: 213,
      has_word_level: false,
      segments: MANUAL_SEGMENTS,
    });
    expectKeyedHeaders(json, 1);
    const types = {
      text: 'text/plain; charset=utf-8',
      srt: 'text/plain; charset=utf-8',
      vtt: 'text/vtt; charset=utf-8',
    };
    for (const [format, type] of Object.entries(types)) {
      const res = await f.get(`/v1/transcripts/${VIDEO}?format=${format}&lang=de`);
      expect([res.status, res.headers.get('content-type'), res.headers.get('x-language-code')]).toEqual([
        200,
        type,
        'de',
      ]);
      expect(await res.text()).toContain('Hallo Welt.');
    }
    await expectError(await f.get(`/v1/transcripts/${VIDEO}?format=markdown`), 400, 'invalid_parameter');
    await expectError(await f.get(`/v1/transcripts/${VIDEO}?lang=ja`), 404, 'language_not_found');
    await expectError(await f.get('/v1/transcripts/tooshort'), 400, 'invalid_video_id');
    expect(await f.balance(f.accountId)).toBe(996);
  });

  test('GET /v1/transcripts/{id}/languages is free and lists kinds and names', async () => {
    const f = await fixture({}, 0);
    const res = await f.get(`/v1/transcripts/${VIDEO}/languages`);
    expect(await expectJson(res)).toEqual({
      video_id: VIDEO,
      languages: [
        { code: 'en', name: 'English', kind: 'manual', is_translatable: true },
        { code: 'en', name: 'English (auto-generated)', kind: 'asr', is_translatable: true },
        { code: 'de', name: 'Deutsch', kind: 'manual', is_translatable: true },
      ],
    });
    expectKeyedHeaders(res, 0);
    await expectError(await f.get('/v1/transcripts/unknown0001/languages'), 404, 'video_unavailable');
    await expectError(await f.get('/v1/transcripts/bad/languages'), 400, 'invalid_video_id');
  });
});
