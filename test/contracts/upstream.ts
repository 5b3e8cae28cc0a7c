/**
 * The Upstream contract: every Upstream implementation (the YouTube driver over the recordings,
 * the fixtures driver over the demo set, the test fake) runs this suite. It proves the promises
 * of src/ports/upstream.ts: the normalised shapes (upstream-types.ts), plain JSON results, the
 * error codes (upstream-errors.ts) and `signal` (upstream-signal.ts). Each implementation names
 * the ids it has data for.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../src/errors.ts';
import type { ChannelSort, SearchFilters, Upstream } from '../../src/ports/upstream.ts';
import { commentChecks } from './upstream-comments.ts';
import { errorChecks } from './upstream-errors.ts';
import { arrayOf, type Check, problems } from './upstream-shapes.ts';
import { signalChecks } from './upstream-signal.ts';
import * as T from './upstream-types.ts';

/** Per page of a list, in order: whether a next page follows (the list ends at the first `false`). */
export type More = boolean[];

/** The ids an implementation has data for. Optional ones skip their check when absent. */
export interface UpstreamIds {
  /** A playable video with caption tracks. */
  video: string;
  /** A playable video without caption tracks. */
  captionlessVideo?: string;
  /** A video that does not exist: `video_unavailable`. */
  missingVideo: string;
  /** Videos that cannot be watched, by the code they fail with. */
  unwatchable?: Partial<Record<ErrorCode, string>>;
  /** A channel with a profile and latest uploads. */
  channel: string;
  handle?: { handle: string; channelId: string };
  missingHandle?: string;
  /** A `UC…` id of no (or no longer any) channel: `channel_not_found`. */
  missingChannel: string;
  videoTab: { channelId: string; tab: 'videos' | 'shorts' | 'streams'; sort?: ChannelSort; more: More };
  playlistsTab: { channelId: string; more: More };
  playlist: { id: string; more: More };
  missingPlaylist: string;
  search: { query: string; filters: SearchFilters; more: More };
  suggestions: string;
  /**
   * A video with comments: its "top" pages (`more`), optionally its "newest" pages, and the
   * reply pages of the first comment of its first page that has replies.
   */
  comments?: { videoId: string; more: More; newest?: More; replies?: More };
  /** A playable video whose comments are turned off: `comments_disabled`. */
  commentsOff?: string;
}

/** What a factory hands the suite. */
export interface UpstreamUnderTest {
  upstream: Upstream;
  ids: UpstreamIds;
  /** Upstream requests made so far, where the implementation can tell. */
  work?: () => number;
  /** From now on every upstream request waits until its signal aborts; `started` resolves when one waits. */
  hang?: () => { started: Promise<void> };
  cleanup?: () => Promise<void>;
}

/** Declares one check of the contract (`it`, with the skip context). */
export type ContractTest = (
  title: string,
  fn: (ctx: { skip: (note: string) => void }) => Promise<void>,
) => void;

/** Fetches the pages `more` describes, following continuations, and checks each. */
async function chain<P extends { continuation?: string }>(
  more: More,
  check: Check,
  fetch: (continuation: string | undefined) => Promise<P>,
): Promise<P[]> {
  const pages: P[] = [];
  let continuation: string | undefined;
  for (const [i, expected] of more.entries()) {
    const page = await fetch(continuation);
    expect(problems(check, page, `page ${i + 1}`)).toEqual([]);
    expect(page.continuation !== undefined, `page ${i + 1} has a continuation`).toBe(expected);
    pages.push(page);
    if (!page.continuation) break;
    continuation = page.continuation;
  }
  expect(pages).toHaveLength(more.length);
  return pages;
}

/** Runs the contract against the implementation `create` builds (fresh for every test). */
export function upstreamContract(name: string, create: () => Promise<UpstreamUnderTest>): void {
  describe(`Upstream contract: ${name}`, () => {
    let subject: UpstreamUnderTest;
    let u: Upstream;
    let ids: UpstreamIds;
    beforeEach(async () => {
      subject = await create();
      u = subject.upstream;
      ids = subject.ids;
    });
    afterEach(async () => {
      await subject.cleanup?.();
    });
    const test: ContractTest = (title, fn) => it(title, fn);

    test('player: PlayerData of the video; one default track at most, refs distinct', async () => {
      const p = await u.player(ids.video);
      expect(problems(T.playerData, p)).toEqual([]);
      expect(p.videoId).toBe(ids.video);
      expect(p.tracks.length).toBeGreaterThan(0);
      expect(p.tracks.filter((t) => t.isDefault).length).toBeLessThanOrEqual(1);
      expect(new Set(p.tracks.map((t) => t.ref)).size).toBe(p.tracks.length);
      const variants = p.tracks.map((t) => `${t.languageCode}|${t.kind}|${t.variant ?? ''}`);
      expect(new Set(variants).size, 'language, kind and variant tell tracks apart').toBe(variants.length);
    });

    test('player: a video without captions has no tracks', async (ctx) => {
      if (!ids.captionlessVideo) return ctx.skip('no captionless video in its data');
      const p = await u.player(ids.captionlessVideo);
      expect(problems(T.playerData, p)).toEqual([]);
      expect(p.tracks).toEqual([]);
    });

    test('captions: TimedText for every track of the video', async () => {
      for (const track of (await u.player(ids.video)).tracks) {
        expect(problems(T.timedText, await u.captions(track), track.ref)).toEqual([]);
      }
    });

    test('videoExtras: VideoExtras of the video', async () => {
      expect(problems(T.videoExtras, await u.videoExtras(ids.video))).toEqual([]);
    });

    test('resolveChannel: an id names itself; a handle names its channel', async () => {
      expect(await u.resolveChannel({ kind: 'id', id: ids.channel })).toBe(ids.channel);
      if (ids.handle)
        expect(await u.resolveChannel({ kind: 'handle', handle: ids.handle.handle })).toBe(
          ids.handle.channelId,
        );
    });

    test('channel: ChannelProfile of the channel', async () => {
      const profile = await u.channel(ids.channel);
      expect(problems(T.channelProfile, profile)).toEqual([]);
      expect(profile.channelId).toBe(ids.channel);
    });

    test('channelVideos: VideoCard pages chained by continuation', async () => {
      const { channelId, tab, sort, more } = ids.videoTab;
      const pages = await chain(more, T.channelTabPage(T.videoCard), (continuation) =>
        u.channelVideos(channelId, tab, {
          ...(sort ? { sort } : {}),
          ...(continuation ? { continuation } : {}),
        }),
      );
      expect(pages[0]!.items.length).toBeGreaterThan(0);
      for (const page of pages)
        expect([page.channelId, page.channelTitle]).toEqual([channelId, pages[0]!.channelTitle]);
    });

    test('channelPlaylists: PlaylistCard pages chained by continuation', async () => {
      const { channelId, more } = ids.playlistsTab;
      const pages = await chain(more, T.channelTabPage(T.playlistCard), (continuation) =>
        u.channelPlaylists(channelId, continuation ? { continuation } : {}),
      );
      expect(pages[0]!.items.length).toBeGreaterThan(0);
      for (const page of pages)
        expect([page.channelId, page.channelTitle]).toEqual([channelId, pages[0]!.channelTitle]);
    });

    test('latest: 1 to 15 VideoCards, newest first', async () => {
      const cards = await u.latest(ids.channel);
      expect(problems(arrayOf(T.videoCard), cards)).toEqual([]);
      expect(cards.length).toBeGreaterThan(0);
      expect(cards.length).toBeLessThanOrEqual(15);
      const dates = cards.flatMap((c) => (c.publishedAt === undefined ? [] : [c.publishedAt]));
      expect(dates).toEqual([...dates].sort((a, b) => b - a));
    });

    test('playlist: pages chained by continuation; header on the first; indexes rise across pages', async () => {
      const { id, more } = ids.playlist;
      const pages = await chain(more, T.playlistPage, (continuation) =>
        u.playlist(id, continuation ? { continuation } : {}),
      );
      expect(pages.map((p) => p.playlistId)).toEqual(pages.map(() => id));
      expect(typeof pages[0]!.title, 'the header (title) is on the first page').toBe('string');
      const indexes = pages.flatMap((p) => p.videos.map((v) => v.index));
      expect(indexes.length).toBeGreaterThan(0);
      expect(
        indexes.every((n, i) => i === 0 || n > indexes[i - 1]!),
        `indexes ${indexes}`,
      ).toBe(true);
    });

    test('search: SearchPages chained by continuation', async () => {
      const { query, filters, more } = ids.search;
      const pages = await chain(more, T.searchPage, (continuation) =>
        u.search(query, filters, continuation ? { continuation } : {}),
      );
      expect(pages[0]!.items.length).toBeGreaterThan(0);
    });

    test('suggestions: non-empty strings', async () => {
      const list = await u.suggestions(ids.suggestions);
      expect(problems(T.suggestionList, list)).toEqual([]);
      expect(list.length).toBeGreaterThan(0);
    });

    commentChecks(() => subject, test);
    errorChecks(() => subject, test);
    signalChecks(() => subject, test);
  });
}
