/**
 * The `signal` part of the Upstream contract: "once it aborts, no further upstream request starts
 * and the call rejects", for every method. An already-aborted signal must reject (with the
 * signal's reason or an AbortError) without upstream work, and without waiting for the upstream
 * where the implementation can be made to hang; a signal aborted while a request hangs must
 * reject the call and start no further request. Work is counted where the implementation can.
 */
import { expect } from 'vitest';
import type { CaptionTrack, Upstream, UpstreamOptions } from '../../src/ports/upstream.ts';
import type { ContractTest, UpstreamIds, UpstreamUnderTest } from './upstream.ts';

type Call = (u: Upstream, ids: UpstreamIds, track: CaptionTrack, o: UpstreamOptions) => Promise<unknown>;

/** Every method, with the ids it is called with; `request: false` when it needs no upstream request. */
const CALLS: { name: string; call: Call; request?: false }[] = [
  { name: 'player', call: (u, ids, _t, o) => u.player(ids.video, o) },
  { name: 'captions', call: (u, _ids, track, o) => u.captions(track, o) },
  { name: 'videoExtras', call: (u, ids, _t, o) => u.videoExtras(ids.video, o) },
  {
    name: 'resolveChannel (id)',
    call: (u, ids, _t, o) => u.resolveChannel({ kind: 'id', id: ids.channel }, o),
    request: false,
  },
  {
    name: 'resolveChannel (handle)',
    call: (u, ids, _t, o) => u.resolveChannel({ kind: 'handle', handle: ids.handle?.handle ?? '@x' }, o),
  },
  { name: 'channel', call: (u, ids, _t, o) => u.channel(ids.channel, o) },
  {
    name: 'channelVideos',
    call: (u, ids, _t, o) => u.channelVideos(ids.videoTab.channelId, ids.videoTab.tab, {}, o),
  },
  {
    name: 'channelPlaylists',
    call: (u, ids, _t, o) => u.channelPlaylists(ids.playlistsTab.channelId, {}, o),
  },
  { name: 'latest', call: (u, ids, _t, o) => u.latest(ids.channel, o) },
  { name: 'playlist', call: (u, ids, _t, o) => u.playlist(ids.playlist.id, {}, o) },
  { name: 'search', call: (u, ids, _t, o) => u.search(ids.search.query, ids.search.filters, {}, o) },
  { name: 'suggestions', call: (u, ids, _t, o) => u.suggestions(ids.suggestions, o) },
  {
    name: 'comments',
    call: (u, ids, _t, o) => u.comments(ids.comments?.videoId ?? ids.video, { sort: 'top' }, o),
  },
];

/** Lets pending callbacks run (no time is measured). */
async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
}

const PENDING = Symbol('pending');

/**
 * Fails unless `promise` has rejected with `reason` or an AbortError once pending callbacks ran:
 * it must not wait for the upstream (which `hang` keeps from ever answering).
 */
async function expectPromptAbort(promise: Promise<unknown>, reason: Error): Promise<void> {
  let outcome: unknown = PENDING;
  promise.then(
    (value) => {
      outcome = { resolved: value };
    },
    (error: unknown) => {
      outcome = error;
    },
  );
  await settle();
  expect(outcome, 'settled without waiting for the upstream').not.toBe(PENDING);
  if (outcome !== reason) {
    expect(outcome, 'rejects with the signal reason or an AbortError').toMatchObject({ name: 'AbortError' });
  }
}

/** The track the calls other than `captions` are handed (and ignore). */
const UNUSED_TRACK: CaptionTrack = {
  languageCode: 'en',
  name: '',
  kind: 'manual',
  isTranslatable: false,
  isDefault: false,
  ref: '-',
};

/** The track `captions` is called with (a player call, made before anything is measured). */
async function trackFor(s: UpstreamUnderTest, name: string): Promise<CaptionTrack> {
  if (name !== 'captions') return UNUSED_TRACK;
  const [track] = (await s.upstream.player(s.ids.video)).tracks;
  if (!track) throw new Error(`${s.ids.video} has no caption track`);
  return track;
}

/** Registers the signal checks on `test`; `current` is the implementation under test. */
export function signalChecks(current: () => UpstreamUnderTest, test: ContractTest): void {
  for (const { name, call } of CALLS) {
    test(`signal: already aborted → ${name} rejects, no upstream work`, async (ctx) => {
      const s = current();
      if (name === 'resolveChannel (handle)' && !s.ids.handle) return ctx.skip('no handle in its data');
      const track = await trackFor(s, name);
      const before = s.work?.();
      s.hang?.(); // so that waiting for the upstream would never end
      const controller = new AbortController();
      const reason = new Error('contract: aborted before the call');
      controller.abort(reason);
      await expectPromptAbort(call(s.upstream, s.ids, track, { signal: controller.signal }), reason);
      expect(s.work?.(), 'upstream requests').toBe(before);
    });
  }

  for (const { name, call } of CALLS.filter((c) => c.request !== false)) {
    test(`signal: aborted mid-request → ${name} rejects, no further request`, async (ctx) => {
      const s = current();
      if (!s.hang) return ctx.skip('it cannot be made to hang: no request in flight to abort');
      if (name === 'resolveChannel (handle)' && !s.ids.handle) return ctx.skip('no handle in its data');
      const track = await trackFor(s, name);
      const { started } = s.hang();
      const controller = new AbortController();
      const reason = new Error('contract: aborted mid-request');
      const pending = call(s.upstream, s.ids, track, { signal: controller.signal });
      pending.catch(() => {}); // judged after the abort
      await started;
      await settle();
      const atAbort = s.work?.();
      controller.abort(reason);
      await expectPromptAbort(pending, reason);
      expect(s.work?.(), 'upstream requests after the abort').toBe(atAbort);
    });
  }
}
