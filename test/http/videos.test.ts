/**
 * The video routes: GET /v1/videos/{id}/basic-info (free), /video-info (1 credit) and the
 * alternative's GET /v1/videos/{id}?mode=fast|full (1 or 2 credits).
 */
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { expectError, expectJson, expectKeyedHeaders, fixture } from '../helpers/http.ts';

const CHANNEL_ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const LANGUAGES = [
  { code: 'en', name: 'English', kind: 'manual', is_translatable: true },
  { code: 'en', name: 'English (auto-generated)', kind: 'asr', is_translatable: true },
  { code: 'de', name: 'Deutsch', kind: 'manual', is_translatable: true },
];
const BASIC = {
  video_id: VIDEO,
  title: 'Never Gonna Give You Up',
  author: 'Rick Astley',
  channel_id: CHANNEL_ID,
  channel: { id: CHANNEL_ID, title: 'Rick Astley', url: `https://www.youtube.com/channel/${CHANNEL_ID}` },
  length_seconds: 213,
  duration_seconds: 213,
  view_count: 1_000_000,
  keywords: ['rick'],
  thumbnails: [{ url: 'https://i.ytimg.com/vi/x/default.jpg', width: 120, height: 90 }],
  available_languages: LANGUAGES,
};
const FULL = {
  ...BASIC,
  description: 'The official video.',
  mode: 'full',
  published: 1_256_000_000,
  like_count: 42,
  chapters: [{ title: 'Intro', start_time_seconds: 0, time_description: '0:00' }],
};

describe('GET /v1/videos/{id}/basic-info', () => {
  test('the record field by field, free, one upstream call', async () => {
    const f = await fixture({}, 0);
    const res = await f.get(`/v1/videos/${VIDEO}/basic-info`);
    expect(await expectJson(res)).toEqual(BASIC);
    expectKeyedHeaders(res, 0);
    expect(res.headers.get('x-cache')).toBe('MISS');
    expect(f.upstream.calls).toEqual({ player: 1 });
  });

  test('a video URL in the path (percent-encoded) and the locale hints reach the upstream', async () => {
    const f = await fixture();
    const url = encodeURIComponent(`https://www.youtube.com/watch?v=${VIDEO}`);
    const res = await f.get(`/v1/videos/${url}/basic-info?country=de&hl=pt-BR`);
    expect((await expectJson(res)).video_id).toBe(VIDEO);
    expect(f.upstream.lastOptions.player).toMatchObject({ gl: 'DE', hl: 'pt-BR' });
    await f.get(`/v1/videos/${VIDEO}/basic-info?gl=fr`);
    expect(f.upstream.lastOptions.player).toMatchObject({ gl: 'FR' });
  });

  test.each([
    ['/v1/videos/abc/basic-info', 400, 'invalid_video_id'],
    [
      `/v1/videos/${encodeURIComponent('https://evil.example/watch?v=dQw4w9WgXcQ')}/basic-info`,
      400,
      'invalid_video_id',
    ],
    [`/v1/videos/${VIDEO}/basic-info?gl=germany`, 400, 'invalid_parameter'],
    [`/v1/videos/${VIDEO}/basic-info?hl=english!`, 400, 'invalid_parameter'],
    ['/v1/videos/unknown0001/basic-info', 404, 'video_unavailable'],
  ] as const)('%s → %i %s', async (path, status, code) => {
    const f = await fixture();
    await expectError(await f.get(path), status, code);
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});

describe('GET /v1/videos/{id}/video-info', () => {
  test('the full record, 1 credit', async () => {
    const f = await fixture();
    const res = await f.get(`/v1/videos/${VIDEO}/video-info`);
    expect(await expectJson(res)).toEqual(FULL);
    expectKeyedHeaders(res, 1);
    expect(await f.balance(f.accountId)).toBe(999);
    expect(f.upstream.calls).toEqual({ player: 1, videoExtras: 1 });
  });

  test('402 on an empty balance, and nothing is charged', async () => {
    const f = await fixture({}, 0);
    const e = await expectError(await f.get(`/v1/videos/${VIDEO}/video-info`), 402, 'insufficient_credits');
    expect(e.details).toEqual({ required: 1, balance: 0 });
    expect(f.upstream.calls).toEqual({});
  });
});

describe('GET /v1/videos/{id}?mode=fast|full', () => {
  test('fast (default, 1 credit) and full (2 credits) with separate cache entries', async () => {
    const f = await fixture();
    const fast = await f.get(`/v1/videos/${VIDEO}`);
    expect(await expectJson(fast)).toEqual({ ...BASIC, description: 'The official video.', mode: 'fast' });
    expectKeyedHeaders(fast, 1);
    const fast2 = await f.get(`/v1/videos/${VIDEO}?mode=fast`);
    expect(fast2.headers.get('x-cache')).toBe('HIT');
    const full = await f.get(`/v1/videos/${VIDEO}?mode=full`);
    expect(await expectJson(full)).toEqual(FULL);
    expectKeyedHeaders(full, 2);
    expect(full.headers.get('x-cache')).toBe('MISS');
    expect((await f.get(`/v1/videos/${VIDEO}?mode=FULL`)).headers.get('x-cache')).toBe('HIT');
    expect(await f.balance(f.accountId)).toBe(1000 - 1 - 1 - 2 - 2);
    expect(f.upstream.calls).toEqual({ player: 1, videoExtras: 1 });
  });

  test('full needs 2 credits: 402 with 1 left, fast still works', async () => {
    const f = await fixture({}, 1);
    const e = await expectError(await f.get(`/v1/videos/${VIDEO}?mode=full`), 402, 'insufficient_credits');
    expect(e.details).toEqual({ required: 2, balance: 1 });
    expect((await f.get(`/v1/videos/${VIDEO}`)).status).toBe(200);
    expect(await f.balance(f.accountId)).toBe(0);
  });

  test.each([
    ['?mode=medium', 'mode'],
    ['?country=1', 'country'],
  ])('400 invalid_parameter for %s', async (query, parameter) => {
    const f = await fixture();
    const e = await expectError(await f.get(`/v1/videos/${VIDEO}${query}`), 400, 'invalid_parameter');
    expect(e.details).toEqual({ parameter, location: 'query' });
  });
});

describe('upstream errors on every video route', () => {
  const paths = [
    `/v1/videos/${VIDEO}/basic-info`,
    `/v1/videos/${VIDEO}/video-info`,
    `/v1/videos/${VIDEO}?mode=full`,
  ];

  test.each([
    ['region_blocked', 403],
    ['age_restricted', 403],
    ['private_video', 403],
    ['members_only', 403],
    ['video_unavailable', 404],
    ['upstream_error', 502],
  ] as const)('%s passes through as %i and costs nothing', async (code, status) => {
    const f = await fixture();
    f.upstream.failures.player = new ApiError(code, `upstream says ${code}`);
    for (const path of paths) {
      const e = await expectError(await f.get(path), status, code);
      expect(e.message).toBe(`upstream says ${code}`);
    }
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('a failing extras call fails video-info but not basic-info', async () => {
    const f = await fixture();
    f.upstream.failures.videoExtras = new ApiError('upstream_blocked', 'bot check', { retryAfter: 60 });
    const res = await f.get(`/v1/videos/${VIDEO}/video-info`);
    expect(res.headers.get('retry-after')).toBe('60');
    await expectError(res, 503, 'upstream_blocked');
    expect((await f.get(`/v1/videos/${VIDEO}/basic-info`)).status).toBe(200);
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});
