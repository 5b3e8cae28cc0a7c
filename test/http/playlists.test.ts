/**
 * The playlist routes: GET /v1/playlists/{id} (first page with details, later pages videos only)
 * and the alternative's GET /v1/playlists/{id}/videos; ids, URLs, mixes and cursors.
 */
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import {
  expectError,
  expectJson,
  expectKeyedHeaders,
  type Fixture,
  fixture,
  tamper,
} from '../helpers/http.ts';

const CHANNEL_ID = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const VIDEOS = [
  {
    video_id: VIDEO,
    title: 'Never Gonna Give You Up',
    index: 1,
    length_seconds: 213,
    length_text: '3:33',
    author: 'Rick Astley',
    channel_id: CHANNEL_ID,
    thumbnails: [],
  },
  {
    video_id: 'yPYZpwSpKmA',
    title: 'Together Forever',
    index: 2,
    length_seconds: 205,
    length_text: '3:25',
    author: 'Rick Astley',
    channel_id: null,
    thumbnails: [],
  },
];
const LAST = [
  {
    video_id: 'AC3Ejf7vPEY',
    title: 'Whenever You Need Somebody',
    index: 3,
    length_seconds: 234,
    length_text: '3:54',
    author: 'Rick Astley',
    channel_id: null,
    thumbnails: [],
  },
];

async function firstCursor(f: Fixture, path: string): Promise<string> {
  const body = await expectJson<{ next_cursor: string }>(await f.get(path));
  expect(typeof body.next_cursor).toBe('string');
  return body.next_cursor;
}

describe('GET /v1/playlists/{id}', () => {
  test('first page with details, then a videos-only page; 1 credit per page', async () => {
    const f = await fixture();
    const res = await f.get(`/v1/playlists/${PLAYLIST}`);
    const first = await expectJson<Record<string, unknown>>(res);
    expect(first).toEqual({
      playlist_id: PLAYLIST,
      title: 'P',
      description: 'A playlist.',
      video_count: 3,
      view_count_text: '1,234 views',
      author: 'Rick Astley',
      thumbnails: [],
      videos: VIDEOS,
      has_more: true,
      next_cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
    });
    expectKeyedHeaders(res, 1);
    const next = await f.get(`/v1/playlists/${PLAYLIST}?cursor=${first.next_cursor}`);
    expect(await expectJson(next)).toEqual({
      playlist_id: PLAYLIST,
      videos: LAST,
      has_more: false,
      next_cursor: null,
    });
    expectKeyedHeaders(next, 1);
    expect(await f.balance(f.accountId)).toBe(998);
    expect(f.upstream.calls.playlist).toBe(2);
  });

  test('continuation is an alias of cursor; cursor wins when both are sent', async () => {
    const f = await fixture();
    const cursor = await firstCursor(f, `/v1/playlists/${PLAYLIST}`);
    expect(
      (await expectJson(await f.get(`/v1/playlists/${PLAYLIST}?continuation=${cursor}`))).videos,
    ).toEqual(LAST);
    const both = await f.get(`/v1/playlists/${PLAYLIST}?cursor=${cursor}&continuation=garbage`);
    expect((await expectJson(both)).videos).toEqual(LAST);
  });

  test.each([
    [`https://www.youtube.com/playlist?list=${PLAYLIST}`],
    [`https://www.youtube.com/watch?v=${VIDEO}&list=${PLAYLIST}`],
    [`youtu.be/${VIDEO}?list=${PLAYLIST}`],
  ])('a playlist URL is accepted: %s', async (url) => {
    const f = await fixture();
    expect((await expectJson(await f.get(`/v1/playlists/${encodeURIComponent(url)}`))).playlist_id).toBe(
      PLAYLIST,
    );
  });

  test.each([['OLAK5uy_kxDnRAyfeAN7Ygl1YjLn7W0U1CU2lxJGM'], ['UUuAXFkgsw1L7xaCfnd5JJOw']])(
    'other playlist id kinds are accepted: %s',
    async (id) => {
      const f = await fixture();
      expect((await expectJson(await f.get(`/v1/playlists/${id}`))).playlist_id).toBe(id);
    },
  );

  test.each([
    ['RDdQw4w9WgXcQ'],
    ['RDCLAK5uy_kmPRjHDECIcuVwnKsx2Ng7fyNgFKWNJFs'],
    [encodeURIComponent(`https://www.youtube.com/watch?v=${VIDEO}&list=RD${VIDEO}`)],
    ['PLshort'],
    [encodeURIComponent('https://example.com/playlist?list=PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI')],
  ])('400 invalid_playlist_id for %s (mixes included)', async (id) => {
    const f = await fixture();
    const e = await expectError(await f.get(`/v1/playlists/${id}`), 400, 'invalid_playlist_id');
    if (id.startsWith('RD')) expect(e.message).toMatch(/mix/);
    await expectError(await f.get(`/v1/playlists/${id}/videos`), 400, 'invalid_playlist_id');
    expect(f.upstream.calls).toEqual({});
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('404 playlist_not_found; upstream errors pass through; all free', async () => {
    const f = await fixture();
    f.upstream.missing.add(PLAYLIST.toLowerCase());
    await expectError(await f.get(`/v1/playlists/${PLAYLIST}`), 404, 'playlist_not_found');
    await expectError(await f.get(`/v1/playlists/${PLAYLIST}/videos`), 404, 'playlist_not_found');
    f.upstream.missing.clear();
    f.upstream.failures.playlist = new ApiError('upstream_error', 'cannot parse');
    await expectError(await f.get(`/v1/playlists/${PLAYLIST}`), 502, 'upstream_error');
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});

describe('GET /v1/playlists/{id}/videos', () => {
  test('playlist_id, title, videos, has_more, next_cursor (null when done)', async () => {
    const f = await fixture();
    const res = await f.get(`/v1/playlists/${PLAYLIST}/videos?gl=us`);
    const first = await expectJson<Record<string, unknown>>(res);
    expect(first).toEqual({
      playlist_id: PLAYLIST,
      title: 'P',
      videos: VIDEOS,
      has_more: true,
      next_cursor: expect.any(String),
    });
    expectKeyedHeaders(res, 1);
    expect(f.upstream.lastOptions.playlist).toMatchObject({ gl: 'US' });
    const second = await f.get(`/v1/playlists/${PLAYLIST}/videos?gl=us&cursor=${first.next_cursor}`);
    expect(await expectJson(second)).toEqual({
      playlist_id: PLAYLIST,
      title: null,
      videos: LAST,
      has_more: false,
      next_cursor: null,
    });
  });

  test('a cursor of GET /v1/playlists/{id} continues the same listing here', async () => {
    const f = await fixture();
    const cursor = await firstCursor(f, `/v1/playlists/${PLAYLIST}`);
    expect(
      (await expectJson(await f.get(`/v1/playlists/${PLAYLIST}/videos?cursor=${cursor}`))).videos,
    ).toEqual(LAST);
  });
});

describe('cursors: tampered, foreign, other filters, stale', () => {
  test('every bad cursor is a 400 invalid_cursor that costs nothing', async () => {
    const f = await fixture();
    const cursor = await firstCursor(f, `/v1/playlists/${PLAYLIST}`);
    const channelCursor = await firstCursor(f, `/v1/channels/${CHANNEL_ID}/videos`);
    const other = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';
    const before = await f.balance(f.accountId);
    const bad: [string, string][] = [
      ['tampered', `/v1/playlists/${PLAYLIST}?cursor=${tamper(cursor)}`],
      ['truncated', `/v1/playlists/${PLAYLIST}?cursor=${cursor.slice(0, -3)}`],
      ['garbage', `/v1/playlists/${PLAYLIST}?cursor=not-a-cursor`],
      ['non-base64', `/v1/playlists/${PLAYLIST}?cursor=${encodeURIComponent('!!$$')}`],
      ['other playlist', `/v1/playlists/${other}?cursor=${cursor}`],
      ['foreign route', `/v1/playlists/${PLAYLIST}?cursor=${channelCursor}`],
      ['foreign route (reverse)', `/v1/channels/${CHANNEL_ID}/videos?cursor=${cursor}`],
    ];
    for (const [label, path] of bad) {
      const res = await f.get(path);
      expect(res.status, label).toBe(400);
      await expectError(res, 400, 'invalid_cursor');
    }
    f.clock.advance(25 * 3_600_000);
    await expectError(await f.get(`/v1/playlists/${PLAYLIST}?cursor=${cursor}`), 400, 'invalid_cursor');
    expect(await f.balance(f.accountId)).toBe(before);
  });

  test('an empty or over-long cursor is an invalid_parameter naming it', async () => {
    const f = await fixture();
    const e = await expectError(await f.get(`/v1/playlists/${PLAYLIST}?cursor=`), 400, 'invalid_parameter');
    expect(e.details).toEqual({ parameter: 'cursor', location: 'query' });
    const long = await expectError(
      await f.get(`/v1/playlists/${PLAYLIST}?continuation=${'A'.repeat(9000)}`),
      400,
      'invalid_parameter',
    );
    expect(long.details).toEqual({ parameter: 'continuation', location: 'query' });
  });
});
