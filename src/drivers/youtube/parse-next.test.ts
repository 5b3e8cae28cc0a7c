import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from './json.ts';
import { parseDateText, parseLikeText, parseNext } from './parse-next.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));

describe('parseNext on the 2026 shapes (markers map, entity heatmap, like view model)', () => {
  const next = parseNext(fixture('next-markers'));

  it('takes description chapters from the markers map, ignoring other marker kinds', () => {
    expect(next.chapters).toEqual([
      {
        title: 'Intro',
        startSeconds: 0,
        thumbnails: [{ url: 'https://i.ytimg.com/vi/FixtureVid1/hqdefault_0.jpg', width: 168, height: 94 }],
      },
      { title: 'Middle', startSeconds: 83.5 },
      { title: 'Outro', startSeconds: 3723 },
    ]);
  });

  it('reads the heatmap entity and its decoration, not the timestamps entity', () => {
    expect(next.heatmap?.markers).toHaveLength(10);
    expect(next.heatmap?.markers[3]).toEqual({ startSeconds: 30, durationSeconds: 10, intensity: 0.9 });
    expect(next.heatmap?.decorations).toEqual([{ startSeconds: 20, endSeconds: 50, label: 'Most replayed' }]);
  });

  it('reads likes, views, owner, description, date and video id', () => {
    expect(next).toMatchObject({
      videoId: 'FixtureVid1',
      viewCount: 1234567,
      likeCount: 348977,
      description: 'The full description.\n0:00 Intro\n1:02:03 Outro',
      channelSubscribersText: '25.4m subscribers',
      channelAvatarUrl: 'https://yt3.ggpht.com/fixture=s176-c-k',
      dateText: '19 Jun 2018',
      dateTextSeconds: Date.UTC(2018, 5, 19) / 1000,
    });
    expect(next.likeCountApproximate).toBeUndefined();
  });
});

describe('parseNext on the older shapes (chapter panels, heatMarkerRenderer, toggle button)', () => {
  const next = parseNext(fixture('next-legacy'));

  it('prefers the description-chapters panel, reading startTimeSeconds or the time text', () => {
    expect(next.chapters).toEqual([
      { title: 'Opening', startSeconds: 0 },
      { title: 'News', startSeconds: 725 },
    ]);
  });

  it('falls back to the auto-chapters panel', () => {
    const doc = fixture('next-legacy') as { engagementPanels: unknown[] };
    const auto = parseNext({ ...doc, engagementPanels: doc.engagementPanels.slice(0, 2) });
    expect(auto.chapters).toEqual([
      {
        title: 'Build Quality',
        startSeconds: 39.16,
        thumbnails: [
          { url: 'https://i.ytimg.com/vi/FixtureVid2/hqdefault_39466.jpg', width: 168, height: 94 },
        ],
      },
      { title: 'Screen', startSeconds: 3970 },
    ]);
  });

  it('reads the legacy heatmap renderer', () => {
    expect(next.heatmap).toEqual({
      markers: [
        { startSeconds: 0, durationSeconds: 5, intensity: 0.5 },
        { startSeconds: 5, durationSeconds: 5, intensity: 1 },
        { startSeconds: 10, durationSeconds: 5, intensity: 0.2 },
      ],
      decorations: [{ startSeconds: 5, endSeconds: 10, label: 'Most replayed' }],
    });
  });

  it('reads the toggle-button likes, the runs description, and skips live viewer counts', () => {
    expect(next).toMatchObject({
      likeCount: 7,
      description: 'Episode 241. https://example.com/fixture\nThanks.',
      channelSubscribersText: '594K subscribers',
      channelAvatarUrl: 'https://yt3.ggpht.com/legacy=s48',
      dateText: 'Scheduled for Feb 28, 2023',
      dateTextSeconds: Date.UTC(2023, 1, 28) / 1000,
    });
    expect(next.viewCount).toBeUndefined();
    expect(next.videoId).toBeUndefined();
  });

  it('leaves out what is missing and rejects responses without contents', () => {
    expect(parseNext({ contents: {} })).toEqual({ chapters: [] });
    expect(() => parseNext({})).toThrow(ParseError);
    expect(() => parseNext(null)).toThrow(ParseError);
  });
});

describe('parseLikeText', () => {
  it.each([
    ['like this video along with 348,977 other people', 348977, true],
    ['like this video along with 1 other person', 1, true],
    ['7 likes', 7, true],
    ['1,000', 1000, true],
    ['Gefällt 348.977 anderen Nutzern', 348977, true],
    ['348k', 348000, false],
    ['348K', 348000, false],
    ['6.8M', 6800000, false],
    ['1,2 M', 1200000, false],
    ['2.1B', 2100000000, false],
  ])('%s → %d (exact %s)', (label, count, exact) => {
    expect(parseLikeText(label)).toEqual({ count, exact });
  });

  it.each(['Like', 'Dislike this video', ''])('%s → undefined', (label) => {
    expect(parseLikeText(label)).toBeUndefined();
  });

  it('prefers an exact label to a rounded title', () => {
    const doc = fixture('next-markers') as Record<string, unknown>;
    const json = JSON.stringify(doc).replace('like this video along with 348,977 other people', 'Like');
    const next = parseNext(JSON.parse(json));
    expect(next.likeCount).toBe(348000);
    expect(next.likeCountApproximate).toBe(true);
  });
});

describe('parseDateText', () => {
  it.each([
    ['19 Jun 2018', Date.UTC(2018, 5, 19)],
    ['Aug 4, 2022', Date.UTC(2022, 7, 4)],
    ['Premiered Sept 1, 2021', Date.UTC(2021, 8, 1)],
    ['Started streaming on 4 Jun 2026', Date.UTC(2026, 5, 4)],
    ['Streamed live on 13 January 2023', Date.UTC(2023, 0, 13)],
  ])('%s', (value, ms) => {
    expect(parseDateText(value)).toBe(ms / 1000);
  });

  it.each(['7 years ago', '19.06.2018', ''])('%s → undefined', (value) => {
    expect(parseDateText(value)).toBeUndefined();
  });
});
