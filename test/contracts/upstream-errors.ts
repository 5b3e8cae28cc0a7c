/**
 * The error part of the Upstream contract: a video, channel, handle or playlist that does not
 * exist, and videos that cannot be watched, fail with the port's codes as an `ApiError`, never as
 * data.
 */
import { describe, expect } from 'vitest';
import { ApiError, type ErrorCode } from '../../src/errors.ts';
import type { Upstream } from '../../src/ports/upstream.ts';
import type { ContractTest, UpstreamIds, UpstreamUnderTest } from './upstream.ts';

/** Rejects unless `promise` rejects with an ApiError of `code`. */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<void> {
  const outcome = await promise.then(
    (value) => ({ resolved: value }),
    (error: unknown) => error,
  );
  expect(outcome, `rejects with ${code}`).toBeInstanceOf(ApiError);
  expect((outcome as ApiError).code).toBe(code);
}

/** A call that must fail, and the code it must fail with. */
type Failing = [call: (u: Upstream) => Promise<unknown>, code: ErrorCode];

/** The error checks: the failing calls of an implementation's ids, or why it has none. */
const CHECKS: { title: string; cases: (ids: UpstreamIds) => Failing[] | string }[] = [
  {
    title: 'player and videoExtras: a video that does not exist → video_unavailable',
    cases: ({ missingVideo: id }) => [
      [(u) => u.player(id), 'video_unavailable'],
      [(u) => u.videoExtras(id), 'video_unavailable'],
    ],
  },
  {
    title: 'player: a video that cannot be watched → its code',
    cases: ({ unwatchable = {} }) =>
      Object.keys(unwatchable).length === 0
        ? 'no unwatchable video in its data'
        : Object.entries(unwatchable).map(([code, id]): Failing => [(u) => u.player(id), code as ErrorCode]),
  },
  {
    title: 'resolveChannel: an unknown handle → channel_not_found',
    cases: ({ missingHandle: handle }) =>
      handle === undefined
        ? 'no unknown handle in its data'
        : [[(u) => u.resolveChannel({ kind: 'handle', handle }), 'channel_not_found']],
  },
  {
    title: 'channel, channelVideos, channelPlaylists, latest: a missing channel → channel_not_found',
    cases: ({ missingChannel: id }) => [
      [(u) => u.channel(id), 'channel_not_found'],
      [(u) => u.channelVideos(id, 'videos', {}), 'channel_not_found'],
      [(u) => u.channelPlaylists(id, {}), 'channel_not_found'],
      [(u) => u.latest(id), 'channel_not_found'],
    ],
  },
  {
    title: 'playlist: a missing playlist → playlist_not_found',
    cases: ({ missingPlaylist: id }) => [[(u) => u.playlist(id, {}), 'playlist_not_found']],
  },
];

/** Registers the error checks on `test`; `current` is the implementation under test. */
export function errorChecks(current: () => UpstreamUnderTest, test: ContractTest): void {
  describe('errors', () => {
    for (const { title, cases } of CHECKS) {
      test(title, async (ctx) => {
        const s = current();
        const failing = cases(s.ids);
        if (typeof failing === 'string') return ctx.skip(failing);
        for (const [call, code] of failing) await expectCode(call(s.upstream), code);
      });
    }
  });
}
