/**
 * Comments: pages of a video's comments in "top" or "newest" order, and pages of one comment's
 * replies through the same `cursor` parameter (decisions.md "Comments").
 *
 * Cursors are signed (see {@link Pager}) for the route `comments` and bound to the video and the
 * sort; a comment's `replies_cursor` (and the `next_cursor` of a replies page) is bound to the
 * video and the pseudo-sort `replies` instead, so it works whatever `sort_by` comes with it.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { Comment, CommentSort, Upstream } from '../ports/upstream.ts';
import type { CacheStatus, CacheTtls, ResponseCache } from './cache.ts';
import { type CallContext, upstreamOptions } from './context.ts';
import type { Pager } from './paging.ts';

/** Dependencies of {@link Comments}. */
export interface CommentsDeps {
  upstream: Upstream;
  cache: ResponseCache;
  ttl: CacheTtls;
  pager: Pager;
  deadlineMs: number;
}

/** One comment (or reply) as the REST API shows it. */
export interface CommentRecord {
  comment_id: string;
  text: string;
  author: string;
  author_channel_id: string | null;
  author_thumbnail: string | null;
  is_verified: boolean;
  is_creator: boolean;
  /** Approximate (YouTube rounds: "1.2K"). */
  like_count: number;
  like_count_text: string;
  reply_count: number;
  published_text: string;
  is_pinned: boolean;
  is_hearted: boolean;
  is_edited: boolean;
  /** Pass as `cursor` to the same route for this comment's replies. */
  replies_cursor?: string;
  /** On a reply: the comment it answers. */
  parent_id?: string;
}

/** The 200 body of `GET /v1/videos/{id}/comments`. */
export interface CommentsPageRecord {
  video_id: string;
  comments: CommentRecord[];
  has_more: boolean;
  next_cursor: string | null;
}

const ROUTE = 'comments';
/** The binding of replies cursors, in place of the sort. */
const REPLIES = 'replies';

/** The comments service. */
export class Comments {
  constructor(private readonly deps: CommentsDeps) {}

  /** A page of `videoId`'s comments, or of a comment's replies when `cursor` is a `replies_cursor`. */
  async page(
    videoId: string,
    query: { sort: CommentSort; cursor?: string },
    ctx: CallContext,
  ): Promise<{ record: CommentsPageRecord; cache: CacheStatus }> {
    const { sort } = query;
    let list: CommentSort | typeof REPLIES = sort;
    let continuation: string | undefined;
    if (query.cursor !== undefined) {
      const cursor = query.cursor;
      continuation = await this.deps.pager
        .decode(ROUTE, { video: videoId, sort }, cursor)
        .catch(async (e) => {
          if (!(e instanceof ApiError) || e.code !== 'invalid_cursor') throw e;
          list = REPLIES;
          return this.deps.pager.decode(ROUTE, { video: videoId, sort: REPLIES }, cursor);
        });
    }
    const page = await this.deps.cache.get(
      `comments:${videoId}:${list}:${continuation ?? ''}:${ctx.hl ?? ''}:${ctx.gl ?? ''}`,
      this.deps.ttl.comments,
      () =>
        this.deps.upstream.comments(
          videoId,
          continuation === undefined ? { sort } : { sort, continuation },
          upstreamOptions(ctx, AbortSignal.timeout(this.deps.deadlineMs)),
        ),
      ctx.signal,
    );
    const bind = { video: videoId, sort: list };
    const next = page.value.continuation
      ? await this.deps.pager.encode(ROUTE, bind, page.value.continuation)
      : null;
    const comments = await Promise.all(
      page.value.comments.map(async (c) => {
        const replies = c.repliesContinuation
          ? await this.deps.pager.encode(ROUTE, { video: videoId, sort: REPLIES }, c.repliesContinuation)
          : undefined;
        return commentRecord(c, replies);
      }),
    );
    return {
      record: { video_id: videoId, comments, has_more: next !== null, next_cursor: next },
      cache: page.status,
    };
  }
}

/** A comment in the REST shape, with its signed replies cursor. */
export function commentRecord(c: Comment, repliesCursor: string | undefined): CommentRecord {
  const record: CommentRecord = {
    comment_id: c.commentId,
    text: c.text,
    author: c.author,
    author_channel_id: c.authorChannelId ?? null,
    author_thumbnail: c.authorThumbnail ?? null,
    is_verified: c.isVerified,
    is_creator: c.isCreator,
    like_count: Math.max(0, Math.round(c.likeCount)),
    like_count_text: c.likeCountText,
    reply_count: c.replyCount,
    published_text: c.publishedText,
    is_pinned: c.isPinned,
    is_hearted: c.isHearted,
    is_edited: c.isEdited,
  };
  if (repliesCursor !== undefined) record.replies_cursor = repliesCursor;
  if (c.parentId !== undefined) record.parent_id = c.parentId;
  return record;
}
