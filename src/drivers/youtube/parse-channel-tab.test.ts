import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParseError } from './json.ts';
import {
  continuationToken,
  parseChannelPlaylists,
  parseChannelVideos,
  parseDurationText,
  parseViewCount,
  sortChipTokens,
  sortOfChipToken,
  TAB_PARAMS,
} from './parse-channel-tab.ts';
import { decodeToken, protoString } from './protobuf.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const thumbs = (id: string) => [
  { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=a`, width: 168, height: 94 },
  { url: `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=b`, width: 336, height: 188 },
];
const CH = 'UCaaaaaaaaaaaaaaaaaaaaaa';

describe('TAB_PARAMS', () => {
  it.each(Object.entries(TAB_PARAMS))('%s params name the tab in field 2', (tab, params) => {
    expect(protoString(decodeToken(params), 2)).toBe(tab);
  });
});

describe('parseDurationText', () => {
  it.each<[string, number | undefined]>([
    ['1:07:34', 4054],
    ['3:03', 183],
    ['0:59', 59],
    ['12:00:00', 43_200],
    ['1:00:00:00', 86_400],
    [' 4:20 ', 260],
    ['LIVE', undefined],
    ['UPCOMING', undefined],
    ['SHORTS', undefined],
    ['3', undefined],
    ['1:2:3:4:5', undefined],
    ['', undefined],
  ])('%j → %s', (input, expected) => {
    expect(parseDurationText(input)).toBe(expected);
  });

  it('reads back any h:mm:ss (law)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 359_999 }), (s) => {
        const text = `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
        expect(parseDurationText(text)).toBe(s);
      }),
    );
  });
});

describe('parseViewCount', () => {
  it.each<[string, number | undefined]>([
    ['1,545,374 views', 1_545_374],
    ['1.2M views', 1_200_000],
    ['895k views', 895_000],
    ['3m views', 3_000_000],
    ['6.5k views', 6_500],
    ['28 views', 28],
    ['1 view', 1],
    ['No views', 0],
    ['312 watching', 312],
    ['1,234 watching now', 1_234],
    ['views', undefined],
  ])('%j → %s', (input, expected) => {
    expect(parseViewCount(input)).toBe(expected);
  });
});

describe('parseChannelVideos', () => {
  it('reads a 2026 lockup grid', () => {
    const page = parseChannelVideos(fixture('channel-2026.json'), { channelId: CH, tab: 'videos' });
    expect(page).toEqual({
      channelId: CH,
      channelTitle: 'Science Cat',
      items: [
        {
          videoId: 'vid00000001',
          title: 'How gravity works',
          lengthText: '12:34',
          lengthSeconds: 754,
          viewCountText: '1.2M views',
          viewCount: 1_200_000,
          publishedText: '2 weeks ago',
          thumbnails: thumbs('vid00000001'),
        },
        {
          videoId: 'vid00000002',
          title: 'Live: ask a cat anything',
          viewCountText: '312 watching',
          viewCount: 312,
          thumbnails: thumbs('vid00000002'),
          live: 'live',
        },
        {
          videoId: 'vid00000003',
          title: 'Black holes (premiere)',
          publishedText: 'Premieres 01/03/2027',
          thumbnails: thumbs('vid00000003'),
          live: 'upcoming',
        },
        {
          videoId: 'vid00000004',
          title: 'The one-hour special',
          lengthText: '1:07:34',
          lengthSeconds: 4054,
          viewCountText: 'No views',
          viewCount: 0,
          publishedText: '3 years ago',
          thumbnails: thumbs('vid00000004'),
        },
      ],
      continuation: 'tokVideosPage2',
    });
  });

  it('reads older videoRenderer items: live, upcoming, streamed', () => {
    const page = parseChannelVideos(fixture('channel-c4.json'), { channelId: 'UCignored' });
    expect(page.channelId).toBe('UCbbbbbbbbbbbbbbbbbbbbbb');
    expect(page.channelTitle).toBe('Old Cat');
    expect(page.continuation).toBe('tokOldPage2');
    expect(page.items.map((v) => [v.videoId, v.lengthSeconds, v.viewCount, v.publishedText, v.live])).toEqual(
      [
        ['old00000001', 485, 845_112, '5 years ago', undefined],
        ['old00000002', undefined, 1_234, undefined, 'live'],
        ['old00000003', undefined, 17, undefined, 'upcoming'],
        ['old00000004', 7200, 12_000, 'Streamed 1 month ago', 'ended'],
      ],
    );
  });

  it('reads gridVideoRenderer inside sectionListRenderer/gridRenderer', () => {
    const page = parseChannelVideos(fixture('channel-grid-legacy.json'), { channelId: CH });
    expect(page.items).toEqual([
      {
        videoId: 'grd00000001',
        title: 'Grid era video',
        lengthText: '4:20',
        lengthSeconds: 260,
        viewCountText: '1,000,001 views',
        viewCount: 1_000_001,
        publishedText: '7 years ago',
        thumbnails: thumbs('grd00000001'),
      },
    ]);
    expect(page.continuation).toBe('tokGridPage2');
  });

  it('reads a shorts continuation page (shortsLockupViewModel, reelItemRenderer, continuationItemViewModel)', () => {
    const page = parseChannelVideos(fixture('channel-shorts-continuation.json'), {
      channelId: CH,
      channelTitle: 'Science Cat',
    });
    expect(page.channelTitle).toBe('Science Cat');
    expect(page.items.map((v) => [v.videoId, v.title, v.viewCount, v.thumbnails[0]?.height])).toEqual([
      ['sht00000001', 'Cat vs cucumber', 2_400_000, 720],
      ['sht00000002', 'Physics in 30 seconds', 895_000, 720],
      ['sht00000003', 'Old-style short', 12_000, 1920],
    ]);
    expect(page.continuation).toBe('tokShortsPage3');
  });

  it('answers an empty page when YouTube shows another tab than the one requested', () => {
    expect(parseChannelVideos(fixture('channel-2026.json'), { channelId: CH, tab: 'shorts' })).toEqual({
      channelId: CH,
      channelTitle: 'Science Cat',
      items: [],
    });
  });

  it('reports removed channels and unknown layouts', () => {
    expect(() => parseChannelVideos(fixture('channel-removed.json'), { channelId: CH })).toThrow(
      expect.objectContaining({ code: 'channel_not_found' }),
    );
    expect(() => parseChannelVideos({ contents: {} }, { channelId: CH })).toThrow(ParseError);
    const renamed = {
      onResponseReceivedActions: [
        { appendContinuationItemsAction: { continuationItems: [{ videoLockupV9: {} }] } },
      ],
    };
    expect(() => parseChannelVideos(renamed, { channelId: CH })).toThrow(/videoLockupV9/);
    const ended = {
      onResponseReceivedActions: [
        { appendContinuationItemsAction: { continuationItems: [{ messageRenderer: {} }] } },
      ],
    };
    expect(parseChannelVideos(ended, { channelId: CH, channelTitle: 'T' })).toEqual({
      channelId: CH,
      channelTitle: 'T',
      items: [],
    });
  });
});

describe('parseChannelPlaylists', () => {
  it('reads playlist lockups and the older playlist renderers', () => {
    const page = parseChannelPlaylists(fixture('channel-playlists.json'), {
      channelId: CH,
      tab: 'playlists',
    });
    expect(
      page.items.map((p) => [p.playlistId, p.title, p.videoCountText, p.videoCount, p.thumbnails.length]),
    ).toEqual([
      ['PLcat000000000000000000000000000001', 'Gravity series', '12 videos', 12, 1],
      ['PLcat000000000000000000000000000002', 'Cat physics course', '8 lessons', 8, 1],
      ['PLcat000000000000000000000000000003', 'Classic uploads', '1,204 videos', 1204, 1],
      ['PLcat000000000000000000000000000004', 'Renderer-era list', '3 videos', 3, 1],
    ]);
    expect(page.continuation).toBe('tokPlaylistsPage2');
  });

  it('rejects a page whose items are all of another kind (videos given to the playlists reader)', () => {
    expect(() => parseChannelPlaylists(fixture('channel-2026.json'), { channelId: CH })).toThrow(ParseError);
  });
});

describe('sort chips', () => {
  it('reads chipBarViewModel chips by label', () => {
    expect(sortChipTokens(fixture('channel-2026.json'))).toEqual({
      newest: 'chipLatest',
      popular: 'chipPopular',
      oldest: 'chipOldest',
    });
  });

  it('reads feedFilterChipBarRenderer chips with foreign labels from the token', () => {
    const chips = sortChipTokens(fixture('channel-c4.json'));
    expect(Object.keys(chips)).toEqual(['newest', 'popular', 'oldest']);
    expect(sortOfChipToken(chips.popular!)).toBe('popular');
    expect(sortOfChipToken(chips.oldest!)).toBe('oldest');
  });

  it('has no chips on continuation pages and no sort in foreign tokens', () => {
    expect(sortChipTokens(fixture('channel-shorts-continuation.json'))).toEqual({});
    expect(sortOfChipToken('tokVideosPage2')).toBeUndefined();
  });
});

describe('continuationToken', () => {
  it('reads both continuation item shapes', () => {
    expect(
      continuationToken({
        continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token: 'a' } } },
      }),
    ).toBe('a');
    expect(
      continuationToken({
        continuationItemRenderer: {
          button: { buttonRenderer: { command: { continuationCommand: { token: 'b' } } } },
        },
      }),
    ).toBe('b');
    expect(continuationToken({ continuationItemViewModel: { continuationCommand: { token: 'c' } } })).toBe(
      'c',
    );
    expect(continuationToken({ videoRenderer: {} })).toBeUndefined();
  });
});
