/**
 * The Upstream contract against the fixtures driver over the shipped demo set (fixtures/demo;
 * its README lists what each file holds). The driver reads local files, so it has nothing that
 * could hang and no request count: the mid-request signal checks skip, and "no upstream work"
 * for an aborted signal is not observed.
 */
import { fileURLToPath } from 'node:url';
import { createFixturesUpstream } from '../../src/drivers/node/fixtures-upstream.ts';
import { upstreamContract } from './upstream.ts';

const DEMO = fileURLToPath(new URL('../../fixtures/demo', import.meta.url));

upstreamContract('fixtures driver (fixtures/demo)', async () => ({
  upstream: createFixturesUpstream(DEMO),
  ids: {
    video: 'rCAS2eD-mcw',
    captionlessVideo: 'dsMFmonKDD4',
    missingVideo: 'don-t-exist',
    unwatchable: {
      private_video: '8VajtrESJzA',
      members_only: 'ayI2iBwGdxw',
      region_blocked: '_PL2HJKxnOM',
      age_restricted: 'Njp5uhTorCo',
    },
    channel: 'UCsXVk37bltHxD1rDPwtNM8Q',
    handle: { handle: '@Gronkh', channelId: 'UCYJ61XIK64sp6ZFFS8sctxw' },
    missingHandle: '@nonExistingHandleThatWillNeverExist15464',
    missingChannel: 'UCoaO4U_p7G7AwalqSbGCZOA',
    videoTab: { channelId: 'UCR-DXc1voovS8nhAvccRZhg', tab: 'streams', sort: 'newest', more: [true, false] },
    playlistsTab: { channelId: 'UC2DjFE7Xf11URZqWBigcVOQ', more: [true, false] },
    playlist: { id: 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr', more: [true, false] },
    missingPlaylist: 'PL11111111111111111111111111111111',
    search: { query: 'test', filters: { type: 'video' }, more: [true, false] },
    suggestions: 'hello',
    comments: { videoId: 'xaQJbozY_Is', more: [true, false], replies: [true, false] },
  },
}));
