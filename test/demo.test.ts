/**
 * The demo data set shipped in `fixtures/demo` (built by scripts/make-demo-fixtures.ts from the
 * recorded YouTube responses), served through the whole app: every route a demo user would try
 * answers from it.
 */
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFixturesUpstream } from '../src/drivers/node/fixtures-upstream.ts';
import { type TestApp, testApp } from './helpers/app.ts';

const DEMO = fileURLToPath(new URL('../fixtures/demo', import.meta.url));
const LMA = 'rCAS2eD-mcw';
const KURZ = 'UCsXVk37bltHxD1rDPwtNM8Q';

let app: TestApp;
let key = '';

beforeAll(async () => {
  app = await testApp({ upstream: createFixturesUpstream(DEMO) });
  key = (await app.key(10_000)).api_key;
});

/** A GET with the key; the clock moves a second first, so the paid plan's rate limit never bites. */
const get = (path: string) => {
  app.clock.advance(1000);
  return app.call(path, { key });
};

/** The JSON body of a 200 answer. */
async function ok<T = Record<string, unknown>>(path: string): Promise<T> {
  const res = await get(path);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body}`);
  return JSON.parse(body) as T;
}

/** The text of a 200 answer, with its content type. */
async function text(path: string): Promise<{ body: string; type: string; res: Response }> {
  const res = await get(path);
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${body}`);
  return { body, type: res.headers.get('content-type') ?? '', res };
}

interface Transcript {
  video_id: string;
  language: string;
  track_kind: string;
  has_word_level?: boolean;
  segments: {
    text: string;
    start: number;
    end: number;
    words?: { word: string; start: number; end: number }[];
  }[];
}

describe('demo: transcripts of rCAS2eD-mcw', () => {
  it('segments: the English manual track by default', async () => {
    const t = await ok<Transcript>(`/v1/transcripts?video_id=${LMA}`);
    expect(t).toMatchObject({ video_id: LMA, language: 'en', track_kind: 'manual' });
    expect(t.segments).toHaveLength(60);
    expect(t.segments[0]).toMatchObject({
      text: 'Hi everyone, and welcome back to ABCs of Anaesthesia.',
      start: 0.6,
      end: 4.2,
    });
    expect(t.segments[1]?.text).toBe(
      "Today we're looking at laryngeal mask airway insertion,\nthe essential techniques for standard patients.",
    );
    expect(t.segments.at(-1)?.end).toBeLessThanOrEqual(343);
    expect(t.segments.every((s) => s.words === undefined)).toBe(true);
  });

  it('srt and vtt', async () => {
    const srt = await text(`/v1/transcripts?video_id=${LMA}&format=srt`);
    expect(srt.type).toMatch(/^text\/plain/);
    expect(srt.body.startsWith('1\n00:00:00,600 --> 00:00:04,200\nHi everyone, and welcome back')).toBe(true);
    expect(srt.body).toContain('\n60\n00:05:39,200 --> 00:05:42,800\nSee you next time.\n');
    const vtt = await text(`/v1/transcripts?video_id=${LMA}&format=vtt`);
    expect(vtt.type).toMatch(/^text\/vtt/);
    expect(vtt.body.startsWith('WEBVTT\n\n00:00:00.600 --> 00:00:04.200\nHi everyone')).toBe(true);
  });

  it('markdown with the recorded chapters as headings', async () => {
    const md = await text(`/v1/transcripts?video_id=${LMA}&format=markdown`);
    expect(md.type).toMatch(/^text\/markdown/);
    expect(md.body.startsWith('# Laryngeal Mask Airway (LMA) insertion | ESSENTIAL TECHNIQUES')).toBe(true);
    expect(md.body).toContain('Channel: ABCs of Anaesthesia · Language: en · Track: manual · Duration: 5:43');
    const headings = md.body.split('\n').filter((line) => line.startsWith('## '));
    expect(headings).toEqual([
      '## 0:39 Method of Oxygenation',
      '## 1:55 LMA Insertion',
      '## 4:02 Assessment of Ventilation',
      '## 4:28 Troubleshooting',
    ]);
    const at = (s: string) => md.body.indexOf(s);
    expect(at('## 0:39 Method of Oxygenation')).toBeLessThan(at('Before we insert anything'));
    expect(at('## 4:28 Troubleshooting')).toBeLessThan(at('Finally, troubleshooting.'));
  });

  it('the ASR track with word timings (word_level)', async () => {
    const t = await ok<Transcript>(
      `/v1/transcripts?video_id=${LMA}&languages=en&track_policy=asr_first&word_level=true`,
    );
    expect(t).toMatchObject({ language: 'en', track_kind: 'asr', has_word_level: true });
    expect(t.segments.length).toBeGreaterThanOrEqual(30);
    expect(t.segments.length).toBeLessThanOrEqual(80);
    const first = t.segments[0];
    expect(first?.text).toBe('hi everyone and welcome back to abcs of anaesthesia');
    expect(first?.words?.map((w) => w.word)).toEqual(first?.text.split(' '));
    for (const s of t.segments) {
      expect(s.words?.length).toBeGreaterThan(0);
      for (const [i, w] of (s.words ?? []).entries()) {
        expect(w.start).toBeGreaterThanOrEqual(s.start);
        expect(w.end).toBeGreaterThanOrEqual(w.start);
        expect(w.end).toBeLessThanOrEqual(s.end);
        if (i > 0) expect(w.start).toBeGreaterThanOrEqual(s.words?.[i - 1]?.end ?? 0);
      }
    }
    // ASR lines overlap: each stays until the next-but-one appears.
    expect(t.segments[0]?.end).toBeGreaterThan(t.segments[1]?.start ?? 0);
    const plain = await ok<Transcript>(`/v1/transcripts?video_id=${LMA}&languages=en&track_policy=asr_first`);
    expect(plain.segments.every((s) => s.words === undefined)).toBe(true);
  });

  it.each([
    ['fr', 60, 'Bonjour à tous, et bienvenue sur ABCs of Anaesthesia.', 'À la prochaine !'],
    ['de', 60, 'Hallo zusammen und willkommen zurück bei ABCs of Anaesthesia.', 'Bis zum nächsten Mal!'],
    ['es', 60, 'Hola a todos y bienvenidos de nuevo a ABCs of Anaesthesia.', '¡Hasta la próxima!'],
    ['pt', 4, 'Olá a todos, e bem-vindos de volta ao ABCs of Anaesthesia.', undefined],
    ['vi', 4, 'Xin chào mọi người, chào mừng các bạn quay lại với ABCs of Anaesthesia.', undefined],
  ])('manual track %s', async (language, count, first, last) => {
    const res = await get(`/v1/transcripts?video_id=${LMA}&languages=${language}`);
    expect(res.headers.get('x-language-code')).toBe(language);
    expect(res.headers.get('x-track-type')).toBe('MANUAL');
    const t = (await res.json()) as Transcript;
    expect(t).toMatchObject({ language, track_kind: 'manual' });
    expect(t.segments).toHaveLength(count);
    expect(t.segments[0]?.text).toBe(first);
    if (last) expect(t.segments.at(-1)?.text).toBe(last);
    expect(t.segments.some((s) => s.text.includes('\n'))).toBe(true);
  });

  it('every listed track has a caption document', async () => {
    const { languages } = await ok<{ languages: { code: string; kind: string }[] }>(
      `/v1/transcripts/${LMA}/languages`,
    );
    expect(languages).toHaveLength(13);
    for (const { code, kind } of languages) {
      const policy = kind === 'asr' ? 'asr_only' : 'manual_only';
      const t = await ok<Transcript>(
        `/v1/transcripts?video_id=${LMA}&languages=${code}&track_policy=${policy}`,
      );
      expect([t.language, t.track_kind, t.segments.length > 0]).toEqual([code, kind, true]);
    }
  });
});

describe('demo: video failures', () => {
  it.each([
    ['dsMFmonKDD4', 404, 'captions_disabled'],
    ['Fjg5lYqvzUs', 404, 'captions_disabled'],
    ['8VajtrESJzA', 403, 'private_video'],
    ['_PL2HJKxnOM', 403, 'region_blocked'],
    ['ayI2iBwGdxw', 403, 'members_only'],
    ['sMJ8bRN2dak', 403, 'members_only'],
    ['Njp5uhTorCo', 403, 'age_restricted'],
    ['don-t-exist', 404, 'video_unavailable'],
    ['INVALID_ID_', 404, 'video_unavailable'],
    ['zzzzzzzzzzz', 404, 'video_unavailable'],
    ['N-yVic7BbY0', 404, 'live_stream_not_ready'],
    ['X4VbdwhkE10', 404, 'live_stream_not_ready'],
  ])('transcript of %s → %i %s', async (id, status, code) => {
    const res = await get(`/v1/transcripts?video_id=${id}`);
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
  });

  it('the error messages are the ones the recordings produce', async () => {
    const res = await get('/v1/videos/8VajtrESJzA/basic-info');
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'Video 8VajtrESJzA is private.',
    );
  });

  it('a video without captions and an upcoming live stream still have metadata', async () => {
    expect(await ok('/v1/videos/dsMFmonKDD4/basic-info')).toMatchObject({
      title: 'Angèle - Eels x Richard Cocciante | A Take Away Show',
      author: 'Blogothèque',
      length_seconds: 288,
      available_languages: [],
    });
    expect(await ok('/v1/videos/N-yVic7BbY0/video-info')).toMatchObject({
      title: 'Home Team | PBD Podcast | Ep. 241',
      published: 1677592800,
      like_count: 7,
    });
  });
});

describe('demo: video records of rCAS2eD-mcw', () => {
  it('basic-info: the 13 recorded tracks', async () => {
    const info = await ok<{ available_languages: { code: string; kind: string }[] }>(
      `/v1/videos/${LMA}/basic-info`,
    );
    expect(info).toMatchObject({
      video_id: LMA,
      title: 'Laryngeal Mask Airway (LMA) insertion | ESSENTIAL TECHNIQUES for standard patients',
      author: 'ABCs of Anaesthesia',
      channel_id: 'UCs1fy2n5Ey0c9VZRBL7UCsg',
      length_seconds: 343,
      view_count: 81077,
    });
    expect(info.available_languages.map((l) => `${l.code}${l.kind === 'asr' ? '/asr' : ''}`).join(' ')).toBe(
      'ar en en/asr fil fr de hi pt si es ta ur vi',
    );
  });

  it('video-info: the recorded chapters, heatmap, likes and publish date', async () => {
    const info = await ok<{
      chapters: { title: string; start_time_seconds: number; time_description: string }[];
      heatmap: { markers: unknown[]; most_replayed: { start_seconds: number; label: string } };
      channel: { subscribers: string };
    }>(`/v1/videos/${LMA}/video-info`);
    expect(info).toMatchObject({
      like_count: 1000,
      published: Date.parse('2022-07-03T04:00:25-07:00') / 1000,
      mode: 'full',
    });
    expect(info.chapters.map((c) => `${c.time_description} ${c.title}`)).toEqual([
      '0:39 Method of Oxygenation',
      '1:55 LMA Insertion',
      '4:02 Assessment of Ventilation',
      '4:28 Troubleshooting',
    ]);
    expect(info.heatmap.markers).toHaveLength(100);
    expect(info.heatmap.most_replayed.label).toBe('Most replayed');
    expect([92.88, 147.92, 172]).toContain(info.heatmap.most_replayed.start_seconds);
    expect(info.channel.subscribers).toBe('218k subscribers');
  });
});

interface VideoPage {
  channel_id: string;
  videos: { video_id: string; title: string }[];
  has_more: boolean;
  next_cursor: string | null;
}

describe('demo: channels', () => {
  it.each([
    KURZ,
    '@kurzgesagt',
    '@KurzGesagt',
    encodeURIComponent('https://www.youtube.com/user/Kurzgesagt'),
  ])('profile by %s', async (id) => {
    expect(await ok(`/v1/channels/${id}`)).toMatchObject({
      channel_id: KURZ,
      title: 'Kurzgesagt – In a Nutshell',
      handle: '@kurzgesagt',
      subscriber_count: 25_000_000,
      video_count: 337,
      verified: true,
    });
  });

  it('videos: page 1 → next_cursor → page 2, the last', async () => {
    const first = await ok<VideoPage>(`/v1/channels/@kurzgesagt/videos`);
    expect(first.videos).toHaveLength(15);
    expect(first.videos[0]).toMatchObject({ video_id: 'D0WQK7cMJn8', title: 'We Made A New Channel!' });
    expect(first.has_more).toBe(true);
    const second = await ok<VideoPage>(
      `/v1/channels/@kurzgesagt/videos?cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect(second.videos).toHaveLength(15);
    expect(second.videos.at(-1)).toMatchObject({ video_id: 'reSfF60-2S4' });
    expect([second.has_more, second.next_cursor]).toEqual([false, null]);
    const ids = new Set([...first.videos, ...second.videos].map((v) => v.video_id));
    expect(ids.size).toBe(30);
  });

  it('latest: the 15 entries of the RSS feed; shorts: its /shorts/ entries', async () => {
    const latest = await ok<VideoPage>(`/v1/channels/${KURZ}/latest`);
    expect(latest.videos).toHaveLength(15);
    expect(latest.videos[0]).toMatchObject({ video_id: 'zg40FHOAqC0', published: 1769094102 });
    const shorts = await ok<VideoPage>(`/v1/channels/${KURZ}/shorts`);
    expect(shorts.videos.map((v) => v.video_id)).toContain('zg40FHOAqC0');
    expect(shorts.has_more).toBe(false);
  });

  it('playlists: none recorded for kurzgesagt; two pages for @EEVblog', async () => {
    expect(await ok(`/v1/channels/${KURZ}/playlists`)).toMatchObject({ playlists: [], has_more: false });
    const first = await ok<{ playlists: { playlist_id: string }[]; next_cursor: string }>(
      '/v1/channels/@EEVblog/playlists',
    );
    expect(first.playlists).toHaveLength(30);
    const second = await ok(
      `/v1/channels/@EEVblog/playlists?cursor=${encodeURIComponent(first.next_cursor)}`,
    );
    expect(second).toMatchObject({ has_more: false, next_cursor: null });
  });

  it.each([
    ['@gronkh', 'videos', 'Gronkh'],
    [encodeURIComponent('https://www.youtube.com/c/JeffGeerling'), 'streams', 'Jeff Geerling'],
    [encodeURIComponent('https://www.youtube.com/user/creativecommons'), 'videos', 'Creative Commons'],
    ['@doobydobap', 'shorts', 'Doobydobap'],
  ])('the other recorded channels: %s/%s', async (id, tab, title) => {
    const page = await ok<VideoPage & { channel_title: string }>(`/v1/channels/${id}/${tab}`);
    expect(page.channel_title).toBe(title);
    expect(page.videos.length).toBeGreaterThan(0);
  });

  it('an unknown handle → 404 channel_not_found', async () => {
    const res = await get('/v1/channels/@nobody-here');
    expect(res.status).toBe(404);
  });
});

describe('demo: playlists, search, suggestions', () => {
  it('playlist PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr: 100 + 50 videos', async () => {
    const id = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';
    const first = await ok<VideoPage & { title: string; video_count: number }>(`/v1/playlists/${id}`);
    expect(first).toMatchObject({
      title: "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
      video_count: 150,
      has_more: true,
    });
    expect(first.videos).toHaveLength(100);
    const second = await ok<VideoPage>(
      `/v1/playlists/${id}?cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect(second.videos).toHaveLength(50);
    expect(second.videos[0]).toMatchObject({ video_id: 'aQMKAZpcynA', index: 101 });
    expect([second.has_more, second.next_cursor]).toEqual([false, null]);
  });

  it('the other recorded playlist: one page of 17', async () => {
    const page = await ok<VideoPage>('/v1/playlists/PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO');
    expect([page.videos.length, page.has_more]).toEqual([17, false]);
  });

  it('search "test": two pages of videos through the cursor', async () => {
    type Results = { results: { id: string; type: string }[]; has_more: boolean; next_cursor: string | null };
    const first = await ok<Results>('/v1/search?q=test');
    expect(first.results).toHaveLength(20);
    expect(first.results[0]).toMatchObject({ id: 'Z8KYabgkMbw', type: 'video' });
    const second = await ok<Results>(
      `/v1/search?q=test&cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect(second.results).toHaveLength(20);
    expect(second.results[0]?.id).toBe('JOHUZMTdgBY');
    expect([second.has_more, second.next_cursor]).toEqual([false, null]);
    const channels = await ok<Results>('/v1/search?q=test&type=channel');
    expect(channels.results.every((r) => r.type === 'channel')).toBe(true);
    const playlists = await ok<Results>('/v1/search?q=test&type=playlist');
    expect(playlists.results.every((r) => r.type === 'playlist')).toBe(true);
  });

  it('suggestions for "hello"', async () => {
    const s = await ok<{ suggestions: string[] }>('/v1/search/suggestions?q=hello');
    expect(s.suggestions).toHaveLength(14);
    expect(s.suggestions[0]).toBe('hello');
  });
});

describe('demo: comments of xaQJbozY_Is (Kurzgesagt)', () => {
  type Comments = {
    video_id: string;
    comments: Record<string, unknown>[];
    has_more: boolean;
    next_cursor: string | null;
  };
  const DINO = 'xaQJbozY_Is';

  it('two pages of 10 "top" comments; the pinned creator comment first', async () => {
    const first = await ok<Comments>(`/v1/videos/${DINO}/comments`);
    expect(first.comments).toHaveLength(10);
    expect(first.comments[0]).toEqual({
      comment_id: 'UgwSOM0QHBLysE3vZE54AaABAg',
      text: 'The 12,022 Calendar is sold out check out more scienc-y products created with love here: https://kgs.link/shop-151',
      author: '@kurzgesagt',
      author_channel_id: 'UCsXVk37bltHxD1rDPwtNM8Q',
      author_thumbnail: expect.stringMatching(/^https:\/\/yt3\.ggpht\.com\//),
      is_verified: true,
      is_creator: true,
      like_count: 9800,
      like_count_text: '9.8k',
      reply_count: 327,
      published_text: '4 years ago',
      is_pinned: true,
      is_hearted: false,
      is_edited: true,
      replies_cursor: expect.any(String),
    });
    expect(first.comments[1]).toMatchObject({ author: '@MoreConsole', like_count: 22_000, is_pinned: false });
    const second = await ok<Comments>(
      `/v1/videos/${DINO}/comments?cursor=${encodeURIComponent(first.next_cursor ?? '')}`,
    );
    expect(second.comments).toHaveLength(10);
    expect([second.has_more, second.next_cursor]).toEqual([false, null]);
  });

  it('the pinned comment’s replies: two pages of 5, each with parent_id', async () => {
    const first = await ok<Comments>(`/v1/videos/${DINO}/comments`);
    const cursor = String(first.comments[0]?.replies_cursor);
    const replies = await ok<Comments>(`/v1/videos/${DINO}/comments?cursor=${encodeURIComponent(cursor)}`);
    expect(replies.comments).toHaveLength(5);
    expect(replies.comments[0]).toMatchObject({
      comment_id: 'UgwSOM0QHBLysE3vZE54AaABAg.9TOrAAD78Z59TP5tOBhBXP',
      parent_id: 'UgwSOM0QHBLysE3vZE54AaABAg',
      text: 'First',
      author: '@andrefarfan4372',
      like_count: 52,
    });
    const more = await ok<Comments>(
      `/v1/videos/${DINO}/comments?cursor=${encodeURIComponent(replies.next_cursor ?? '')}`,
    );
    expect(more.comments).toHaveLength(5);
    expect(more.comments.every((c) => c.parent_id === 'UgwSOM0QHBLysE3vZE54AaABAg')).toBe(true);
    expect(more.has_more).toBe(false);
  });

  it('a video without comments in the set: an empty page', async () => {
    const none = await ok<Comments>(`/v1/videos/${LMA}/comments?sort_by=newest`);
    expect(none).toEqual({ video_id: LMA, comments: [], has_more: false, next_cursor: null });
  });
});
