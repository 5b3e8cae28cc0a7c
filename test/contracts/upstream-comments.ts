/**
 * The comments part of the Upstream contract: pages of a video's comments chained by
 * continuation in both sorts, a comment's replies through its `repliesContinuation` (each reply
 * with the comment's id as `parentId`), `video_unavailable` for a missing video and
 * `comments_disabled` for a video whose comments are off.
 */
import { expect } from 'vitest';
import type { CommentPage, CommentSort } from '../../src/ports/upstream.ts';
import type { ContractTest, More, UpstreamUnderTest } from './upstream.ts';
import { expectCode } from './upstream-errors.ts';
import { problems } from './upstream-shapes.ts';
import * as T from './upstream-types.ts';

/** Fetches the pages `more` describes through `fetch`, checking each page and its continuation. */
async function pages(
  more: More,
  fetch: (continuation?: string) => Promise<CommentPage>,
): Promise<CommentPage[]> {
  const out: CommentPage[] = [];
  let continuation: string | undefined;
  for (const [i, expected] of more.entries()) {
    const page = await fetch(continuation);
    expect(problems(T.commentPage, page, `page ${i + 1}`)).toEqual([]);
    expect(page.continuation !== undefined, `page ${i + 1} has a continuation`).toBe(expected);
    out.push(page);
    if (!page.continuation) break;
    continuation = page.continuation;
  }
  expect(out).toHaveLength(more.length);
  return out;
}

/** Declares the comment checks over the subject `get` returns. */
export function commentChecks(get: () => UpstreamUnderTest, test: ContractTest): void {
  test('comments: CommentPages chained by continuation; top-level comments have no parentId', async (ctx) => {
    const { upstream: u, ids } = get();
    if (!ids.comments) return ctx.skip('no video with comments in its data');
    const { videoId, more } = ids.comments;
    const sorts: CommentSort[] = ids.comments.newest ? ['top', 'newest'] : ['top'];
    for (const sort of sorts) {
      const list = await pages(sort === 'top' ? more : (ids.comments.newest ?? []), (continuation) =>
        u.comments(videoId, continuation ? { sort, continuation } : { sort }),
      );
      const all = list.flatMap((p) => p.comments);
      expect(all.length, sort).toBeGreaterThan(0);
      expect(list.every((p) => p.videoId === videoId)).toBe(true);
      expect(all.filter((c) => c.parentId !== undefined)).toEqual([]);
      expect(new Set(all.map((c) => c.commentId)).size, 'ids are distinct').toBe(all.length);
    }
  });

  test('comments: replies through repliesContinuation, each with parentId', async (ctx) => {
    const { upstream: u, ids } = get();
    if (!ids.comments?.replies) return ctx.skip('no comment with replies in its data');
    const { videoId, replies } = ids.comments;
    const first = await u.comments(videoId, { sort: 'top' });
    const parent = first.comments.find((c) => c.repliesContinuation !== undefined);
    expect(parent, 'a comment of the first page has replies').toBeDefined();
    const list = await pages(replies, (continuation) =>
      u.comments(videoId, { sort: 'top', continuation: continuation ?? parent!.repliesContinuation! }),
    );
    const all = list.flatMap((p) => p.comments);
    expect(all.length).toBeGreaterThan(0);
    expect(all.every((c) => c.parentId === parent!.commentId && c.repliesContinuation === undefined)).toBe(
      true,
    );
  });

  test('comments: a video that does not exist → video_unavailable', async () => {
    const { upstream: u, ids } = get();
    await expectCode(u.comments(ids.missingVideo, { sort: 'top' }), 'video_unavailable');
  });

  test('comments: comments turned off → comments_disabled', async (ctx) => {
    const { upstream: u, ids } = get();
    if (!ids.commentsOff) return ctx.skip('no video with comments turned off in its data');
    await expectCode(u.comments(ids.commentsOff, { sort: 'top' }), 'comments_disabled');
  });
}
