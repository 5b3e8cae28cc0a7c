/**
 * Replays the real YouTube answers recorded by NewPipeExtractor (2026) through the channel,
 * channel tab, playlist, search, suggestion, feed and resolve parsers, field by field. Expected
 * values were read from the recordings themselves. Pages that YouTube chained are checked
 * against each other: the continuation a page yields is the one the next recorded request sent.
 */
import { expect, it } from 'vitest';
import { parseChannel } from '../../src/drivers/youtube/parse-channel.ts';
import {
  parseChannelPlaylists,
  parseChannelVideos,
  sortChipTokens,
  sortOfChipToken,
  TAB_PARAMS,
} from '../../src/drivers/youtube/parse-channel-tab.ts';
import { parsePlaylist } from '../../src/drivers/youtube/parse-playlist.ts';
import { parseResolveUrl } from '../../src/drivers/youtube/parse-resolve.ts';
import { parseChannelFeed } from '../../src/drivers/youtube/parse-rss.ts';
import { parseSearch } from '../../src/drivers/youtube/parse-search.ts';
import { parseSuggestions } from '../../src/drivers/youtube/parse-suggestions.ts';
import { decodeToken, protoMessage, protoString } from '../../src/drivers/youtube/protobuf.ts';
import { searchParams } from '../../src/drivers/youtube/search-params.ts';
import { ApiError } from '../../src/errors.ts';
import type { SearchFilters } from '../../src/ports/upstream.ts';
import { describeRecordings, loadRecording, recordedJson } from './recordings.ts';

/** The JSON request body of a recording. */
function requestBody(file: string): Record<string, unknown> {
  const body = loadRecording(file).request.body;
  if (body === undefined) throw new Error(`${file} has no request body`);
  return JSON.parse(body) as Record<string, unknown>;
}

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected an ApiError');
}

describeRecordings('replay: channel resolution (navigation/resolve_url)', () => {
  it.each([
    ['youtubechannelhelper/generated_mock_2.json', '@TheDailyShow', 'UCwWhs_6x42TyRM4Wstoq8HA'],
    ['youtubechannelextractor/gronkh/generated_mock_2.json', '@Gronkh', 'UCYJ61XIK64sp6ZFFS8sctxw'],
    [
      'youtubechanneltabextractor/videos/generated_mock_2.json',
      '/user/creativecommons',
      'UCTwECeGqMZee77BjdoYtI2Q',
    ],
    [
      'youtubechanneltabextractor/livestreams/generated_mock_2.json',
      '/c/JeffGeerling',
      'UCR-DXc1voovS8nhAvccRZhg',
    ],
    ['youtubechanneltabextractor/playlists/generated_mock_2.json', '@EEVblog', 'UC2DjFE7Xf11URZqWBigcVOQ'],
  ])('%s (%s) → %s', (file, path, channelId) => {
    expect(String(requestBody(file).url)).toContain(path);
    expect(parseResolveUrl(recordedJson(file))).toBe(channelId);
  });

  it('unknown handle (404) → channel_not_found', () => {
    const file = 'youtubechannelhelper/generated_mock_6.json';
    expect(loadRecording(file).response.status).toBe(404);
    expect(errorOf(() => parseResolveUrl(recordedJson(file))).code).toBe('channel_not_found');
  });
});

describeRecordings('replay: channel profiles', () => {
  it('kurzgesagt (pageHeaderViewModel, Jan 2026)', () => {
    const file = 'youtubechannelextractor/kurzgesagt/generated_mock_2.json';
    expect(requestBody(file).params).toBe(TAB_PARAMS.videos);
    const c = parseChannel(recordedJson(file));
    expect(c).toMatchObject({
      channelId: 'UCsXVk37bltHxD1rDPwtNM8Q',
      title: 'Kurzgesagt – In a Nutshell',
      handle: '@kurzgesagt',
      customUrl: '@kurzgesagt',
      subscriberCountText: '25m subscribers',
      subscriberCount: 25_000_000,
      videoCount: 337,
      verified: true,
      links: ['https://shop.kgs.link/cool'],
      tabs: ['home', 'videos', 'shorts', 'playlists', 'posts', 'store'],
    });
    expect(c.description).toMatch(
      /^Animation videos explaining things with optimistic nihilism since 12,013\.\n\nWe’re a team/,
    );
    expect(c.avatars.map((a) => a.width)).toEqual([72, 120, 160, 900]);
    expect(c.banners.map((b) => b.width)).toEqual([1060, 1138, 1707, 2120, 2276, 2560]);
    expect(c.country).toBeUndefined();
  });

  it('gronkh (pageHeaderViewModel, May 2026)', () => {
    const c = parseChannel(recordedJson('youtubechannelextractor/gronkh/generated_mock_3.json'));
    expect(c).toMatchObject({
      channelId: 'UCYJ61XIK64sp6ZFFS8sctxw',
      title: 'Gronkh',
      handle: '@gronkh',
      subscriberCountText: '5.04m subscribers',
      subscriberCount: 5_040_000,
      videoCount: 18_000,
      verified: true,
      links: ['https://twitch.tv/Gronkh'],
      tabs: ['home', 'videos', 'shorts', 'playlists', 'posts'],
    });
    expect(c.description).toMatch(/^★ ★ ★ KLICK MICH HART, DU SAU! :D ★ ★ ★\nZart im Schmelz/);
  });

  it('terminated channel (alert, no contents) → channel_not_found with the reason', () => {
    const e = errorOf(() =>
      parseChannel(recordedJson('youtubechannelextractor/notavailable/generated_mock_2.json')),
    );
    expect(e.code).toBe('channel_not_found');
    expect(e.details).toEqual({
      reason: 'This channel was removed because it violated our Community Guidelines.',
    });
  });

  it('invalid browse id (400 INVALID_ARGUMENT) → channel_not_found', () => {
    const file = 'youtubechannelextractor/notavailable/generated_mock_8.json';
    expect(loadRecording(file).response.status).toBe(400);
    expect(errorOf(() => parseChannel(recordedJson(file))).code).toBe('channel_not_found');
  });
});

interface TabCase {
  file: string;
  tab: 'videos' | 'shorts' | 'streams' | 'playlists';
  channelId: string;
  channelTitle: string;
  count: number;
  first: [string, string];
  last: [string, string];
  /** The recording whose request carried this page's continuation; null = last page; undefined = not recorded. */
  next?: string | null;
}

const TAB_PAGES: TabCase[] = [
  {
    file: 'youtubechannelextractor/kurzgesagt/generated_mock_2.json',
    tab: 'videos',
    channelId: 'UCsXVk37bltHxD1rDPwtNM8Q',
    channelTitle: 'Kurzgesagt – In a Nutshell',
    count: 30,
    first: ['D0WQK7cMJn8', 'We Made A New Channel!'],
    last: ['reSfF60-2S4', 'Is The World Getting More Violent?'],
  },
  {
    file: 'youtubechannelextractor/gronkh/generated_mock_3.json',
    tab: 'videos',
    channelId: 'UCYJ61XIK64sp6ZFFS8sctxw',
    channelTitle: 'Gronkh',
    count: 30,
    first: ['ZzVJnP9sjlo', 'SUBNAUTICA 2 | #07 🤿 Die Revolution der Letzten Überlebenden'],
    last: ['C7nsxvWMdZQ', 'WINDROSE | #20 🏴‍☠️ Stein ist mein Piratengold!'],
  },
  {
    file: 'youtubechanneltabextractor/videos/generated_mock_3.json',
    tab: 'videos',
    channelId: 'UCTwECeGqMZee77BjdoYtI2Q',
    channelTitle: 'Creative Commons',
    count: 30,
    first: [
      'BD-LB23rRBE',
      'Expert Panel III: Global Perspectives on Open Heritage and Diversity, Inclusion, and Sustainability',
    ],
    last: ['Wi5vPm56fzg', 'ALA Core webinar series, part 3 - Making the Case for Open at Your Institution'],
    next: 'youtubechanneltabextractor/videos/generated_mock_4.json',
  },
  {
    file: 'youtubechanneltabextractor/videos/generated_mock_4.json',
    tab: 'videos',
    channelId: 'UCTwECeGqMZee77BjdoYtI2Q',
    channelTitle: 'Creative Commons',
    count: 30,
    first: ['CIFHx7_z3Vc', 'ALA Core webinar series, part 2 - Deep Dive into Creative Commons Licensing'],
    last: ['9c1Kl8ElHug', 'Panel: Can AI help everyone enjoy culture as a global public good?'],
  },
  {
    file: 'youtubechanneltabextractor/livestreams/generated_mock_3.json',
    tab: 'streams',
    channelId: 'UCR-DXc1voovS8nhAvccRZhg',
    channelTitle: 'Jeff Geerling',
    count: 30,
    first: ['27J-wwgZydE', "The 1 Million Subscriber 'It was DNS' Livestream"],
    last: ['nLoJ2L0AzDY', 'Drupal 9 Upgrade on a Raspberry Pi LIVE!'],
    next: 'youtubechanneltabextractor/livestreams/generated_mock_4.json',
  },
  {
    file: 'youtubechanneltabextractor/livestreams/generated_mock_4.json',
    tab: 'streams',
    channelId: 'UCR-DXc1voovS8nhAvccRZhg',
    channelTitle: 'Jeff Geerling',
    count: 27,
    first: ['_rDzMYp-fBs', 'Ansible 101 - Episode 11 - Dynamic Inventory and Smart Inventories'],
    last: [
      'EyI_OwhufNk',
      'Drupal 7 to 8 LIVE Migration - Ep 1 - Set up Drupal codebase, git repo, Docker dev environment',
    ],
    next: null,
  },
  {
    file: 'youtubechanneltabextractor/shorts/generated_mock_2.json',
    tab: 'shorts',
    channelId: 'UCh8gHdtzO2tXd593_bjErWg',
    channelTitle: 'Doobydobap',
    count: 48,
    first: ['l-X5WbDSH2o', 'Packing lunch for my special roommate'],
    last: ['QwxXxlvoKZk', 'Korea ❤️ Japan Love Child????'],
    next: 'youtubechanneltabextractor/shorts/generated_mock_3.json',
  },
  {
    file: 'youtubechanneltabextractor/shorts/generated_mock_3.json',
    tab: 'shorts',
    channelId: 'UCh8gHdtzO2tXd593_bjErWg',
    channelTitle: 'Doobydobap',
    count: 48,
    first: ['R8ydpPnC6vI', 'Sleepless Nights in Seoul'],
    last: ['bGXP83AU3Mc', 'do u wanna get swole?'],
  },
];

describeRecordings('replay: channel video tabs', () => {
  it.each(TAB_PAGES)('$file', ({ file, tab, channelId, channelTitle, count, first, last, next }) => {
    const request = requestBody(file);
    if (request.params !== undefined) expect(request.params).toBe(TAB_PARAMS[tab]);
    const page = parseChannelVideos(recordedJson(file), { channelId, channelTitle, tab });
    expect(page.channelId).toBe(channelId);
    expect(page.channelTitle).toBe(channelTitle);
    expect(page.items).toHaveLength(count);
    expect([page.items[0]?.videoId, page.items[0]?.title]).toEqual(first);
    expect([page.items.at(-1)?.videoId, page.items.at(-1)?.title]).toEqual(last);
    for (const item of page.items) {
      expect(item.videoId).toMatch(/^[\w-]{11}$/);
      expect(item.thumbnails.length).toBeGreaterThan(0);
      expect(item.viewCount).toBeGreaterThanOrEqual(0);
      if (tab !== 'shorts') expect(item.lengthSeconds).toBeGreaterThan(0);
    }
    if (next === null) expect(page.continuation).toBeUndefined();
    else expect(protoString(protoMessage(decodeToken(page.continuation ?? ''), 80226972), 2)).toBe(channelId);
    if (next) expect(requestBody(next).continuation).toBe(page.continuation);
  });

  it('item fields: durations, view counts, dates, live state', () => {
    const kurz = parseChannelVideos(recordedJson(TAB_PAGES[0]!.file), { channelId: 'x' }).items[0];
    expect(kurz).toMatchObject({
      lengthText: '3:03',
      lengthSeconds: 183,
      viewCountText: '1,545,374 views',
      viewCount: 1_545_374,
      publishedText: '10 days ago',
    });
    const cc = parseChannelVideos(recordedJson(TAB_PAGES[2]!.file), { channelId: 'x' }).items[0];
    expect(cc).toMatchObject({
      lengthText: '1:07:34',
      lengthSeconds: 4054,
      viewCountText: '28 views',
      viewCount: 28,
      publishedText: '13 days ago',
    });
    expect(cc?.live).toBeUndefined();
    const stream = parseChannelVideos(recordedJson(TAB_PAGES[4]!.file), { channelId: 'x' }).items[0];
    expect(stream).toMatchObject({
      lengthSeconds: 3053,
      viewCount: 43_000,
      publishedText: 'Streamed 6 months ago',
      live: 'ended',
    });
    const shorts = parseChannelVideos(recordedJson(TAB_PAGES[7]!.file), { channelId: 'x' }).items;
    expect([shorts[0]?.viewCountText, shorts[0]?.viewCount, shorts.at(-1)?.viewCount]).toEqual([
      '429k views',
      429_000,
      3_000_000,
    ]);
  });

  it.each([
    [TAB_PAGES[0]!.file, 'feedFilterChipBarRenderer'],
    [TAB_PAGES[1]!.file, 'chipBarViewModel'],
    [TAB_PAGES[2]!.file, 'chipBarViewModel'],
    [TAB_PAGES[4]!.file, 'chipBarViewModel (streams sort codes)'],
    [TAB_PAGES[6]!.file, 'feedFilterChipBarRenderer (shorts)'],
  ])('sort chips of %s (%s): labels and token contents agree', (file) => {
    const chips = sortChipTokens(recordedJson(file));
    expect(Object.keys(chips).sort()).toEqual(['newest', 'oldest', 'popular']);
    for (const [sort, token] of Object.entries(chips)) expect(sortOfChipToken(token)).toBe(sort);
    expect(new Set(Object.values(chips)).size).toBe(3);
  });

  it('continuation pages carry no chips', () => {
    expect(sortChipTokens(recordedJson(TAB_PAGES[3]!.file))).toEqual({});
  });
});

describeRecordings('replay: channel playlists tab', () => {
  it('first page (EEVblog): 30 playlist lockups, counts from the badge', () => {
    const file = 'youtubechanneltabextractor/playlists/generated_mock_3.json';
    expect(requestBody(file).params).toBe(TAB_PARAMS.playlists);
    const page = parseChannelPlaylists(recordedJson(file), {
      channelId: 'UC2DjFE7Xf11URZqWBigcVOQ',
      tab: 'playlists',
    });
    expect(page.channelTitle).toBe('EEVblog');
    expect(page.items).toHaveLength(30);
    expect(page.items[0]).toMatchObject({
      playlistId: 'PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20',
      title: 'uTimer Project',
      videoCountText: '2 videos',
      videoCount: 2,
    });
    expect(page.items.find((p) => p.title === 'EEVacademy Digital Design Tutorial Series')).toMatchObject({
      videoCountText: '5 lessons',
      videoCount: 5,
    });
    expect(page.items.at(-1)).toMatchObject({
      playlistId: 'PLvOlSehNtuHt2pJ7X5tumuM4Wa3r1OC7Q',
      title: 'Audio & Speakers',
      videoCount: 9,
    });
    expect(page.items.every((p) => p.thumbnails.length === 1 && p.playlistId.startsWith('PL'))).toBe(true);
    expect(requestBody('youtubechanneltabextractor/playlists/generated_mock_4.json').continuation).toBe(
      page.continuation,
    );
  });

  it('continuation page', () => {
    const page = parseChannelPlaylists(
      recordedJson('youtubechanneltabextractor/playlists/generated_mock_4.json'),
      {
        channelId: 'UC2DjFE7Xf11URZqWBigcVOQ',
      },
    );
    expect(page.channelTitle).toBe('EEVblog');
    expect(page.items).toHaveLength(30);
    expect(page.items[0]).toMatchObject({
      playlistId: 'PLvOlSehNtuHtX7OearWdmqGzqiu4DHKWi',
      title: 'Cameras',
      videoCount: 16,
    });
    expect(page.items.at(-1)).toMatchObject({
      playlistId: 'PLvOlSehNtuHuo-6paPTh3ji7AEMpnSna6',
      title: 'CNC Milling Machine',
      videoCountText: '1 video',
      videoCount: 1,
    });
    expect(page.continuation).toBeDefined();
  });
});

describeRecordings('replay: playlists', () => {
  const TOP150 = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';
  const TOP10 = 'PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO';
  const dir = 'youtubeplaylistextractor/continuationss/';

  it.each([
    [
      `${dir}generated_mock_2.json`,
      TOP150,
      "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
      150,
      '143,206 views',
      'Redlist - Chart Playlists',
    ],
    [
      `${dir}generated_mock_5.json`,
      TOP10,
      'Top 10 Copyright Free Music Tracks 2025',
      17,
      '14,296 views',
      'Audio Lounge Music',
    ],
  ])('header of %s', (file, id, title, videoCount, viewCountText, author) => {
    expect(requestBody(file).browseId).toBe(`VL${id}`);
    const page = parsePlaylist(recordedJson(file), { playlistId: id });
    expect(page).toMatchObject({ playlistId: id, title, videoCount, viewCountText, author, videos: [] });
    expect(page.thumbnails).toHaveLength(4);
    expect(
      page.description?.startsWith(
        title === 'Top 10 Copyright Free Music Tracks 2025' ? 'The Top 10 Royalty Free' : title,
      ),
    ).toBe(true);
    expect(page.continuation).toBeUndefined();
  });

  it.each([
    [
      `${dir}generated_mock_3.json`,
      TOP150,
      100,
      ['u2ah9tWTkmk', 'Alex Warren - Ordinary (Official Video)', 1, 187],
      ['vz-_ZtUh8P4', 'Jackson Wang - Made Me a Man (Official Music Video)', 100, 236],
      `${dir}generated_mock_4.json`,
    ],
    [
      `${dir}generated_mock_4.json`,
      TOP150,
      50,
      ['aQMKAZpcynA', 'MARINA - BUTTERFLY (Official Video)', 101, 266],
      ['zUtTpuqV55U', 'Halsey - Lucky (Official Video)', 150, 229],
      null,
    ],
    [
      `${dir}generated_mock_6.json`,
      TOP10,
      17,
      [
        'UKwSQSFN4Nw',
        'Happy, Upbeat Background Instrumental | Royalty Free Music for Videos, Adverts, Commercials',
        1,
        131,
      ],
      [
        'TzRptXir15E',
        'Happy, Upbeat Background Music - Perfect for Film, Advert, Corporate, Kids & Commercials!',
        17,
        180,
      ],
      null,
    ],
  ] as const)('items of %s', (file, id, count, first, last, next) => {
    // The first item page is requested with a token naming VL<id>.
    const token = String(requestBody(file).continuation);
    expect(protoString(protoMessage(decodeToken(token), 80226972), 2)).toBe(`VL${id}`);
    const page = parsePlaylist(recordedJson(file), { playlistId: id });
    expect(page.videos).toHaveLength(count);
    const pick = (v: (typeof page.videos)[number] | undefined) => [
      v?.videoId,
      v?.title,
      v?.index,
      v?.lengthSeconds,
    ];
    expect(pick(page.videos[0])).toEqual(first);
    expect(pick(page.videos.at(-1))).toEqual(last);
    page.videos.forEach((v, i) => {
      expect(v.index).toBe(first[2] + i);
      expect(v.channelId).toMatch(/^UC[\w-]{22}$/);
      expect(v.author).toBeTruthy();
      expect(v.lengthText).toMatch(/^\d+:\d\d$/);
    });
    if (next) expect(requestBody(next).continuation).toBe(page.continuation);
    else expect(page.continuation).toBeUndefined();
  });

  it('authors and channels, including a collaboration byline', () => {
    const v = parsePlaylist(recordedJson(`${dir}generated_mock_3.json`), { playlistId: TOP150 }).videos[0];
    expect(v).toMatchObject({
      author: 'Alex Warren',
      channelId: 'UCX2Pm1JoWF3chsVOR9e1hbQ',
      lengthText: '3:07',
    });
    const collab = parsePlaylist(recordedJson(`${dir}generated_mock_4.json`), {
      playlistId: TOP150,
    }).videos.find((x) => x.index === 113);
    expect(collab).toMatchObject({
      videoId: 'ekr2nIex040',
      author: 'ROSÉ and Bruno Mars',
      channelId: 'UCBo1hnzxV9rz3WVsv__Rn1g',
      lengthSeconds: 174,
    });
  });

  it.each([
    [
      'youtubeplaylistextractor/notavailable/generated_mock_2.json',
      'VLINVALID_ID',
      'This playlist type is unviewable.',
    ],
    [
      'youtubeplaylistextractor/notavailable/generated_mock_3.json',
      'VLPL11111111111111111111111111111111',
      'The playlist does not exist.',
    ],
  ])('%s (%s) → playlist_not_found', (file, browseId, reason) => {
    expect(requestBody(file).browseId).toBe(browseId);
    const e = errorOf(() => parsePlaylist(recordedJson(file), { playlistId: browseId.slice(2) }));
    expect(e.code).toBe('playlist_not_found');
    expect(e.details).toEqual({ reason });
  });
});

interface SearchCase {
  name: string;
  query: string;
  filters: SearchFilters;
  pages: [count: number, firstId: string, lastId: string, estimated: number][];
  types: string[];
  firstTitle: string;
}

const SEARCHES: SearchCase[] = [
  {
    name: 'videos',
    query: 'test',
    filters: { type: 'video' },
    types: ['video'],
    firstTitle: 'Blind Test TOUT GENRE | 140 extraits',
    pages: [
      [20, 'Z8KYabgkMbw', 'oo2aNvVDpAM', 430_195_562],
      [20, 'JOHUZMTdgBY', 'ezYffvVRjG4', 430_196_212],
    ],
  },
  {
    name: 'channel',
    query: 'test',
    filters: { type: 'channel' },
    types: ['channel'],
    firstTitle: 'test',
    pages: [
      [20, 'UCZRcA_nO3Kt-SOml2mY8D9g', 'UCka5_p33Baa_mVKGXxQsHjg', 32_629],
      [20, 'UCOhfuSLiCVeoLTBKoOHRddA', 'UCwJOcrZqJtR8vWx0dXgPjvA', 32_410],
    ],
  },
  {
    name: 'playlists',
    query: 'test',
    filters: { type: 'playlist' },
    types: ['playlist'],
    firstTitle: 'Tests du grenier',
    pages: [
      [20, 'PLAD454F0807B6CB80', 'PLIi5X8tybGdCmQNWQXg-o3trOHN_vh5c0', 35_473],
      [25, 'PLrx4fxhgMUOaVOO0wpBzPzmcQOimxiBHv', 'PLFoAuQjNPg1Kk5F1DtaUXZwaChhWlzMaz', 35_469],
    ],
  },
  {
    name: 'all',
    query: 'test',
    filters: {},
    types: ['channel', 'shorts', 'video'],
    firstTitle: 'FIRST FOOTAGE of the 2026 F1 Cars at Barcelona Shakedown Test!',
    pages: [
      [40, '6GDBMbMU0ew', 'Z8KYabgkMbw', 430_198_371],
      [45, 'aRyI5VtJcSQ', 'Mv70uh16iUY', 430_192_635],
    ],
  },
  {
    name: 'correctedsearch',
    query: 'pewdeipie',
    filters: { type: 'video' },
    types: ['video'],
    firstTitle: 'am I in trouble for this?',
    pages: [
      [20, 'lJIvq7jmHxA', 'zBTO5HeHGYc', 7_511_757],
      [19, 'gRyPjRrjS34', 'M0bq3RvD_NQ', 7_511_759],
    ],
  },
  {
    name: 'suggestion',
    query: 'on board ing',
    filters: { type: 'video' },
    types: ['video'],
    firstTitle: 'Boarding Spirit of Tasmania in Geelong',
    pages: [
      [20, 'RCh7ZS-hkZY', 'vSwSn5XI2tg', 14_339_930],
      [20, 'PMuQh-a3w_U', 'DptGBVPnvKE', 14_339_884],
    ],
  },
  {
    name: 'crisisresources',
    query: 'suicide',
    filters: {},
    types: ['shorts', 'video'],
    firstTitle: "3114 : au centre d'appel de prévention du suicide de Lille",
    pages: [
      [20, 'eiLo-Xqrc_w', 'sG-WJueFR30', 21_680_554],
      [19, 'uT6x-CrtcNM', 'gEztZUnj_6M', 21_680_752],
    ],
  },
  {
    name: 'randomquerynomorepages',
    query: 'UCO6AK',
    filters: {},
    types: ['channel', 'shorts', 'video'],
    firstTitle: 'Shawn Bentley',
    pages: [[14, 'UCo6ak-HCqQQAyuo6_5remFw', 'MkPQ9bXNjkM', 14]],
  },
];

describeRecordings('replay: search', () => {
  it.each(SEARCHES)('$name: sp of the request = searchParams(filters)', ({ name, query, filters }) => {
    const body = requestBody(`search/youtubesearchextractor/${name}/generated_mock_2.json`);
    expect(body.query).toBe(query);
    expect(body.params).toBe(searchParams(filters));
  });

  it.each(SEARCHES)('$name: first and continuation pages', ({ name, pages, types, firstTitle }) => {
    const first = `search/youtubesearchextractor/${name}/generated_mock_2.json`;
    const second = `search/youtubesearchextractor/${name}/generated_mock_3.json`;
    const parsed = [parseSearch(recordedJson(first)), parseSearch(recordedJson(second))];
    expect(parsed[0]?.items[0]?.title).toBe(firstTitle);
    pages.forEach(([count, firstId, lastId, estimated], i) => {
      const page = parsed[i]!;
      expect(page.items).toHaveLength(count);
      expect(page.items[0]?.id).toBe(firstId);
      expect(page.items.at(-1)?.id).toBe(lastId);
      expect(page.estimatedResults).toBe(estimated);
      for (const item of page.items) {
        expect(item.title).toBeTruthy();
        expect(item.thumbnailUrl).toMatch(/^https:\/\//);
        if (item.type !== 'shorts') expect(item.channelId).toMatch(/^UC[\w-]{22}$/);
      }
    });
    expect([...new Set(parsed.flatMap((p) => p.items.map((i) => i.type)))].sort()).toEqual(types);
    expect(requestBody(second).continuation).toBe(parsed[0]?.continuation);
    if (name === 'randomquerynomorepages') {
      expect(parsed[1]).toEqual({ items: [], estimatedResults: 14 });
    } else {
      expect(parsed[1]?.continuation).toBeDefined();
    }
  });

  it('item fields of a video result', () => {
    const page = parseSearch(recordedJson('search/youtubesearchextractor/videos/generated_mock_2.json'));
    expect(page.items[0]).toMatchObject({
      id: 'Z8KYabgkMbw',
      type: 'video',
      channelTitle: 'Blind Test & Chill',
      channelId: 'UCuEBTg6pcG7s3PpPGRtFKQA',
      durationSeconds: 2840,
      viewCount: 390_201,
      publishedText: '9 months ago',
    });
    const nomore = parseSearch(
      recordedJson('search/youtubesearchextractor/randomquerynomorepages/generated_mock_2.json'),
    );
    expect(nomore.items.at(-1)).toMatchObject({ durationSeconds: 1090, viewCount: 0 });
  });

  it('shelves: shorts shelves are flattened, suggestion shelves are dropped', () => {
    const all = parseSearch(recordedJson('search/youtubesearchextractor/all/generated_mock_2.json'));
    const types = all.items.map((i) => i.type);
    expect(types.filter((t) => t === 'shorts')).toHaveLength(27); // 2 shelves × 10 + 7 short videoRenderers
    expect(all.items[1]).toMatchObject({
      id: '_YYmA7yrfNY',
      type: 'shorts',
      title: 'Trypophobia Test',
      viewCount: 2_900_000,
    });
    const videos = parseSearch(recordedJson('search/youtubesearchextractor/videos/generated_mock_2.json'));
    expect(videos.items.map((i) => i.id)).not.toContain('YuumdQCliwQ'); // only in "Popular in Lyon"
  });

  it('corrections', () => {
    expect(
      parseSearch(recordedJson('search/youtubesearchextractor/correctedsearch/generated_mock_2.json'))
        .correction,
    ).toEqual({
      kind: 'showing_results_for',
      query: 'pewdiepie',
    });
    expect(
      parseSearch(recordedJson('search/youtubesearchextractor/suggestion/generated_mock_2.json')).correction,
    ).toEqual({
      kind: 'did_you_mean',
      query: 'on boarding',
    });
    expect(
      parseSearch(recordedJson('search/youtubesearchextractor/crisisresources/generated_mock_2.json'))
        .correction,
    ).toBeUndefined();
  });
});

describeRecordings('replay: suggestions and channel feed', () => {
  it('suggestions for "hello" (xhr=t JSON)', () => {
    const rec = loadRecording('youtubesuggestionextractor/generated_mock_0.json');
    expect(rec.request.url).toContain('xhr=t');
    const list = parseSuggestions(rec.response.body);
    expect(list).toHaveLength(14);
    expect(list[0]).toBe('hello');
    expect(list.at(-1)).toBe('hello there');
    expect(list).toContain('hello song for kıds');
  });

  it('kurzgesagt feed: 15 newest uploads', () => {
    const feed = parseChannelFeed(
      loadRecording('youtubefeedextractor/kurzgesagt/generated_mock_0.json').response.body,
    );
    expect(feed.channelId).toBe('UCsXVk37bltHxD1rDPwtNM8Q');
    expect(feed.title).toBe('Kurzgesagt – In a Nutshell');
    expect(feed.videos).toHaveLength(15);
    expect(feed.videos[0]).toEqual({
      videoId: 'zg40FHOAqC0',
      title: 'Jupiter Made Earth Possible',
      publishedAt: Date.parse('2026-01-22T15:01:42+00:00') / 1000,
      viewCount: 1_086_938,
      thumbnails: [{ url: 'https://i3.ytimg.com/vi/zg40FHOAqC0/hqdefault.jpg', width: 480, height: 360 }],
    });
    expect(feed.videos.at(-1)).toMatchObject({
      videoId: 'ZSch_NgZpQs',
      title: 'Trees Are So Weird',
      publishedAt: Date.parse('2025-11-25T15:00:10+00:00') / 1000,
      viewCount: 5_439_095,
    });
    const dates = feed.videos.map((v) => v.publishedAt ?? 0);
    expect([...dates].sort((a, b) => b - a)).toEqual(dates);
  });

  it('removed channel feed (404) → channel_not_found', () => {
    const rec = loadRecording('youtubefeedextractor/notavailable/generated_mock_0.json');
    expect(errorOf(() => parseChannelFeed(rec.response.body, { status: rec.response.status })).code).toBe(
      'channel_not_found',
    );
    expect(errorOf(() => parseChannelFeed(rec.response.body)).code).toBe('channel_not_found');
  });
});
