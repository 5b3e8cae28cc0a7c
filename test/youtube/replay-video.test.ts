/**
 * Replays the real video-side YouTube responses in ../shared/youtube-recordings through the
 * player, next and microformat parsers and the record builders, field by field.
 */
import { expect, it } from 'vitest';
import { basicInfoRecord, fullVideoRecord } from '../../src/core/video-record.ts';
import { mergeVideoExtras, parseMicroformat } from '../../src/drivers/youtube/parse-microformat.ts';
import { parseNext } from '../../src/drivers/youtube/parse-next.ts';
import { parsePlayer, parsePlayerResponse, timedTextUrl } from '../../src/drivers/youtube/parse-player.ts';
import { classifyPlayability } from '../../src/drivers/youtube/playability.ts';
import { ApiError } from '../../src/errors.ts';
import type { PlayerData } from '../../src/ports/upstream.ts';
import { describeRecordings, recordedFile, recordedJson } from './recordings.ts';

const STREAM = 'stream/youtubestreamextractordefault';
const LIVE = 'stream/youtubestreamextractorlivestream';
const file = (relative: string): unknown => JSON.parse(recordedFile(relative));
const transcriptApi = (name: string): unknown => file(`youtube-transcript-api/${name}.innertube.json.static`);
const invidious = (name: string): unknown => file(`invidious-mocks/video/${name}.json`);
/** Tracks as `code`, `code/asr`, `#variant`, `*` for the default. */
const trackList = (p: PlayerData): string =>
  p.tracks
    .map(
      (t) =>
        `${t.languageCode}${t.kind === 'asr' ? '/asr' : ''}${t.variant ? `#${t.variant}` : ''}${t.isDefault ? '*' : ''}`,
    )
    .join(' ');
const iso = (s: string): number => Date.parse(s) / 1000;

/** The error code (or error name) a parse throws. */
function failure(run: () => unknown): string {
  try {
    run();
  } catch (e) {
    return e instanceof ApiError ? e.code : (e as Error).name;
  }
  return 'none';
}

/** A `var name = {...};` JSON object embedded in the watch page. */
function embedded(html: string, name: string): unknown {
  const m = new RegExp(`var ${name}\\s*=\\s*`).exec(html);
  if (!m) throw new Error(`${name} not found`);
  const start = m.index + m[0].length;
  return JSON.parse(html.slice(start, html.indexOf(';</script>', start)));
}

interface VideoCase {
  dir: string;
  id: string;
  title: string;
  author: string;
  channelId: string;
  length: number;
  views: number;
  keywords: number;
  tracks: string;
  published: string;
  likes: number | undefined;
  category: string;
  chapters: string[];
  heatmap: number[] | undefined;
  subscribers: string;
}

const videos: VideoCase[] = [
  {
    dir: 'descriptionunboxing',
    id: 'cV5TjZCJkuA',
    title: 'This Smartphone Changes Everything...',
    author: 'Unbox Therapy',
    channelId: 'UCsTcErHg8oDvUnTzoqsYeNw',
    length: 434,
    views: 22111847,
    keywords: 40,
    tracks: 'en/asr',
    published: '2018-06-19T12:41:34-07:00',
    likes: 348977,
    category: 'Science & Technology',
    chapters: [
      'Intro@0',
      'Unboxing@30',
      'Design@70',
      'Facial Recognition@170',
      'Other Sensors@210',
      'Selfie Test@275',
      'Display@333',
    ],
    heatmap: [100, 1],
    subscribers: '25.4m subscribers',
  },
  {
    dir: 'licenseddoctor',
    id: 'rCAS2eD-mcw',
    title: 'Laryngeal Mask Airway (LMA) insertion | ESSENTIAL TECHNIQUES for standard patients',
    author: 'ABCs of Anaesthesia',
    channelId: 'UCs1fy2n5Ey0c9VZRBL7UCsg',
    length: 343,
    views: 81077,
    keywords: 42,
    tracks: 'ar en* en/asr fil fr de hi pt si es ta ur vi',
    published: '2022-07-03T04:00:25-07:00',
    likes: 1000,
    category: 'Education',
    chapters: [
      'Method of Oxygenation@39',
      'LMA Insertion@115',
      'Assessment of Ventilation@242',
      'Troubleshooting@268',
    ],
    heatmap: [100, 3],
    subscribers: '218k subscribers',
  },
  {
    dir: 'streamsegmentsmailab',
    id: 'ud9d5cMDP_0',
    title: 'Vitamin D wissenschaftlich geprüft',
    author: 'MAITHINK X',
    channelId: 'UCyHDQ5C6z1NDmJ4g6SerW8g',
    length: 1010,
    views: 2133707,
    keywords: 37,
    tracks: 'de#deutsch',
    published: '2020-11-18T21:30:01-08:00',
    likes: 73111,
    category: 'Science & Technology',
    chapters: [
      'Ein erstaunlich kontroverses Thema@0',
      'Was ist Vitamin D?@164',
      'Die Saisonalitätshypothese@364',
      'Klinische Studien zu Vitamin D@498',
      'Ab wann hat man Vitamin-D-Mangel?@615',
      'Vorsicht vor pauschalen Empfehlungen@803',
      'Keksempfehlungen@981',
    ],
    heatmap: [100, 3],
    subscribers: '1.52m subscribers',
  },
  {
    dir: 'ratingsdisabled',
    id: 'it3OtbTxQk0',
    title: 'Introduction to Doodle for Google 2023',
    author: 'GoogleDoodles',
    channelId: 'UCdq61m8s_48EhJ5OM_MCeGw',
    length: 145,
    views: 46409,
    keywords: 0,
    tracks: 'en/asr',
    published: '2023-01-13T13:53:57-08:00',
    likes: undefined,
    category: 'Education',
    chapters: [],
    heatmap: undefined,
    subscribers: '2.3m subscribers',
  },
];

describeRecordings('replay: NewPipe stream recordings (2026-06)', () => {
  it.each(videos)('$dir: ANDROID reel player (mock_1)', (v) => {
    const p = parsePlayer(recordedJson(`${STREAM}/${v.dir}/generated_mock_1.json`), v.id);
    expect(p).toMatchObject({
      videoId: v.id,
      title: v.title,
      author: v.author,
      channelId: v.channelId,
      live: 'none',
    });
    expect([p.lengthSeconds, p.viewCount, p.keywords.length]).toEqual([v.length, v.views, v.keywords]);
    expect(trackList(p)).toBe(v.tracks);
    expect(p.tracks.every((t) => t.ref.includes('&fmt=srv3'))).toBe(true);
    expect(p.thumbnails.length).toBeGreaterThan(0);
  });

  it.each(videos.filter((v) => v.dir !== 'ratingsdisabled'))('$dir: VISIONOS player (mock_3)', (v) => {
    const { data, poTokenTracks } = parsePlayerResponse(
      recordedJson(`${STREAM}/${v.dir}/generated_mock_3.json`),
      v.id,
    );
    expect(data).toMatchObject({
      videoId: v.id,
      title: v.title,
      channelId: v.channelId,
      lengthSeconds: v.length,
    });
    expect(trackList(data)).toBe(v.tracks);
    expect(poTokenTracks).toEqual([]);
    expect(data.tracks.every((t) => !t.ref.includes('fmt='))).toBe(true);
    const url = timedTextUrl(data.tracks[0]!.ref, 'json3', 'http://127.0.0.1:9');
    expect(url.startsWith(`http://127.0.0.1:9/api/timedtext?v=${v.id}&`)).toBe(true);
    expect(url.endsWith('&fmt=json3')).toBe(true);
  });

  it('ratingsdisabled: the VISIONOS player is UNPLAYABLE "This video is not available"', () => {
    const body = recordedJson(`${STREAM}/ratingsdisabled/generated_mock_3.json`);
    expect(failure(() => parsePlayer(body, 'it3OtbTxQk0'))).toBe('video_unavailable');
  });

  it.each(videos)('$dir: WEB microformat (mock_7)', (v) => {
    const m = parseMicroformat(recordedJson(`${STREAM}/${v.dir}/generated_mock_7.json`));
    expect(m.videoId).toBe(v.id);
    expect(m.publishedAt).toBe(iso(v.published));
    expect(m.likeCount).toBe(v.likes);
    expect(m.category).toBe(v.category);
    expect(m.channelId).toBe(v.channelId);
  });

  it.each(videos)('$dir: WEB next (mock_8)', (v) => {
    const n = parseNext(recordedJson(`${STREAM}/${v.dir}/generated_mock_8.json`));
    expect(n.videoId).toBe(v.id);
    expect(n.chapters.map((c) => `${c.title}@${c.startSeconds}`)).toEqual(v.chapters);
    expect(n.heatmap && [n.heatmap.markers.length, n.heatmap.decorations.length]).toEqual(v.heatmap);
    expect(n.likeCount).toBe(v.likes);
    expect(n.likeCountApproximate).toBeUndefined();
    expect(n.viewCount).toBe(v.views);
    expect(n.channelSubscribersText).toBe(v.subscribers);
    expect(n.channelAvatarUrl).toMatch(/^https:\/\/yt3\.ggpht\.com\/.*=s176-/);
    expect(n.description?.length).toBeGreaterThan(100);
  });

  it('descriptionunboxing: heatmap values and the full record', () => {
    const base = `${STREAM}/descriptionunboxing`;
    const player = parsePlayer(recordedJson(`${base}/generated_mock_3.json`), 'cV5TjZCJkuA');
    const next = parseNext(recordedJson(`${base}/generated_mock_8.json`));
    expect(next.heatmap?.markers[0]).toEqual({
      startSeconds: 0,
      durationSeconds: 4.34,
      intensity: 0.166875938956153,
    });
    expect(next.heatmap?.decorations).toEqual([
      { startSeconds: 121.52, endSeconds: 134.54, label: 'Most replayed' },
    ]);
    const extras = mergeVideoExtras(next, parseMicroformat(recordedJson(`${base}/generated_mock_7.json`)));
    const full = fullVideoRecord(player, extras);
    expect(full).toMatchObject({
      published: 1529437294,
      like_count: 348977,
      mode: 'full',
      view_count: 22111847,
    });
    expect(full.chapters?.map((c) => c.time_description)).toEqual([
      '0:00',
      '0:30',
      '1:10',
      '2:50',
      '3:30',
      '4:35',
      '5:33',
    ]);
    expect(full.heatmap?.most_replayed).toEqual({
      start_seconds: 121.52,
      end_seconds: 134.54,
      intensity: 1,
      label: 'Most replayed',
    });
    expect(full.heatmap?.peaks[0]).toMatchObject({
      start_seconds: 121.52,
      intensity: 1,
      label: 'Most replayed',
    });
    expect(basicInfoRecord(player).available_languages).toEqual([
      { code: 'en', name: 'English (auto-generated)', kind: 'asr', is_translatable: true },
    ]);
  });

  it('livestream: player, microformat and next of a running stream', () => {
    for (const mock of [1, 3]) {
      const p = parsePlayer(recordedJson(`${LIVE}/generated_mock_${mock}.json`), 'X4VbdwhkE10');
      expect(p).toMatchObject({
        title: 'lofi hip hop radio 📚 beats to relax/study to',
        author: 'Lofi Girl',
        live: 'live',
      });
      expect([p.channelId, p.lengthSeconds, p.viewCount, p.tracks.length]).toEqual([
        'UCSJ4gkVC6NrvII8umztf0Ow',
        0,
        754262,
        0,
      ]);
    }
    const m = parseMicroformat(recordedJson(`${LIVE}/generated_mock_7.json`));
    expect(m).toMatchObject({
      publishedAt: iso('2026-06-03T23:49:58-07:00'),
      likeCount: 5366,
      category: 'Music',
    });
    expect(m.live).toEqual({ isLiveNow: true, start: iso('2026-06-04T06:53:18Z') });
    const n = parseNext(recordedJson(`${LIVE}/generated_mock_8.json`));
    expect(n).toMatchObject({ likeCount: 5366, dateText: 'Started streaming on 4 Jun 2026', chapters: [] });
    expect(n.viewCount).toBeUndefined();
    expect(n.heatmap).toBeUndefined();
  });
});

describeRecordings('replay: NewPipe not-available recordings', () => {
  it.each([
    ['invalidid', 'INVALID_ID_', 'video_unavailable'],
    ['nonexistent', 'don-t-exist', 'video_unavailable'],
    ['privatecontent', '8VajtrESJzA', 'private_video'],
    ['paidcontent', 'ayI2iBwGdxw', 'members_only'],
    ['musicpremiumcontent', 'sMJ8bRN2dak', 'members_only'],
    ['restricted', '_PL2HJKxnOM', 'region_blocked'],
  ])('%s (%s) → %s', (dir, id, code) => {
    const body = recordedJson(`${STREAM}/notavailable/${dir}/generated_mock_1.json`);
    expect(failure(() => classifyPlayability(body, id))).toBe(code);
    expect(failure(() => parsePlayer(body, id))).toBe(code);
  });
});

describeRecordings('replay: youtube-transcript-api ANDROID player recordings (2025-06)', () => {
  const dave = {
    title: 'Surface Go Review - It’s Awesome',
    author: 'Dave2D',
    channelId: 'UCVYamHliCI9rw1tHR1xbkfw',
  };

  it.each(['youtube', 'youtube_altered_user_agent'])('%s: 8 manual tracks and one ASR track', (name) => {
    const { data, poTokenTracks } = parsePlayerResponse(transcriptApi(name), 'GJLlxj_dtq8');
    expect(data).toMatchObject({ ...dave, lengthSeconds: 316, viewCount: 1856109, live: 'none' });
    expect(data.keywords).toHaveLength(15);
    expect(trackList(data)).toBe('zh cs en* en/asr de hi ja ko es');
    expect(data.tracks.map((t) => t.name)).toContain('English (auto-generated)');
    expect(poTokenTracks).toEqual([]);
  });

  it('youtube_po_token_required: the manual en track needs a PO token', () => {
    const { data, poTokenTracks } = parsePlayerResponse(
      transcriptApi('youtube_po_token_required'),
      'GJLlxj_dtq8',
    );
    expect(trackList(data)).toBe('zh cs en/asr de hi ja ko es');
    expect(poTokenTracks.map((t) => [t.languageCode, t.kind, t.isDefault])).toEqual([['en', 'manual', true]]);
    expect(parsePlayer(transcriptApi('youtube_po_token_required'), 'GJLlxj_dtq8').tracks).toHaveLength(8);
  });

  it('youtube_ww1_nl_en: en manual and en ASR', () => {
    const p = parsePlayer(transcriptApi('youtube_ww1_nl_en'), 'F1xioXWb8CY');
    expect(p).toMatchObject({
      author: 'The Great War',
      channelId: 'UCUcyEsEjhPEDf69RRVhRh4A',
      lengthSeconds: 1509,
    });
    expect(p.viewCount).toBe(274558);
    expect(trackList(p)).toBe('en* en/asr');
  });

  it.each([
    ['youtube_transcripts_disabled', 'dsMFmonKDD4', 'Blogothèque', 'none'],
    ['youtube_transcripts_disabled2', 'Fjg5lYqvzUs', 'Washington Post', 'ended'],
  ])('%s: playable, no tracks', (name, id, author, live) => {
    const p = parsePlayer(transcriptApi(name), id);
    expect(p).toMatchObject({ videoId: id, author, live, tracks: [] });
  });

  it.each([
    ['youtube_age_restricted', 'Njp5uhTorCo', 'age_restricted'],
    ['youtube_request_blocked', 'GJLlxj_dtq8', 'upstream_blocked'],
    ['youtube_video_unavailable', 'GJLlxj_dtq8', 'video_unavailable'],
    ['youtube_unplayable', 'GJLlxj_dtq8', 'video_unavailable'],
  ])('%s → %s', (name, id, code) => {
    expect(failure(() => parsePlayer(transcriptApi(name), id))).toBe(code);
  });

  it('youtube_request_blocked is retryable with Retry-After; youtube_unplayable keeps its reason', () => {
    expect(() => classifyPlayability(transcriptApi('youtube_request_blocked'), 'GJLlxj_dtq8')).toThrow(
      expect.objectContaining({ code: 'upstream_blocked', status: 503, retryable: true, retryAfter: 60 }),
    );
    expect(() => classifyPlayability(transcriptApi('youtube_unplayable'), 'GJLlxj_dtq8')).toThrow(
      'Custom Reason',
    );
  });

  it('youtube.html.static: WEB player (all tracks need a PO token), microformat and ytInitialData', () => {
    const html = recordedFile('youtube-transcript-api/youtube.html.static');
    const playerJson = embedded(html, 'ytInitialPlayerResponse');
    const { data, poTokenTracks } = parsePlayerResponse(playerJson, 'GJLlxj_dtq8');
    expect(data).toMatchObject({ ...dave, lengthSeconds: 316, viewCount: 1856109, tracks: [] });
    expect(poTokenTracks.map((t) => `${t.languageCode}${t.kind === 'asr' ? '/asr' : ''}`).join(' ')).toBe(
      'zh cs en en/asr de hi ja ko es',
    );
    const m = parseMicroformat(playerJson);
    expect(m).toMatchObject({
      publishedAt: iso('2018-08-02T06:00:08-07:00'),
      likeCount: 43864,
      category: 'Science & Technology',
    });
    const n = parseNext(embedded(html, 'ytInitialData'));
    expect(n.chapters.map((c) => `${c.title}@${c.startSeconds}`)).toEqual([
      'Build Quality@39.16',
      'Screen@66.01',
      'Pen Support@106.72',
      'Webcam@129.19',
      'Keyboard@155.59',
      'Trackpad@188.2',
      'Performance@199.78',
      'Battery Life@220.3',
      'Gaming Performance@236.5',
      'Ports@254.709',
    ]);
    expect([n.heatmap?.markers.length, n.heatmap?.decorations.length]).toEqual([100, 2]);
    expect(n).toMatchObject({
      likeCount: 43864,
      viewCount: 1856109,
      channelSubscribersText: '3.68M subscribers',
    });
    expect(n.dateText).toBe('Aug 2, 2018');
  });
});

describeRecordings('replay: Invidious mocks (2024-10, WEB)', () => {
  it('regular_mrbeast: player, microformat, next', () => {
    const playerJson = invidious('regular_mrbeast.player');
    const p = parsePlayer(playerJson, '2isYuQZMbdU');
    expect(p).toMatchObject({
      title: 'I Gave My 100,000,000th Subscriber An Island',
      author: 'MrBeast',
      channelId: 'UCX6OQ3DkcsbYNE6H8uQQuVA',
      lengthSeconds: 930,
      viewCount: 220226287,
      keywords: [],
      live: 'none',
    });
    expect(trackList(p)).toBe('ar zh-Hant en* en/asr fr de hi it ja ko pl pt ru es tr');
    expect(p.tracks.every((t) => t.ref.includes('exp=xbt'))).toBe(true);
    const m = parseMicroformat(playerJson);
    expect(m).toMatchObject({
      publishedAt: iso('2022-08-04T12:59:59-07:00'),
      category: 'Entertainment',
      isFamilySafe: true,
    });
    expect(m.availableCountries).toHaveLength(249);
    expect(m.likeCount).toBeUndefined();
    const n = parseNext(invidious('regular_mrbeast.next'));
    expect(n).toMatchObject({
      videoId: '2isYuQZMbdU',
      viewCount: 220226287,
      likeCount: 6870691,
      channelSubscribersText: '320M subscribers',
      dateText: 'Aug 4, 2022',
      chapters: [],
    });
    expect(
      n.description?.startsWith('🚀Launch a store on Shopify, I’ll buy from 100 random stores that do ▸ '),
    ).toBe(true);
    expect(n.heatmap).toBeUndefined();
    expect(mergeVideoExtras(n, m)).toMatchObject({ publishedAt: 1659643199, likeCount: 6870691 });
  });

  it('regular_no-description: no captions, no description', () => {
    const playerJson = invidious('regular_no-description.player');
    const p = parsePlayer(playerJson, 'iuevw6218F0');
    expect(p).toMatchObject({
      title: 'Chris Rea - Auberge',
      author: 'ChrisReaVideos',
      lengthSeconds: 283,
      description: '',
    });
    expect([p.viewCount, p.keywords, p.tracks]).toEqual([14324584, ['Chris', 'Rea', 'Auberge', '1991'], []]);
    expect(parseMicroformat(playerJson)).toMatchObject({
      publishedAt: iso('2012-05-21T07:01:37-07:00'),
      category: 'Music',
    });
    const n = parseNext(invidious('regular_no-description.next'));
    expect(n).toMatchObject({
      likeCount: 35870,
      viewCount: 14324584,
      channelSubscribersText: '3.11K subscribers',
    });
    expect(n.description).toBeUndefined();
    expect(fullVideoRecord(p, mergeVideoExtras(n, {})).description).toBe('');
  });

  it('scheduled_live_PBD-Podcast: LIVE_STREAM_OFFLINE is metadata, not an error', () => {
    const playerJson = invidious('scheduled_live_PBD-Podcast.player');
    expect(failure(() => classifyPlayability(playerJson, 'N-yVic7BbY0'))).toBe('none');
    const p = parsePlayer(playerJson, 'N-yVic7BbY0');
    expect(p).toMatchObject({
      title: 'Home Team | PBD Podcast | Ep. 241',
      live: 'upcoming',
      lengthSeconds: 0,
      tracks: [],
    });
    expect([p.channelId, p.keywords.length]).toEqual(['UCGX7nGXpz-CmO_Arg-cgJ7A', 25]);
    const m = parseMicroformat(playerJson);
    expect(m).toMatchObject({
      publishedAt: 1677592800,
      category: 'Entertainment',
      live: { isLiveNow: false, start: 1677592800 },
    });
    const n = parseNext(invidious('scheduled_live_PBD-Podcast.next'));
    expect(n).toMatchObject({
      likeCount: 7,
      channelSubscribersText: '594K subscribers',
      dateText: 'Scheduled for Feb 28, 2023',
    });
    expect(n.viewCount).toBeUndefined();
    expect(n.description?.startsWith('PBD Podcast Episode 241. The home team is ready and at it again')).toBe(
      true,
    );
    expect(n.channelAvatarUrl).toContain(
      '61ArDiQshJrvSXcGLhpFfIO3hlMabe2fksitcf6oGob0Mdr5gztdkXxRljICUodL4iuTSrtxW4A',
    );
  });
});
