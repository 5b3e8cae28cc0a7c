/**
 * `tubescribe/client` against a test app: the data routes, the system routes and batch jobs
 * called through the typed client (its `fetch` is the app's own `app.request`), the typed answers
 * checked field by field (the account, admin and sign-up routes: client-account.test.ts). The test apps' response hook validates each 2xx body against its
 * declared schema on the way.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { TubescribeClient } from '../../src/client/index.ts';
import { CHANNEL, PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import { settle } from '../helpers/http.ts';
import { BASE, clients } from './setup.ts';

let api: TubescribeClient;
let anonymous: TubescribeClient;

beforeAll(async () => {
  ({ api, anonymous } = await clients());
});

describe('the system routes', () => {
  test('healthz, readyz, the document and the docs page', async () => {
    expect((await anonymous.GET('/healthz')).data).toEqual({ status: 'ok' });
    expect((await anonymous.GET('/readyz')).data?.status).toBe('ok');
    const doc = await anonymous.GET('/openapi.json');
    expect(doc.data?.openapi).toMatch(/^3\.1\./);
    const docs = await anonymous.GET('/docs', { parseAs: 'text' });
    expect(docs.response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(docs.data).toMatch(/^<!doctype html>/i);
    const meta = await anonymous.GET('/.well-known/oauth-protected-resource');
    expect(meta.data).toMatchObject({ resource: BASE, bearer_methods_supported: ['header'] });
    const mcp = await anonymous.GET('/.well-known/oauth-protected-resource/mcp');
    expect(mcp.data?.resource).toBe(`${BASE}/mcp`);
  });
});

describe('transcripts', () => {
  test('POST and GET answer the typed Transcript; text formats come back as text', async () => {
    const posted = await api.POST('/v1/transcripts', { body: { video_id: VIDEO, languages: ['de'] } });
    expect(posted.data).toMatchObject({ video_id: VIDEO, language: 'de', track_kind: 'manual' });
    expect(posted.data?.segments[0]?.text).toBe('Hallo Welt.');
    expect(posted.response.headers.get('x-credits-to-deduct')).toBe('1');
    const got = await api.GET('/v1/transcripts', {
      params: { query: { video_id: VIDEO, format: 'word_timestamps', track_policy: 'asr_first' } },
    });
    expect(got.data?.has_word_level).toBe(true);
    expect(got.data?.segments[0]?.words?.[0]?.word).toBe('hello');
    const srt = await api.GET('/v1/transcripts', {
      params: { query: { video_id: VIDEO, format: 'srt' } },
      parseAs: 'text',
    });
    expect(srt.data).toMatch(/^1\r?\n00:00:00,000 --> 00:00:02,000\r?\nHello world\./);
  });

  test('the compatibility routes: by path, the languages and the synchronous batch', async () => {
    const legacy = await api.GET('/v1/transcripts/{videoId}', {
      params: { path: { videoId: VIDEO }, query: { lang: 'en' } },
    });
    expect(legacy.data?.segments.map((s) => s.text)).toEqual(['Hello world.', 'Second line here.']);
    const languages = await api.GET('/v1/transcripts/{videoId}/languages', {
      params: { path: { videoId: VIDEO } },
    });
    expect(languages.data?.languages.map((l) => `${l.code}/${l.kind}`)).toEqual([
      'en/manual',
      'en/asr',
      'de/manual',
    ]);
    const batch = await api.POST('/v1/transcripts/batch', {
      body: { items: [{ video_id: VIDEO, id: 'a' }, { video_id: 'bbbbbbbbbbb' }] },
    });
    expect(batch.data).toMatchObject({ total_tasks: 2, successful_tasks: 1, failed_tasks: 1 });
    expect(batch.data?.results[1]?.error?.code).toBe('video_unavailable');
  });
});

describe('videos, comments, playlists, channels and search', () => {
  test('the video records', async () => {
    const path = { id: VIDEO };
    const basic = await api.GET('/v1/videos/{id}/basic-info', { params: { path } });
    expect(basic.data).toMatchObject({ video_id: VIDEO, channel_id: CHANNEL, length_seconds: 213 });
    const full = await api.GET('/v1/videos/{id}/video-info', { params: { path } });
    expect(full.data?.mode).toBe('full');
    const fast = await api.GET('/v1/videos/{id}', { params: { path, query: { mode: 'fast' } } });
    expect(fast.data?.mode).toBe('fast');
    expect(fast.response.headers.get('x-credits-to-deduct')).toBe('1');
    const comments = await api.GET('/v1/videos/{id}/comments', { params: { path } });
    expect(comments.data?.video_id).toBe(VIDEO);
    expect(comments.data?.comments.length).toBeGreaterThan(0);
  });

  test('playlists and channels, paged with the typed cursors', async () => {
    const first = await api.GET('/v1/playlists/{id}', { params: { path: { id: PLAYLIST } } });
    expect(first.data?.playlist_id).toBe(PLAYLIST);
    const videos = await api.GET('/v1/playlists/{id}/videos', { params: { path: { id: PLAYLIST } } });
    expect(videos.data?.videos[0]?.index).toBeTypeOf('number');
    const path = { id: CHANNEL };
    expect((await api.GET('/v1/channels/{id}', { params: { path } })).data?.channel_id).toBe(CHANNEL);
    expect((await api.GET('/v1/channels/{id}/latest', { params: { path } })).data?.channel_id).toBe(CHANNEL);
    for (const tab of [
      '/v1/channels/{id}/videos',
      '/v1/channels/{id}/streams',
      '/v1/channels/{id}/shorts',
    ] as const) {
      const page = await api.GET(tab, { params: { path, query: { sort_by: 'newest' } } });
      expect(page.data?.channel_id, tab).toBe(CHANNEL);
      expect(Array.isArray(page.data?.videos), tab).toBe(true);
    }
    const playlists = await api.GET('/v1/channels/{id}/playlists', { params: { path } });
    expect(Array.isArray(playlists.data?.playlists)).toBe(true);
  });

  test('search and suggestions', async () => {
    const search = await api.GET('/v1/search', { params: { query: { q: 'rick', limit: '2' } } });
    expect(search.data?.total_results).toBe(2);
    expect(search.data?.has_more).toBe(true);
    const next = await api.GET('/v1/search', {
      params: { query: { q: 'rick', limit: '2', cursor: search.data!.next_cursor! } },
    });
    expect(next.data?.results[0]?.id).not.toBe(search.data?.results[0]?.id);
    const suggestions = await api.GET('/v1/search/suggestions', { params: { query: { q: 'ric' } } });
    expect(suggestions.data?.query).toBe('ric');
  });

  test('an error answers the typed envelope', async () => {
    const bad = await api.GET('/v1/videos/{id}/basic-info', { params: { path: { id: 'nope' } } });
    expect(bad.data).toBeUndefined();
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error.code).toBe('invalid_video_id');
    const unauthenticated = await anonymous.GET('/v1/account');
    expect(unauthenticated.error?.error.code).toBe('missing_api_key');
  });
});

describe('batch jobs', () => {
  test('submit, poll and cancel a job', async () => {
    const submitted = await api.POST('/v1/batch', {
      body: {
        tasks: [
          { type: 'basic_info', video_id: VIDEO },
          { type: 'transcript', video_id: VIDEO },
        ],
      },
    });
    expect(submitted.response.status).toBe(202);
    const job = submitted.data!;
    if (!('id' in job)) throw new Error('expected the job record');
    let record = job;
    for (let i = 0; i < 400 && record.completed_at === null; i++) {
      await settle(5);
      record = (await api.GET('/v1/batch/{id}', { params: { path: { id: job.id } } })).data!;
    }
    expect(record).toMatchObject({ status: 'completed', successful_tasks: 2 });
    const cancelled = await api.DELETE('/v1/batch/{id}', { params: { path: { id: job.id } } });
    expect(cancelled.data?.status).toBe('completed');
    const sync = await api.POST('/v1/batch', {
      params: { query: { wait: 'true' } },
      body: { tasks: [{ type: 'video_info', video_id: VIDEO, mode: 'full' }] },
    });
    expect(sync.response.status).toBe(200);
    expect(sync.data && 'successful_tasks' in sync.data && sync.data.successful_tasks).toBe(1);
  });
});
