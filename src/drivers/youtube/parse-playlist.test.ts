import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { ParseError } from './json.ts';
import { parsePlaylist } from './parse-playlist.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const thumbs = (id: string) => [
  { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=a`, width: 168, height: 94 },
  { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=b`, width: 336, height: 188 },
];
const PL = 'PLcat000000000000000000000000000001';

describe('parsePlaylist', () => {
  it('reads the older header and playlistVideoRenderer items', () => {
    expect(parsePlaylist(fixture('playlist-legacy.json'), { playlistId: PL })).toEqual({
      playlistId: PL,
      title: 'Gravity series',
      description: 'Everything falls.',
      videoCount: 12,
      viewCountText: '4,321 views',
      author: 'Science Cat',
      thumbnails: [{ url: 'https://i.ytimg.com/vi/vid00000001/hqdefault.jpg', width: 480, height: 270 }],
      videos: [
        {
          videoId: 'vid00000001',
          title: 'How gravity works',
          index: 1,
          lengthSeconds: 754,
          lengthText: '12:34',
          author: 'Science Cat',
          channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
          thumbnails: thumbs('vid00000001'),
        },
        {
          videoId: 'vid00000005',
          title: 'Guest: dog explains tides',
          index: 2,
          lengthSeconds: 61,
          lengthText: '1:01',
          author: 'Dog Lab',
          channelId: 'UCdddddddddddddddddddddd',
          thumbnails: thumbs('vid00000005'),
        },
        { videoId: 'vid00000006', title: '[Private video]', index: 3, thumbnails: thumbs('vid00000006') },
      ],
      continuation: 'tokPlaylistPage2',
    });
  });

  it('reads the 2026 page header and lockupViewModel items, numbering from firstIndex', () => {
    const page = parsePlaylist(fixture('playlist-2026.json'), { playlistId: PL, firstIndex: 101 });
    expect(page).toMatchObject({
      playlistId: PL,
      title: 'Gravity series',
      description: 'Everything falls, in two parts.',
      videoCount: 2,
      viewCountText: '99 views',
      author: 'Science Cat',
      thumbnails: [{ url: 'https://i.ytimg.com/vi/vid00000001/hqdefault.jpg', width: 480, height: 270 }],
      continuation: 'tokLockupPage2',
    });
    expect(page.videos).toEqual([
      {
        videoId: 'vid00000001',
        title: 'How gravity works',
        index: 101,
        lengthSeconds: 754,
        lengthText: '12:34',
        author: 'Science Cat',
        channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
        thumbnails: thumbs('vid00000001'),
      },
      {
        videoId: 'vid00000007',
        title: 'Orbits for kittens',
        index: 102,
        lengthSeconds: 3723,
        lengthText: '1:02:03',
        author: 'Science Cat',
        channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
        thumbnails: thumbs('vid00000007'),
      },
    ]);
  });

  it('reads a continuation page (items only) and the last page (no token)', () => {
    const item = (videoId: string, index: number) => ({
      playlistVideoRenderer: {
        videoId,
        title: { runs: [{ text: videoId }] },
        index: { simpleText: String(index) },
      },
    });
    const page = parsePlaylist(
      {
        onResponseReceivedActions: [
          { appendContinuationItemsAction: { continuationItems: [item('a', 101), item('b', 102)] } },
        ],
      },
      { playlistId: PL },
    );
    expect(page).toEqual({
      playlistId: PL,
      videos: [
        { videoId: 'a', title: 'a', index: 101, thumbnails: [] },
        { videoId: 'b', title: 'b', index: 102, thumbnails: [] },
      ],
    });
  });

  it('reports a missing playlist as playlist_not_found, with the reason', () => {
    let error: unknown;
    try {
      parsePlaylist(fixture('playlist-missing.json'), { playlistId: 'PLnope' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      code: 'playlist_not_found',
      details: { reason: 'The playlist does not exist.' },
    });
  });

  it('maps error bodies and rejects unknown shapes', () => {
    expect(() =>
      parsePlaylist({ error: { code: 400, status: 'INVALID_ARGUMENT' } }, { playlistId: 'x' }),
    ).toThrow(expect.objectContaining({ code: 'playlist_not_found' }));
    expect(() => parsePlaylist({ error: { code: 503, status: 'UNAVAILABLE' } }, { playlistId: 'x' })).toThrow(
      ParseError,
    );
    expect(() => parsePlaylist({ responseContext: {} }, { playlistId: 'x' })).toThrow(ParseError);
  });
});
