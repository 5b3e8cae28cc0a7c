/**
 * `translate_to` (decisions.md "Transcript translation"): YouTube's machine translation of the
 * negotiated track on both transcript routes, the older GET route, batch tasks (sync, async and
 * the compatibility batch), the track list's `is_translatable`, errors and the separate cache.
 * @module
 */
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import type { CaptionOptions } from '../../src/ports/upstream.ts';
import { json3, TRACK_EN_MANUAL, VIDEO } from '../fakes/upstream.ts';
import {
  expectError,
  expectJson,
  expectKeyedHeaders,
  type Fixture,
  fixture,
  settle,
} from '../helpers/http.ts';

/** A fixture whose English manual track has a French translation. */
async function translating(): Promise<Fixture> {
  const f = await fixture();
  f.upstream.texts.set(
    `${TRACK_EN_MANUAL.ref}.fr`,
    json3(
      [
        [0, 2000, 'Bonjour le monde.'],
        [2000, 2500, 'Deuxième ligne ici.'],
      ],
      false,
    ),
  );
  return f;
}

const captionOptions = (f: Fixture) => f.upstream.lastOptions.captions as CaptionOptions | undefined;

describe('translate_to on the transcript routes', () => {
  test('POST: language is the target, translated_from the source; costs one credit', async () => {
    const f = await translating();
    const res = await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'fr' });
    const body = await expectJson(res);
    expect(body).toEqual({
      video_id: VIDEO,
      language: 'fr',
      translated_from: 'en',
      track_kind: 'manual',
      duration_seconds: 213,
      has_word_level: false,
      segments: [
        { text: 'Bonjour le monde.', start: 0, end: 2, duration: 2 },
        { text: 'Deuxième ligne ici.', start: 2, end: 4.5, duration: 2.5 },
      ],
    });
    expectKeyedHeaders(res, 1);
    expect(res.headers.get('x-language-code')).toBe('fr');
    expect(res.headers.get('x-translated-from')).toBeNull();
    expect(captionOptions(f)?.translateTo).toBe('fr');
    expect(await f.balance(f.accountId)).toBe(999);
  });

  test('untranslated responses carry no translated_from', async () => {
    const f = await translating();
    const body = await expectJson(await f.post('/v1/transcripts', { video_id: VIDEO }));
    expect(body).not.toHaveProperty('translated_from');
    expect(captionOptions(f)?.translateTo).toBeUndefined();
  });

  test.each(['text', 'srt', 'vtt', 'markdown'])(
    'GET format %s: X-Translated-From names the source',
    async (format) => {
      const f = await translating();
      const res = await f.get(`/v1/transcripts?video_id=${VIDEO}&format=${format}&translate_to=fr`);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-translated-from')).toBe('en');
      expect(res.headers.get('x-language-code')).toBe('fr');
      expect(await res.text()).toContain('Bonjour le monde.');
    },
  );

  test.each(['json3', 'sentences', 'words'])('JSON format %s carries translated_from', async (format) => {
    const f = await translating();
    const res = await f.post('/v1/transcripts', { video_id: VIDEO, format, translate_to: 'fr' });
    const body = await expectJson(res);
    expect(body).toMatchObject({ language: 'fr', translated_from: 'en' });
  });

  test('the older GET /v1/transcripts/{videoId} takes translate_to as a query parameter', async () => {
    const f = await translating();
    const json = await expectJson(await f.get(`/v1/transcripts/${VIDEO}?translate_to=fr`));
    expect(json).toMatchObject({ language: 'fr', translated_from: 'en' });
    const res = await f.get(`/v1/transcripts/${VIDEO}?translate_to=fr&format=text`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-translated-from')).toBe('en');
  });

  test('translations are cached apart from the source track', async () => {
    const f = await translating();
    expect((await f.post('/v1/transcripts', { video_id: VIDEO })).headers.get('x-cache')).toBe('MISS');
    const first = await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'fr' });
    expect((await expectJson(first)).language).toBe('fr');
    expect(f.upstream.calls.captions).toBe(2);
    const again = await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'fr' });
    expect(again.headers.get('x-cache')).toBe('HIT');
    expect((await expectJson(again)).translated_from).toBe('en');
    expect(f.upstream.calls.captions).toBe(2);
    expect(await f.balance(f.accountId)).toBe(997);
  });

  test('a track YouTube marks as not translatable: 404 translation_unavailable, free', async () => {
    const f = await translating();
    const p = f.upstream.players.get(VIDEO)!;
    f.upstream.players.set(VIDEO, { ...p, tracks: p.tracks.map((t) => ({ ...t, isTranslatable: false })) });
    await expectError(
      await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'fr' }),
      404,
      'translation_unavailable',
    );
    expect(f.upstream.calls.captions ?? 0).toBe(0);
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('a target YouTube does not offer (translationLanguages): 404 translation_unavailable', async () => {
    const f = await translating();
    const p = f.upstream.players.get(VIDEO)!;
    f.upstream.players.set(VIDEO, { ...p, translationLanguages: ['fr', 'pt-BR'] });
    await expectError(
      await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'ja' }),
      404,
      'translation_unavailable',
    );
    expect(f.upstream.calls.captions ?? 0).toBe(0);
    const ok = await expectJson(await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'fr' }));
    expect(ok.language).toBe('fr');
  });

  test('YouTube refusing the translation is upstream_blocked, never captions_disabled', async () => {
    const f = await translating();
    f.upstream.failures.captions = new ApiError('upstream_blocked', 'YouTube refused the translation.', {
      retryAfter: 30,
    });
    await expectError(
      await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: 'fr' }),
      503,
      'upstream_blocked',
    );
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test.each([
    ['*', 'POST'],
    ['not a code', 'POST'],
    ['e', 'GET'],
  ])('translate_to %j (%s) is 400', async (code, method) => {
    const f = await translating();
    const res =
      method === 'POST'
        ? await f.post('/v1/transcripts', { video_id: VIDEO, translate_to: code })
        : await f.get(`/v1/transcripts?video_id=${VIDEO}&translate_to=${encodeURIComponent(code)}`);
    expect(res.status).toBe(400);
  });

  test('the track list reports is_translatable per track', async () => {
    const f = await translating();
    const p = f.upstream.players.get(VIDEO)!;
    f.upstream.players.set(VIDEO, {
      ...p,
      tracks: p.tracks.map((t) => (t.languageCode === 'de' ? { ...t, isTranslatable: false } : t)),
    });
    const body = await expectJson<{ languages: { code: string; is_translatable: boolean }[] }>(
      await f.get(`/v1/transcripts/${VIDEO}/languages`),
    );
    expect(body.languages.map((l) => [l.code, l.is_translatable])).toEqual([
      ['en', true],
      ['en', true],
      ['de', false],
    ]);
  });
});

describe('translate_to on batch transcript tasks', () => {
  test('synchronous batch (?wait=true) passes it through', async () => {
    const f = await translating();
    const res = await f.post('/v1/batch?wait=true', {
      tasks: [
        { id: 'json', type: 'transcript', video_id: VIDEO, translate_to: 'fr' },
        { id: 'text', type: 'transcript', video_id: VIDEO, format: 'text', translate_to: 'fr' },
      ],
    });
    const body = await expectJson<{
      results: { id: string; success: boolean; data: Record<string, unknown> }[];
    }>(res);
    const byId = Object.fromEntries(body.results.map((r) => [r.id, r]));
    expect(byId.json).toMatchObject({ success: true, data: { language: 'fr', translated_from: 'en' } });
    expect(byId.text).toMatchObject({ success: true, data: { language: 'fr', translated_from: 'en' } });
    expect(String(byId.text!.data.content)).toContain('Bonjour le monde.');
  });

  test('asynchronous batch passes it through; an untranslatable target fails only its task', async () => {
    const f = await translating();
    const res = await f.post('/v1/batch', {
      tasks: [
        { id: 'fr', type: 'transcript', video_id: VIDEO, translate_to: 'fr' },
        { id: 'ja', type: 'transcript', video_id: VIDEO, translate_to: 'ja' },
      ],
    });
    const accepted = await expectJson<{ id: string }>(res, 202);
    const principal = await f.ts.services.accounts.authenticate(f.apiKey);
    let job:
      | {
          completed_at: string | null;
          results: { id: string; success: boolean; data?: unknown; error?: { code: string } }[];
        }
      | undefined;
    for (let i = 0; i < 400; i++) {
      job = JSON.parse(JSON.stringify(await f.ts.services.batchJobs.get(principal, accepted.id)));
      if (job!.completed_at !== null) break;
      await settle(5);
    }
    const byId = Object.fromEntries(job!.results.map((r) => [r.id, r]));
    expect(byId.fr).toMatchObject({ success: true, data: { language: 'fr', translated_from: 'en' } });
    expect(byId.ja).toMatchObject({ success: false, error: { code: 'translation_unavailable' } });
  });

  test('the compatibility batch takes translate_to per item', async () => {
    const f = await translating();
    const res = await f.post('/v1/transcripts/batch', { items: [{ video_id: VIDEO, translate_to: 'fr' }] });
    const body = await expectJson<{ results: { success: boolean; data: Record<string, unknown> }[] }>(res);
    expect(body.results[0]).toMatchObject({ success: true, data: { language: 'fr', translated_from: 'en' } });
  });
});

describe('translate_to in /openapi.json', () => {
  test('a query parameter of both GET routes and a property of the POST body and batch tasks', async () => {
    const f = await fixture();
    const doc = JSON.stringify(await expectJson(await f.call('/openapi.json')));
    const paths = (JSON.parse(doc) as { paths: Record<string, Record<string, unknown>> }).paths;
    const params = (path: string) =>
      ((paths[path]?.get as { parameters?: { name: string }[] })?.parameters ?? []).map((p) => p.name);
    expect(params('/v1/transcripts')).toContain('translate_to');
    expect(params('/v1/transcripts/{videoId}')).toContain('translate_to');
    expect(JSON.stringify(paths['/v1/transcripts']?.post)).toContain('translate_to');
    expect(JSON.stringify(paths['/v1/batch']?.post)).toContain('translate_to');
  });
});
