/**
 * The whole YouTube driver (`createYouTubeUpstream`) over the recorded NewPipe exchanges of
 * 2026-06 (ReplayFetch): player chain, captions (timed text generated here: YouTube's caption
 * downloads were not recorded) and video extras, field by field, with the upstream request
 * counts that make a cold transcript and a cold video-info.
 */
import { expect, it } from 'vitest';
import { createYouTubeUpstream, type YouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { refClient } from '../../src/drivers/youtube/video-source.ts';
import { ApiError } from '../../src/errors.ts';
import type { Json3Document, PlayerData, TimedText } from '../../src/ports/upstream.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { describeRecordings } from './recordings.ts';
import { allRecordings, ReplayFetch } from './replay-fetch.ts';

const STREAM = 'stream/youtubestreamextractordefault';
const LIVE = 'stream/youtubestreamextractorlivestream';

/** A replay over one recording folder only (so nothing leaks in from another video). */
function replayOf(dir: string): ReplayFetch {
  return new ReplayFetch(
    allRecordings().filter((f) => f.startsWith(`${dir}/`) && !f.slice(dir.length + 1).includes('/')),
  );
}

/** Serves generated json3 for `/api/timedtext` (empty bodies where `empty` says so). */
function serveTimedText(replay: ReplayFetch, empty: (url: URL) => boolean = () => false): URL[] {
  const asked: URL[] = [];
  replay.handlers.push((url) => {
    if (url.pathname !== '/api/timedtext') return undefined;
    asked.push(url);
    if (empty(url))
      return new Response('', { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' } });
    const label = `${url.searchParams.get('v')} ${url.searchParams.get('lang')} ${url.searchParams.get('kind') ?? 'manual'}`;
    return Response.json({
      wireMagic: 'pb3',
      pens: [{}],
      wsWinStyles: [{}],
      events: [
        { tStartMs: 0, dDurationMs: 3000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
        {
          tStartMs: 100,
          dDurationMs: 2000,
          wWinId: 1,
          segs: [{ utf8: label }, { utf8: ' end', tOffsetMs: 900 }],
        },
      ],
    });
  });
  return asked;
}

function driver(replay: ReplayFetch): YouTubeUpstream {
  return createYouTubeUpstream({
    fetch: replay.fetch,
    hl: 'en-GB',
    gl: 'GB',
    clock: new ManualClock('2026-06-07T21:18:00Z'),
    random: new SeededRandom(3),
  });
}

const trackList = (p: PlayerData): string =>
  p.tracks
    .map(
      (t) =>
        `${t.languageCode}${t.kind === 'asr' ? '/asr' : ''}${t.variant ? `#${t.variant}` : ''}${t.isDefault ? '*' : ''}`,
    )
    .join(' ');
const firstText = (t: TimedText): string =>
  t.format === 'json3'
    ? ((t.document as Json3Document).events[1]?.segs?.map((s) => s.utf8).join('') ?? '')
    : '';
const iso = (s: string): number => Date.parse(s) / 1000;
/** Requests as `METHOD path client`, in order. */
const sequence = (replay: ReplayFetch): string[] =>
  replay.log.map((r) => r.key.replace(/ (videoId|v)=[^&]*&?/, ' ').trim());

interface VideoCase {
  dir: string;
  id: string;
  title: string;
  author: string;
  channelId: string;
  length: number;
  views: number;
  live: PlayerData['live'];
  tracks: string;
  /** The client whose player answered. */
  client: 'VISIONOS' | 'ANDROID';
  published: string;
  likes: number | undefined;
  chapters: string[];
  heatmap: [number, number] | undefined;
  subscribers: string;
}

const videos: VideoCase[] = [
  {
    dir: `${STREAM}/descriptionunboxing`,
    id: 'cV5TjZCJkuA',
    title: 'This Smartphone Changes Everything...',
    author: 'Unbox Therapy',
    channelId: 'UCsTcErHg8oDvUnTzoqsYeNw',
    length: 434,
    views: 22111847,
    live: 'none',
    tracks: 'en/asr',
    client: 'VISIONOS',
    published: '2018-06-19T12:41:34-07:00',
    likes: 348977,
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
    dir: `${STREAM}/licenseddoctor`,
    id: 'rCAS2eD-mcw',
    title: 'Laryngeal Mask Airway (LMA) insertion | ESSENTIAL TECHNIQUES for standard patients',
    author: 'ABCs of Anaesthesia',
    channelId: 'UCs1fy2n5Ey0c9VZRBL7UCsg',
    length: 343,
    views: 81077,
    live: 'none',
    tracks: 'ar en* en/asr fil fr de hi pt si es ta ur vi',
    client: 'VISIONOS',
    published: '2022-07-03T04:00:25-07:00',
    likes: 1000,
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
    dir: `${STREAM}/streamsegmentsmailab`,
    id: 'ud9d5cMDP_0',
    title: 'Vitamin D wissenschaftlich geprüft',
    author: 'MAITHINK X',
    channelId: 'UCyHDQ5C6z1NDmJ4g6SerW8g',
    length: 1010,
    views: 2133714, // VISIONOS's count (ANDROID's, a second earlier: 2,133,707)
    live: 'none',
    tracks: 'de#deutsch',
    client: 'VISIONOS',
    published: '2020-11-18T21:30:01-08:00',
    likes: 73111,
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
    dir: `${STREAM}/ratingsdisabled`,
    id: 'it3OtbTxQk0',
    title: 'Introduction to Doodle for Google 2023',
    author: 'GoogleDoodles',
    channelId: 'UCdq61m8s_48EhJ5OM_MCeGw',
    length: 145,
    views: 46409,
    live: 'none',
    tracks: 'en/asr',
    client: 'ANDROID',
    published: '2023-01-13T13:53:57-08:00',
    likes: undefined,
    chapters: [],
    heatmap: undefined,
    subscribers: '2.3m subscribers',
  },
  {
    dir: LIVE,
    id: 'X4VbdwhkE10',
    title: 'lofi hip hop radio 📚 beats to relax/study to',
    author: 'Lofi Girl',
    channelId: 'UCSJ4gkVC6NrvII8umztf0Ow',
    length: 0,
    views: 754262,
    live: 'live',
    tracks: '',
    client: 'VISIONOS',
    published: '2026-06-03T23:49:58-07:00',
    likes: 5366,
    chapters: [],
    heatmap: undefined,
    subscribers: '15.8m subscribers',
  },
];

const VISIONOS_PLAYER = [
  'POST /youtubei/v1/visitor_id client=VISIONOS',
  'POST /youtubei/v1/player client=VISIONOS',
];
const ANDROID_PLAYER = ['POST /youtubei/v1/visitor_id client=ANDROID'];

describeRecordings('driver over the recordings: player', () => {
  it.each(videos)('$dir: player data field by field', async (v) => {
    const replay = replayOf(v.dir);
    const yt = driver(replay);
    const p = await yt.player(v.id);
    expect(p).toMatchObject({
      videoId: v.id,
      title: v.title,
      author: v.author,
      channelId: v.channelId,
      live: v.live,
    });
    expect([p.lengthSeconds, p.viewCount]).toEqual([v.length, v.views]);
    expect(trackList(p)).toBe(v.tracks);
    expect(p.tracks.every((t) => refClient(t.ref) === v.client)).toBe(true);
    expect(p.thumbnails.length).toBeGreaterThan(0);
    expect(replay.misses).toEqual([]);
    // A captionless answer is confirmed by the next client (decisions.md Errors: "no captions"
    // only when it is the truth).
    const expected =
      v.client === 'VISIONOS' && v.tracks !== ''
        ? VISIONOS_PLAYER
        : [...VISIONOS_PLAYER, ...ANDROID_PLAYER, `POST /youtubei/v1/reel/reel_item_watch#${v.id} $fields`];
    expect(sequence(replay)).toEqual(expected);
    expect(yt.transport.sent).toBe(expected.length);
  });

  it('100 concurrent player() calls for one cold video: visitor_id once, one player call', async () => {
    const replay = replayOf(`${STREAM}/licenseddoctor`);
    const yt = driver(replay);
    const all = await Promise.all(Array.from({ length: 100 }, () => yt.player('rCAS2eD-mcw')));
    expect(all.every((p) => p.tracks.length === 13)).toBe(true);
    expect(yt.transport.sent).toBe(2);
    expect(replay.log).toHaveLength(2);
  });
});

describeRecordings('driver over the recordings: captions', () => {
  const withTracks = videos.filter((v) => v.tracks !== '');

  it.each(withTracks)('$dir: cold transcript = 3 requests, warm = 2 (player + timed text)', async (v) => {
    const replay = replayOf(v.dir);
    const asked = serveTimedText(replay);
    const yt = driver(replay);
    const p = await yt.player(v.id);
    const track = p.tracks.find((t) => t.isDefault) ?? p.tracks[0]!;
    const before = yt.transport.sent;
    const text = await yt.captions(track);
    expect(firstText(text)).toBe(
      `${v.id} ${track.languageCode} ${track.kind === 'asr' ? 'asr' : 'manual'} end`,
    );
    expect(text.format === 'json3' && text.document).not.toHaveProperty('pens');
    expect(asked).toHaveLength(1);
    expect(asked[0]!.searchParams.getAll('fmt')).toEqual(['json3']);
    expect(asked[0]!.searchParams.get('v')).toBe(v.id);
    expect(yt.transport.sent - before).toBe(1);
    if (v.client === 'VISIONOS') expect(yt.transport.sent).toBe(3);
    // Warm visitorData: a new player call and the timed text.
    const warm = yt.transport.sent;
    const again = await yt.player(v.id);
    await yt.captions(
      again.tracks.find((t) => t.languageCode === track.languageCode && t.kind === track.kind)!,
    );
    // ratingsdisabled: VISIONOS is asked again (and says UNPLAYABLE) before ANDROID.
    expect(yt.transport.sent - warm).toBe(v.client === 'VISIONOS' ? 2 : 3);
    expect(replay.misses).toEqual([]);
  });

  it.each(withTracks.filter((v) => v.client === 'VISIONOS'))(
    '$dir: an empty VISIONOS caption answer falls back to the ANDROID track',
    async (v) => {
      const replay = replayOf(v.dir);
      const visionos = await driver(replayOf(v.dir)).player(v.id);
      const visionosEi = new URL(visionos.tracks[0]!.ref).searchParams.get('ei');
      const asked = serveTimedText(replay, (url) => url.searchParams.get('ei') === visionosEi);
      const yt = driver(replay);
      const p = await yt.player(v.id);
      const track = p.tracks.at(-1)!;
      const text = await yt.captions(track);
      expect(firstText(text)).toBe(
        `${v.id} ${track.languageCode} ${track.kind === 'asr' ? 'asr' : 'manual'} end`,
      );
      expect(asked.map((u) => u.searchParams.get('ei') === visionosEi)).toEqual([true, false]);
      expect(asked[1]!.searchParams.get('lang')).toBe(track.languageCode);
      expect(asked[1]!.searchParams.getAll('fmt')).toEqual(['json3']);
      const get = `GET /api/timedtext lang=${track.languageCode}${track.kind === 'asr' ? '&kind=asr' : ''}`;
      expect(sequence(replay).slice(2)).toEqual([
        get,
        ...ANDROID_PLAYER,
        `POST /youtubei/v1/reel/reel_item_watch#${v.id} $fields`,
        get,
      ]);
      expect(replay.misses).toEqual([]);
    },
  );

  it('licenseddoctor: empty answers from every recorded client → upstream_blocked, never an empty transcript', async () => {
    const replay = replayOf(`${STREAM}/licenseddoctor`);
    serveTimedText(replay, () => true);
    const yt = driver(replay);
    const [track] = (await yt.player('rCAS2eD-mcw')).tracks;
    const error = (await yt.captions(track!).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'upstream_blocked', retryable: true, retryAfter: 300 });
    // WEB's full player was never recorded: it is the only miss.
    expect(replay.misses).toEqual(['POST /youtubei/v1/player videoId=rCAS2eD-mcw&client=WEB']);
  });
});

describeRecordings('driver over the recordings: video extras', () => {
  it.each(videos)('$dir: extras field by field, 3 requests cold', async (v) => {
    const replay = replayOf(v.dir);
    const yt = driver(replay);
    const extras = await yt.videoExtras(v.id);
    expect(extras.publishedAt).toBe(iso(v.published));
    expect(extras.likeCount).toBe(v.likes);
    expect(extras.chapters.map((c) => `${c.title}@${c.startSeconds}`)).toEqual(v.chapters);
    expect(extras.heatmap && [extras.heatmap.markers.length, extras.heatmap.decorations.length]).toEqual(
      v.heatmap,
    );
    expect(extras.channelSubscribersText).toBe(v.subscribers);
    expect(extras.channelAvatarUrl).toMatch(/^https:\/\/yt3\.ggpht\.com\//);
    expect(extras.description?.length).toBeGreaterThan(50);
    expect(replay.misses).toEqual([]);
    expect([...sequence(replay)].sort()).toEqual([
      'POST /youtubei/v1/next',
      'POST /youtubei/v1/player $fields client=WEB',
      'POST /youtubei/v1/visitor_id client=WEB',
    ]);
    expect(yt.transport.sent).toBe(3);
  });

  it('descriptionunboxing: a cold video-info (player + extras) costs 5 requests, 3 with warm visitorData', async () => {
    const replay = replayOf(`${STREAM}/descriptionunboxing`);
    const yt = driver(replay);
    const [p, extras] = await Promise.all([yt.player('cV5TjZCJkuA'), yt.videoExtras('cV5TjZCJkuA')]);
    expect(p.title).toBe('This Smartphone Changes Everything...');
    expect(extras.heatmap?.decorations).toEqual([
      { startSeconds: 121.52, endSeconds: 134.54, label: 'Most replayed' },
    ]);
    expect(yt.transport.sent).toBe(5);
    const warm = yt.transport.sent;
    await Promise.all([yt.player('cV5TjZCJkuA'), yt.videoExtras('cV5TjZCJkuA')]);
    expect(yt.transport.sent - warm).toBe(3);
    expect(replay.misses).toEqual([]);
  });
});

describeRecordings('driver over the recordings: videos that cannot be watched', () => {
  it.each([
    ['invalidid', 'INVALID_ID_', 'video_unavailable'],
    ['nonexistent', 'don-t-exist', 'video_unavailable'],
    ['privatecontent', '8VajtrESJzA', 'private_video'],
    ['paidcontent', 'ayI2iBwGdxw', 'members_only'],
    ['musicpremiumcontent', 'sMJ8bRN2dak', 'members_only'],
    ['restricted', '_PL2HJKxnOM', 'region_blocked'],
  ])('%s (%s) → %s', async (dir, id, code) => {
    const replay = replayOf(`${STREAM}/notavailable/${dir}`);
    const yt = driver(replay);
    const error = await yt.player(id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(code);
    // Only ANDROID was recorded: VISIONOS (and WEB, after "unavailable") are the only misses.
    const unrecorded = (client: string) => [
      `POST /youtubei/v1/visitor_id client=${client}`,
      `POST /youtubei/v1/player videoId=${id}&client=${client}`,
    ];
    expect(replay.misses).toEqual([
      ...unrecorded('VISIONOS'),
      ...(code === 'video_unavailable' ? unrecorded('WEB') : []),
    ]);
    expect(replay.log.map((r) => r.key)).toContain(
      `POST /youtubei/v1/reel/reel_item_watch#${id} $fields videoId=${id}`,
    );
  });
});
