/** The fixtures upstream's `comments`: pages per sort, replies from the file's structure, disabled comments. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import type { Comment, PlayerData, Upstream } from '../../ports/upstream.ts';
import { createFixturesUpstream } from './fixtures-upstream.ts';

const player = (videoId: string): PlayerData => ({
  videoId,
  title: 'A video',
  author: 'Someone',
  channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
  description: '',
  lengthSeconds: 10,
  viewCount: 1,
  keywords: [],
  thumbnails: [],
  live: 'none',
  tracks: [],
});

const comment = (commentId: string): Comment => ({
  commentId,
  text: commentId,
  author: '@a',
  isVerified: false,
  isCreator: false,
  likeCount: 0,
  likeCountText: '',
  replyCount: 0,
  publishedText: '1 day ago',
  isPinned: false,
  isHearted: false,
  isEdited: false,
});

const FILES: Record<string, unknown> = {
  'videos/ccccccccccc.json': {
    player: player('ccccccccccc'),
    comments: {
      top: [{ comments: [comment('c1'), comment('c2')] }, { comments: [comment('c3')] }],
      newest: [{ comments: [comment('c3'), comment('c2'), comment('c1')] }],
      // A stored continuation or parent id is ignored: the structure decides.
      replies: {
        c2: [{ comments: [{ ...comment('c2.r1'), parentId: 'zz' }] }, { comments: [comment('c2.r2')] }],
      },
    },
  },
  'videos/ddddddddddd.json': { player: player('ddddddddddd'), comments: { disabled: true } },
  'videos/eeeeeeeeeee.json': { player: player('eeeeeeeeeee') },
};

let dir = '';
let u: Upstream;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-fixture-comments-'));
  for (const [path, value] of Object.entries(FILES)) {
    await mkdir(join(dir, path, '..'), { recursive: true });
    await writeFile(join(dir, path), JSON.stringify(value));
  }
  u = createFixturesUpstream(dir);
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const ids = (page: { comments: Comment[] }) => page.comments.map((c) => c.commentId);

describe('fixtures upstream: comments', () => {
  it('top pages chained; newest has its own pages; the comment with replies gets their continuation', async () => {
    const first = await u.comments('ccccccccccc', { sort: 'top' });
    expect(ids(first)).toEqual(['c1', 'c2']);
    expect(first.comments[0]?.repliesContinuation).toBeUndefined();
    expect(first.comments[1]?.repliesContinuation).toBe('fx:ccccccccccc/replies/c2:0');
    const second = await u.comments('ccccccccccc', { sort: 'top', continuation: first.continuation ?? '' });
    expect([ids(second), second.continuation]).toEqual([['c3'], undefined]);
    const newest = await u.comments('ccccccccccc', { sort: 'newest' });
    expect([ids(newest), newest.continuation]).toEqual([['c3', 'c2', 'c1'], undefined]);
  });

  it('replies: pages chained, each reply with the parent id', async () => {
    const first = await u.comments('ccccccccccc', {
      sort: 'top',
      continuation: 'fx:ccccccccccc/replies/c2:0',
    });
    expect(first.comments.map((c) => [c.commentId, c.parentId])).toEqual([['c2.r1', 'c2']]);
    const second = await u.comments('ccccccccccc', {
      sort: 'newest',
      continuation: first.continuation ?? '',
    });
    expect(second.comments.map((c) => [c.commentId, c.parentId])).toEqual([['c2.r2', 'c2']]);
    expect(second.continuation).toBeUndefined();
  });

  it('comments off → comments_disabled; no entry → an empty page; no video → video_unavailable', async () => {
    await expect(u.comments('ddddddddddd', { sort: 'top' })).rejects.toMatchObject({
      code: 'comments_disabled',
    });
    expect(await u.comments('eeeeeeeeeee', { sort: 'newest' })).toEqual({
      videoId: 'eeeeeeeeeee',
      comments: [],
    });
    await expect(u.comments('zzzzzzzzzzz', { sort: 'top' })).rejects.toMatchObject({
      code: 'video_unavailable',
    });
  });

  it('a continuation of another video or list is invalid_cursor', async () => {
    for (const continuation of ['fx:eeeeeeeeeee/top:1', 'fx:ccccccccccc/top:9', 'garbage']) {
      const error = await u.comments('ccccccccccc', { sort: 'top', continuation }).catch((e: unknown) => e);
      expect(error, continuation).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe('invalid_cursor');
    }
  });
});
