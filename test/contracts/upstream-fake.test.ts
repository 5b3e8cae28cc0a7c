/**
 * The Upstream contract against the test fake (test/fakes/upstream.ts), programmed with the
 * captionless video and the missing playlist, channel and handle the suite asks for. Its `calls`
 * count the upstream work; its `gate` makes calls hang. It fails by method (`failures`), not by
 * video, so it names no unwatchable video and that check skips.
 */
import { CHANNEL, COMMENTS_OFF, FakeUpstream, PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import { upstreamContract } from './upstream.ts';

const CAPTIONLESS = 'cccccccccc0';
const MISSING_CHANNEL = 'UCzzzzzzzzzzzzzzzzzzzzzz';
const MISSING_PLAYLIST = 'PLzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz';
const MISSING_HANDLE = '@nobody';

upstreamContract('FakeUpstream', async () => {
  const fake = new FakeUpstream();
  fake.players.set(CAPTIONLESS, {
    ...structuredClone(fake.players.get(VIDEO)!),
    videoId: CAPTIONLESS,
    tracks: [],
  });
  for (const name of [MISSING_CHANNEL, MISSING_PLAYLIST, MISSING_HANDLE])
    fake.missing.add(name.toLowerCase());
  fake.searchPageSize = 2; // 5 results: pages of 2, 2 and 1
  return {
    upstream: fake,
    ids: {
      video: VIDEO,
      captionlessVideo: CAPTIONLESS,
      missingVideo: 'zzzzzzzzzzz',
      channel: CHANNEL,
      handle: { handle: '@RickAstleyYT', channelId: CHANNEL },
      missingHandle: MISSING_HANDLE,
      missingChannel: MISSING_CHANNEL,
      videoTab: { channelId: CHANNEL, tab: 'videos', more: [true, false] },
      playlistsTab: { channelId: CHANNEL, more: [true, false] },
      playlist: { id: PLAYLIST, more: [true, false] },
      missingPlaylist: MISSING_PLAYLIST,
      search: { query: 'rick', filters: {}, more: [true, true, false] },
      suggestions: 'hello',
      comments: { videoId: VIDEO, more: [true, false], newest: [true, false], replies: [false] },
      commentsOff: COMMENTS_OFF,
    },
    work: () => Object.values(fake.calls).reduce((sum, n) => sum + n, 0),
    hang: () => {
      fake.gate = new Promise<void>(() => {});
      return { started: Promise.resolve() };
    },
  };
});
