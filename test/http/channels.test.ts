/**
 * The channel routes: profile, latest, videos (sorted), streams, shorts and playlists, by `UC…`
 * id, `@handle` or channel URL; paging with signed cursors bound to the tab and its sort.
 */
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { CHANNEL, PLAYLIST } from '../fakes/upstream.ts';
import { expectError, expectJson, expectKeyedHeaders, type Fixture, fixture } from '../helpers/http.ts';

const PROFILE = {
  channel_id: CHANNEL,
  title: 'Rick Astley',
  handle: '@RickAstleyYT',
  description: 'The official channel.',
  subscriber_count: 4_200_000,
  subscriber_count_text: '4.2M subscribers',
  video_count: 300,
  verified: true,
  custom_url: null,
  country: 'GB',
  url: `https://www.youtube.com/channel/${CHANNEL}`,
  thumbnails: [{ url: 'https://yt3.ggpht.com/a', width: 88, height: 88 }],
  banners: [],
  links: ['https://rickastley.co.uk'],
  available_tabs: ['videos', 'shorts', 'streams', 'playlists'],
};
const card = (id: string, title: string) => ({
  video_id: id,
  title,
  length_text: '3:33',
  length_seconds: 213,
  view_count: 1_000_000,
  view_count_text: '1M views',
  published_text: '1 day ago',
  published: null,
  is_live: false,
  is_upcoming: false,
  url: `https://www.youtube.com/watch?v=${id}`,
  thumbnails: [],
});

const page = async (f: Fixture, path: string) => expectJson<Record<string, unknown>>(await f.get(path));

describe('GET /v1/channels/{id}', () => {
  test('the profile field by field, 1 credit', async () => {
    const f = await fixture();
    const res = await f.get(`/v1/channels/${CHANNEL}`);
    expect(await expectJson(res)).toEqual(PROFILE);
    expectKeyedHeaders(res, 1);
    expect(f.upstream.calls).toEqual({ channel: 1 });
    expect(await f.balance(f.accountId)).toBe(999);
  });

  test.each([
    ['@RickAstleyYT'],
    [encodeURIComponent('https://www.youtube.com/@RickAstleyYT')],
    [encodeURIComponent('https://www.youtube.com/@RickAstleyYT/videos')],
    [encodeURIComponent(`https://www.youtube.com/channel/${CHANNEL}`)],
    [encodeURIComponent('youtube.com/c/RickAstleyVEVO')],
    [encodeURIComponent('https://m.youtube.com/user/RickAstleyVEVO')],
  ])('%s resolves to the channel (the resolution is cached)', async (id) => {
    const f = await fixture();
    expect(await page(f, `/v1/channels/${id}`)).toEqual(PROFILE);
    expect(await page(f, `/v1/channels/${id}/latest`)).toMatchObject({ channel_id: CHANNEL });
    expect(f.upstream.calls.resolveChannel ?? 0).toBeLessThanOrEqual(1);
  });

  test.each([
    ['rickastley'],
    ['UCshort'],
    ['@ab'],
    [encodeURIComponent('https://example.com/@RickAstleyYT')],
    [encodeURIComponent('https://www.youtube.com/watch?v=dQw4w9WgXcQ')],
  ])('400 invalid_channel_id for %s on every channel route', async (id) => {
    const f = await fixture();
    for (const tab of ['', '/latest', '/videos', '/streams', '/shorts', '/playlists'])
      await expectError(await f.get(`/v1/channels/${id}${tab}`), 400, 'invalid_channel_id');
    expect(f.upstream.calls).toEqual({});
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('404 channel_not_found for an unknown handle or id on every route', async () => {
    const f = await fixture();
    f.upstream.missing.add('@nosuchchannel');
    const missingId = 'UC0000000000000000000000';
    f.upstream.missing.add(missingId.toLowerCase());
    for (const id of ['@NoSuchChannel', missingId]) {
      for (const tab of ['', '/latest', '/videos', '/streams', '/shorts', '/playlists'])
        await expectError(await f.get(`/v1/channels/${id}${tab}`), 404, 'channel_not_found');
    }
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('upstream failures pass through, free', async () => {
    const f = await fixture();
    f.upstream.failures.channel = new ApiError('upstream_blocked', 'bot check', { retryAfter: 30 });
    const res = await f.get(`/v1/channels/${CHANNEL}`);
    expect(res.headers.get('retry-after')).toBe('30');
    await expectError(res, 503, 'upstream_blocked');
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});

describe('GET /v1/channels/{id}/latest', () => {
  test('up to 15 newest uploads, newest first, 1 credit', async () => {
    const f = await fixture();
    const res = await f.get('/v1/channels/@RickAstleyYT/latest');
    const body = await expectJson<{ channel_id: string; videos: Record<string, unknown>[] }>(res);
    expect(Object.keys(body)).toEqual(['channel_id', 'videos']);
    expect(body.channel_id).toBe(CHANNEL);
    expect(body.videos).toHaveLength(15);
    expect(body.videos[0]).toEqual({
      video_id: 'latest00000',
      title: 'Upload 0',
      length_text: null,
      length_seconds: null,
      view_count: null,
      view_count_text: null,
      published_text: null,
      published: 1_772_000_000,
      is_live: false,
      is_upcoming: false,
      url: 'https://www.youtube.com/watch?v=latest00000',
      thumbnails: [],
    });
    const dates = body.videos.map((v) => v.published as number);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    expectKeyedHeaders(res, 1);
  });
});

describe.each(['videos', 'streams', 'shorts'] as const)('GET /v1/channels/{id}/%s', (tab) => {
  test('two pages, each 1 credit; continuation mirrors next_cursor', async () => {
    const f = await fixture();
    const res = await f.get(`/v1/channels/${CHANNEL}/${tab}`);
    const first = await expectJson<Record<string, unknown>>(res);
    expect(first).toEqual({
      channel_id: CHANNEL,
      channel_title: 'Rick Astley',
      videos: [card('aaaaaaaaaaa', 'A')],
      has_more: true,
      next_cursor: expect.any(String),
      continuation: first.next_cursor,
    });
    expectKeyedHeaders(res, 1);
    const second = await page(f, `/v1/channels/${CHANNEL}/${tab}?continuation=${first.next_cursor}`);
    expect(second).toEqual({
      channel_id: CHANNEL,
      channel_title: 'Rick Astley',
      videos: [card('bbbbbbbbbbb', 'B')],
      has_more: false,
      next_cursor: null,
      continuation: null,
    });
    expect(await f.balance(f.accountId)).toBe(998);
  });

  test('sort_by newest|popular|oldest (latest, date: aliases); a cursor is bound to its sort and tab', async () => {
    const f = await fixture();
    for (const sort of ['newest', 'popular', 'oldest', 'latest', 'date'])
      expect((await f.get(`/v1/channels/${CHANNEL}/${tab}?sort_by=${sort}`)).status).toBe(200);
    const e = await expectError(
      await f.get(`/v1/channels/${CHANNEL}/${tab}?sort_by=rating`),
      400,
      'invalid_parameter',
    );
    expect(e.details).toEqual({ parameter: 'sort_by', location: 'query' });
    const cursor = (await page(f, `/v1/channels/${CHANNEL}/${tab}?sort_by=popular`)).next_cursor as string;
    const before = await f.balance(f.accountId);
    await expectError(await f.get(`/v1/channels/${CHANNEL}/${tab}?cursor=${cursor}`), 400, 'invalid_cursor');
    await expectError(
      await f.get(`/v1/channels/${CHANNEL}/${tab}?cursor=${cursor}&sort_by=oldest`),
      400,
      'invalid_cursor',
    );
    const otherTab = tab === 'videos' ? 'streams' : 'videos';
    await expectError(
      await f.get(`/v1/channels/${CHANNEL}/${otherTab}?cursor=${cursor}&sort_by=popular`),
      400,
      'invalid_cursor',
    );
    await expectError(
      await f.get(`/v1/channels/UCxxxxxxxxxxxxxxxxxxxxxx/${tab}?cursor=${cursor}&sort_by=popular`),
      400,
      'invalid_cursor',
    );
    expect(await f.balance(f.accountId)).toBe(before);
    expect((await f.get(`/v1/channels/${CHANNEL}/${tab}?cursor=${cursor}&sort_by=popular`)).status).toBe(200);
  });
});

describe('GET /v1/channels/{id}/playlists', () => {
  test('playlists, has_more, next_cursor; the cursor is bound to this tab', async () => {
    const f = await fixture();
    const res = await f.get('/v1/channels/@RickAstleyYT/playlists');
    const first = await expectJson<Record<string, unknown>>(res);
    expect(first).toEqual({
      channel_id: CHANNEL,
      channel_title: 'Rick Astley',
      playlists: [
        {
          playlist_id: PLAYLIST,
          title: 'Best of Rick',
          video_count: 3,
          video_count_text: '3 videos',
          url: `https://www.youtube.com/playlist?list=${PLAYLIST}`,
          thumbnails: [],
        },
      ],
      has_more: true,
      next_cursor: expect.any(String),
      continuation: first.next_cursor,
    });
    expectKeyedHeaders(res, 1);
    const second = await page(f, `/v1/channels/@RickAstleyYT/playlists?cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ playlists: [], has_more: false, next_cursor: null });
    await expectError(
      await f.get(`/v1/channels/@RickAstleyYT/videos?cursor=${first.next_cursor}`),
      400,
      'invalid_cursor',
    );
    await expectError(
      await f.get(`/v1/playlists/${PLAYLIST}?cursor=${first.next_cursor}`),
      400,
      'invalid_cursor',
    );
    expect(await f.balance(f.accountId)).toBe(998);
  });
});
