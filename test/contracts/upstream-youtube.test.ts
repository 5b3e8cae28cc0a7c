/**
 * The Upstream contract against the YouTube driver, replaying the real YouTube answers in
 * ../shared/youtube-recordings (TUBESCRIBE_RECORDINGS; skipped loudly without it, like the
 * test/youtube replay suites). A request that matches no recording gets the replay's 404.
 *
 * Two exchanges were never recorded and are served by handlers (as in test/youtube/driver-*.test.ts):
 * timed text (generated json3, with the styling tables YouTube sends, which the driver must drop)
 * and the kurzgesagt feed, recorded as `?user=Kurzgesagt` while the driver asks by `?channel_id=`.
 */
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { describeRecordings, loadRecording } from '../youtube/recordings.ts';
import { ReplayFetch } from '../youtube/replay-fetch.ts';
import { upstreamContract } from './upstream.ts';

const KURZGESAGT = 'UCsXVk37bltHxD1rDPwtNM8Q';

/** Every recording, loaded once for all tests (each test resets the log and the handlers). */
let shared: ReplayFetch | undefined;

/** Generated json3 for `/api/timedtext`, in the shape YouTube answers (styling tables included). */
function timedText(url: URL): Response | undefined {
  if (url.pathname !== '/api/timedtext') return undefined;
  const text = `${url.searchParams.get('v')} ${url.searchParams.get('lang')}`;
  return Response.json({
    wireMagic: 'pb3',
    pens: [{}],
    wsWinStyles: [{}],
    wpWinPositions: [{}],
    events: [
      { tStartMs: 0, dDurationMs: 3000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
      {
        tStartMs: 100,
        dDurationMs: 2000,
        wWinId: 1,
        segs: [{ utf8: text }, { utf8: ' end', tOffsetMs: 900 }],
      },
    ],
  });
}

describeRecordings('Upstream contract over the recordings', () => {
  upstreamContract('YouTube driver (recordings replayed)', async () => {
    shared ??= new ReplayFetch();
    const replay = shared;
    replay.log.length = 0;
    replay.misses.length = 0;
    replay.handlers.length = 0;
    const feed = loadRecording('youtubefeedextractor/kurzgesagt/generated_mock_0.json').response.body;
    replay.handlers.push(timedText, (url) =>
      url.pathname === '/feeds/videos.xml' && url.searchParams.get('channel_id') === KURZGESAGT
        ? new Response(feed, { headers: { 'content-type': 'text/xml; charset=UTF-8' } })
        : undefined,
    );
    let requests = 0;
    let hanging: (() => void) | undefined;
    const fetch = (url: string, init: RequestInit = {}): Promise<Response> => {
      requests++;
      if (!hanging) return replay.fetch(url, init);
      hanging();
      return new Promise<Response>((_, reject) => {
        const signal = init.signal;
        if (signal?.aborted) reject(signal.reason);
        signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    };
    return {
      upstream: createYouTubeUpstream({
        fetch,
        retries: 0,
        clock: new ManualClock('2026-06-07T21:18:00Z'),
        random: new SeededRandom(3),
      }),
      ids: {
        video: 'rCAS2eD-mcw',
        captionlessVideo: 'X4VbdwhkE10',
        missingVideo: 'don-t-exist',
        unwatchable: {
          private_video: '8VajtrESJzA',
          members_only: 'ayI2iBwGdxw',
          region_blocked: '_PL2HJKxnOM',
        },
        channel: KURZGESAGT,
        handle: { handle: '@Gronkh', channelId: 'UCYJ61XIK64sp6ZFFS8sctxw' },
        missingHandle: '@nonExistingHandleThatWillNeverExist15464',
        missingChannel: 'UCoaO4U_p7G7AwalqSbGCZOA',
        videoTab: {
          channelId: 'UCR-DXc1voovS8nhAvccRZhg',
          tab: 'streams',
          sort: 'newest',
          more: [true, false],
        },
        playlistsTab: { channelId: 'UC2DjFE7Xf11URZqWBigcVOQ', more: [true, true] },
        playlist: { id: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', more: [true, false] },
        missingPlaylist: 'PL11111111111111111111111111111111',
        search: { query: 'test', filters: { type: 'video' }, more: [true, true] },
        suggestions: 'hello',
        // Recorded: the first "Top" page and the first page of the pinned comment's replies.
        comments: { videoId: 'xaQJbozY_Is', more: [true], replies: [true] },
      },
      work: () => requests,
      hang: () => ({
        started: new Promise<void>((resolve) => {
          hanging = resolve;
        }),
      }),
    };
  });
});
