import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HeatMarker, PlayerData, VideoExtras } from '../ports/upstream.ts';
import {
  basicInfoRecord,
  fastVideoRecord,
  fullVideoRecord,
  heatmapPeaks,
  heatmapRecord,
} from './video-record.ts';

const player: PlayerData = {
  videoId: 'FixtureVid1',
  title: 'A video',
  author: 'A Channel',
  channelId: 'UCfixtureChannel00000001',
  description: 'Short description',
  lengthSeconds: 3723,
  viewCount: 1234567,
  keywords: ['a', 'b'],
  thumbnails: [{ url: 'https://i.ytimg.com/vi/FixtureVid1/default.jpg', width: 120, height: 90 }],
  live: 'none',
  tracks: [
    { languageCode: 'en', name: 'English', kind: 'manual', isTranslatable: true, isDefault: true, ref: 'u1' },
    {
      languageCode: 'en',
      name: 'English (auto-generated)',
      kind: 'asr',
      isTranslatable: true,
      isDefault: false,
      ref: 'u2',
    },
    {
      languageCode: 'de',
      name: 'German - deutsch',
      kind: 'manual',
      variant: 'deutsch',
      isTranslatable: false,
      isDefault: false,
      ref: 'u3',
    },
  ],
};

/** Ten 10-second markers: the start spike, a peak at 30 s, a plateau at 60–80 s, a tail bump. */
const intensities = [1, 0.1, 0.3, 0.9, 0.35, 0.1, 0.6, 0.6, 0.05, 0.12];
const markers: HeatMarker[] = intensities.map((intensity, i) => ({
  startSeconds: i * 10,
  durationSeconds: 10,
  intensity,
}));
const decorations = [{ startSeconds: 20, endSeconds: 50, label: 'Most replayed' }];

describe('basicInfoRecord and fastVideoRecord', () => {
  it('builds the basic-info record', () => {
    expect(basicInfoRecord(player)).toEqual({
      video_id: 'FixtureVid1',
      title: 'A video',
      author: 'A Channel',
      channel_id: 'UCfixtureChannel00000001',
      channel: {
        id: 'UCfixtureChannel00000001',
        title: 'A Channel',
        url: 'https://www.youtube.com/channel/UCfixtureChannel00000001',
      },
      length_seconds: 3723,
      duration_seconds: 3723,
      view_count: 1234567,
      keywords: ['a', 'b'],
      thumbnails: [{ url: 'https://i.ytimg.com/vi/FixtureVid1/default.jpg', width: 120, height: 90 }],
      available_languages: [
        { code: 'en', name: 'English', kind: 'manual', is_translatable: true },
        { code: 'en', name: 'English (auto-generated)', kind: 'asr', is_translatable: true },
        { code: 'de', name: 'German - deutsch', kind: 'manual', variant: 'deutsch', is_translatable: false },
      ],
    });
  });

  it('omits empty keywords; the fast record adds description and mode', () => {
    expect('keywords' in basicInfoRecord({ ...player, keywords: [] })).toBe(false);
    const fast = fastVideoRecord(player);
    expect(fast.mode).toBe('fast');
    expect(fast.description).toBe('Short description');
  });
});

describe('fullVideoRecord', () => {
  const extras: VideoExtras = {
    publishedAt: 1529437294,
    likeCount: 348977,
    description: 'Full description',
    channelSubscribersText: '25.4m subscribers',
    channelAvatarUrl: 'https://yt3.ggpht.com/a=s176',
    chapters: [
      {
        title: 'Intro',
        startSeconds: 0,
        thumbnails: [{ url: 'https://i.ytimg.com/t.jpg', width: 168, height: 94 }],
      },
      { title: 'Middle', startSeconds: 83.5 },
      { title: 'End', startSeconds: 3723 },
    ],
    heatmap: { markers, decorations },
  };

  it('adds the watch-page extras', () => {
    const full = fullVideoRecord(player, extras);
    expect(full).toMatchObject({
      video_id: 'FixtureVid1',
      mode: 'full',
      published: 1529437294,
      like_count: 348977,
      description: 'Full description',
      channel: {
        id: 'UCfixtureChannel00000001',
        subscribers: '25.4m subscribers',
        avatar_url: 'https://yt3.ggpht.com/a=s176',
      },
    });
    expect(full.chapters).toEqual([
      {
        title: 'Intro',
        start_time_seconds: 0,
        time_description: '0:00',
        thumbnails: [{ url: 'https://i.ytimg.com/t.jpg', width: 168, height: 94 }],
      },
      { title: 'Middle', start_time_seconds: 83.5, time_description: '1:23' },
      { title: 'End', start_time_seconds: 3723, time_description: '1:02:03' },
    ]);
    expect(full.heatmap?.markers[3]).toEqual({ start_seconds: 30, duration_seconds: 10, intensity: 0.9 });
    expect(full.heatmap?.peaks).toEqual([
      { start_seconds: 30, end_seconds: 40, intensity: 0.9, label: 'Most replayed' },
      { start_seconds: 60, end_seconds: 80, intensity: 0.6, label: 'Peak' },
    ]);
    expect(full.heatmap?.most_replayed).toEqual({
      start_seconds: 20,
      end_seconds: 50,
      intensity: 0.9,
      label: 'Most replayed',
    });
  });

  it('omits what is unknown, and keeps the player description when the extras have none', () => {
    const full = fullVideoRecord(player, { chapters: [], description: '  ' });
    for (const key of ['published', 'like_count', 'chapters', 'heatmap']) expect(key in full).toBe(false);
    expect(full.channel).toEqual(basicInfoRecord(player).channel);
    expect(full.description).toBe('Short description');
    expect(
      'heatmap' in fullVideoRecord(player, { chapters: [], heatmap: { markers: [], decorations: [] } }),
    ).toBe(false);
  });
});

describe('heatmap peaks and most replayed', () => {
  it('labels peaks without decorations "Peak" and falls back to the top peak for most replayed', () => {
    const record = heatmapRecord(markers, []);
    expect(record?.peaks.map((p) => [p.start_seconds, p.label])).toEqual([
      [30, 'Peak'],
      [60, 'Peak'],
    ]);
    expect(record?.most_replayed).toEqual({
      start_seconds: 30,
      end_seconds: 40,
      intensity: 0.9,
      label: 'Most replayed',
    });
  });

  it('takes the decoration over the most intense marker', () => {
    const decos = [
      { startSeconds: 55, endSeconds: 85, label: 'Most replayed' },
      { startSeconds: 25, endSeconds: 35, label: 'Am häufigsten wiedergegeben' },
    ];
    expect(heatmapRecord(markers, decos)?.most_replayed).toEqual({
      start_seconds: 25,
      end_seconds: 35,
      intensity: 0.9,
      label: 'Am häufigsten wiedergegeben',
    });
  });

  it('falls back to the most intense marker when there is no peak', () => {
    const flat = [0.2, 0.5].map((intensity, i) => ({
      startSeconds: i * 4.34,
      durationSeconds: 4.34,
      intensity,
    }));
    expect(heatmapRecord(flat, [])?.most_replayed).toEqual({
      start_seconds: 4.34,
      end_seconds: 8.68,
      intensity: 0.5,
      label: 'Most replayed',
    });
  });

  it('ignores the start marker, small bumps, and keeps the most intense maxPeaks', () => {
    expect(heatmapPeaks(markers, [], { maxPeaks: 1 }).map((p) => p.start_seconds)).toEqual([30]);
    expect(heatmapPeaks(markers, [], { minProminence: 0.6 }).map((p) => p.start_seconds)).toEqual([30]);
    const wide = [0, 0.2, 0.5, 0.9, 0.8, 1, 0.4, 0].map((intensity, i) => ({
      startSeconds: i,
      durationSeconds: 1,
      intensity,
    }));
    expect(heatmapPeaks(wide, [])).toEqual([
      { start_seconds: 3, end_seconds: 6, intensity: 1, label: 'Peak' },
    ]);
  });

  it('yields ordered, disjoint peaks over the markers (property)', () => {
    const arb = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 120 });
    fc.assert(
      fc.property(arb, fc.integer({ min: 1, max: 6 }), (values, maxPeaks) => {
        const ms = values.map((intensity, i) => ({ startSeconds: i * 2, durationSeconds: 2, intensity }));
        const peaks = heatmapPeaks(ms, [], { maxPeaks });
        expect(peaks.length).toBeLessThanOrEqual(maxPeaks);
        for (const [i, p] of peaks.entries()) {
          expect(p.start_seconds).toBeGreaterThanOrEqual(2);
          expect(p.end_seconds).toBeGreaterThan(p.start_seconds);
          expect(values.slice(1)).toContain(p.intensity);
          if (i > 0) expect(p.start_seconds).toBeGreaterThan(peaks[i - 1]!.end_seconds);
        }
        const most = heatmapRecord(ms, [])!.most_replayed;
        for (const p of peaks) expect(most.intensity).toBeGreaterThanOrEqual(p.intensity);
      }),
    );
  });
});
