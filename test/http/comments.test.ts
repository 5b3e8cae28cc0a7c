/**
 * GET /v1/videos/{id}/comments over the FakeUpstream: the page shape, paging with signed cursors,
 * replies through a comment's replies_cursor, the two sorts, comments_disabled, prices and bad
 * cursors.
 */
import { describe, expect, test } from 'vitest';
import { COMMENTS_OFF, VIDEO } from '../fakes/upstream.ts';
import {
  expectError,
  expectJson,
  expectKeyedHeaders,
  type Fixture,
  fixture,
  tamper,
} from '../helpers/http.ts';

interface Page {
  video_id: string;
  comments: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

const PINNED = {
  comment_id: 'UgyPinned0001',
  text: 'Thanks for watching! 🎉\nMore at example.com',
  author: '@RickAstleyYT',
  author_channel_id: 'UCuAXFkgsw1L7xaCfnd5JJOw',
  author_thumbnail: 'https://yt3.ggpht.com/viewer=s88',
  is_verified: true,
  is_creator: true,
  like_count: 1200,
  like_count_text: '1.2K',
  reply_count: 2,
  published_text: '2 years ago',
  is_pinned: true,
  is_hearted: true,
  is_edited: false,
  replies_cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
};

const page = async (f: Fixture, query = ''): Promise<Page> =>
  expectJson<Page>(await f.get(`/v1/videos/${VIDEO}/comments${query}`));

describe('GET /v1/videos/{id}/comments', () => {
  test('the first page: shape, 1 credit, keyed headers', async () => {
    const f = await fixture();
    const res = await f.get(`/v1/videos/${VIDEO}/comments`);
    const body = await expectJson<Page>(res);
    expect(body).toEqual({
      video_id: VIDEO,
      comments: [
        PINNED,
        {
          comment_id: 'UgySecond0002',
          text: 'Classic.',
          author: '@viewer',
          author_channel_id: 'UCviewerviewerviewer0001',
          author_thumbnail: 'https://yt3.ggpht.com/viewer=s88',
          is_verified: false,
          is_creator: false,
          like_count: 5,
          like_count_text: '5',
          reply_count: 0,
          published_text: '1 year ago',
          is_pinned: false,
          is_hearted: false,
          is_edited: true,
        },
      ],
      has_more: true,
      next_cursor: expect.stringMatching(/^[A-Za-z0-9_-]+$/),
    });
    expect(body.comments[1]).not.toHaveProperty('replies_cursor');
    expect(body.comments[1]).not.toHaveProperty('parent_id');
    expectKeyedHeaders(res, 1);
    expect(await f.balance(f.accountId)).toBe(999);
    expect(f.upstream.lastOptions.comments).toBeDefined();
  });

  test('paging: next_cursor leads to the last page; 1 credit per page', async () => {
    const f = await fixture();
    const first = await page(f);
    const second = await page(f, `?cursor=${first.next_cursor}`);
    expect(second.comments.map((c) => c.comment_id)).toEqual(['UgyThird00003']);
    expect(second).toMatchObject({ video_id: VIDEO, has_more: false, next_cursor: null });
    expect(await f.balance(f.accountId)).toBe(998);
    expect(f.upstream.calls.comments).toBe(2);
  });

  test('sort_by=newest reverses the order and binds its cursors', async () => {
    const f = await fixture();
    const first = await page(f, '?sort_by=newest');
    expect(first.comments.map((c) => c.comment_id)).toEqual(['UgyThird00003', 'UgySecond0002']);
    const second = await page(f, `?sort_by=newest&cursor=${first.next_cursor}`);
    expect(second.comments.map((c) => c.comment_id)).toEqual(['UgyPinned0001']);
    // The cursor of a "newest" page is no cursor of a "top" page.
    await expectError(
      await f.get(`/v1/videos/${VIDEO}/comments?cursor=${first.next_cursor}`),
      400,
      'invalid_cursor',
    );
    await expectError(await f.get(`/v1/videos/${VIDEO}/comments?sort_by=best`), 400, 'invalid_parameter');
  });

  test('replies: a replies_cursor passed as cursor gives the replies, each with parent_id', async () => {
    const f = await fixture();
    const first = await page(f);
    const cursor = String(first.comments[0]?.replies_cursor);
    for (const sort of ['', '&sort_by=newest']) {
      const replies = await page(f, `?cursor=${cursor}${sort}`);
      expect(replies.video_id).toBe(VIDEO);
      expect(replies.comments.map((c) => [c.comment_id, c.parent_id, c.text])).toEqual([
        ['UgyPinned0001.reply1', 'UgyPinned0001', 'You are welcome'],
        ['UgyPinned0001.reply2', 'UgyPinned0001', '❤️'],
      ]);
      expect(replies.comments[1]).toMatchObject({ is_creator: true, author: '@RickAstleyYT' });
      expect(replies).toMatchObject({ has_more: false, next_cursor: null });
    }
    // A replies cursor belongs to its video.
    await expectError(await f.get(`/v1/videos/yPYZpwSpKmA/comments?cursor=${cursor}`), 400, 'invalid_cursor');
  });

  test('404 comments_disabled and video_unavailable are free', async () => {
    const f = await fixture();
    const off = await expectError(
      await f.get(`/v1/videos/${COMMENTS_OFF}/comments`),
      404,
      'comments_disabled',
    );
    expect(off.retryable).toBe(false);
    await expectError(await f.get('/v1/videos/yPYZpwSpKmA/comments'), 404, 'video_unavailable');
    await expectError(await f.get('/v1/videos/bad/comments'), 400, 'invalid_video_id');
    expect(await f.balance(f.accountId)).toBe(1000);
  });

  test('a tampered, foreign or garbage cursor is a free 400 invalid_cursor', async () => {
    const f = await fixture();
    const first = await page(f);
    const cursor = String(first.next_cursor);
    const playlistCursor = (
      await expectJson<{ next_cursor: string }>(
        await f.get('/v1/playlists/PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI'),
      )
    ).next_cursor;
    const before = await f.balance(f.accountId);
    for (const bad of [tamper(cursor), cursor.slice(0, -3), 'not-a-cursor', playlistCursor]) {
      await expectError(await f.get(`/v1/videos/${VIDEO}/comments?cursor=${bad}`), 400, 'invalid_cursor');
    }
    expect(await f.balance(f.accountId)).toBe(before);
  });

  test('a second identical request is a cache hit and still costs 1 credit', async () => {
    const f = await fixture();
    await page(f);
    await page(f);
    expect(f.upstream.calls.comments).toBe(1);
    expect(await f.balance(f.accountId)).toBe(998);
  });
});
