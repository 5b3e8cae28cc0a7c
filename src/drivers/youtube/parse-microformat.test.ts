import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from './json.ts';
import { mergeVideoExtras, parseIsoDate, parseMicroformat } from './parse-microformat.ts';

const cases = JSON.parse(
  readFileSync(new URL('./fixtures/microformat.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const iso = (s: string): number => Date.parse(s) / 1000;

describe('parseIsoDate', () => {
  it.each([
    ['2018-06-19T12:41:34-07:00', iso('2018-06-19T19:41:34Z')],
    ['2018-06-19T10:00:00+02:00', iso('2018-06-19T08:00:00Z')],
    ['2020-03-09T05:30:00+05:30', iso('2020-03-09T00:00:00Z')],
    ['2026-06-04T06:53:18+00:00', iso('2026-06-04T06:53:18Z')],
    ['2026-06-04T06:53:18.250Z', iso('2026-06-04T06:53:18Z')],
    ['2026-06-04T06:53:18', iso('2026-06-04T06:53:18Z')],
    ['2023-02-27', iso('2023-02-27T00:00:00Z')],
    ['2023-02-27T14:00-0130', iso('2023-02-27T15:30:00Z')],
  ])('%s', (value, seconds) => {
    expect(parseIsoDate(value)).toBe(seconds);
  });

  it.each(['', '19 Jun 2018', '2023-13-01', '2023-02-27T25', '2023-02-27T24:00', 'x2023-02-27'])(
    '%s → undefined',
    (value) => {
      expect(parseIsoDate(value)).toBeUndefined();
    },
  );
});

describe('parseMicroformat', () => {
  it('reads a regular video', () => {
    expect(parseMicroformat(cases.regular)).toEqual({
      videoId: 'FixtureVid1',
      publishedAt: iso('2018-06-19T19:41:34Z'),
      uploadedAt: iso('2018-06-19T08:00:00Z'),
      likeCount: 348977,
      viewCount: 1234567,
      lengthSeconds: 3724,
      category: 'Science & Technology',
      title: 'Fixture video: a tour of the test bench',
      description: 'A hand-written player response.',
      channelId: 'UCfixtureChannel00000001',
      channelName: 'Fixture Channel',
      isFamilySafe: true,
      isUnlisted: false,
      availableCountries: ['DE', 'FR', 'US'],
    });
  });

  it('keeps a precise publish date of a live stream and reports the broadcast', () => {
    expect(parseMicroformat(cases.liveNow)).toMatchObject({
      videoId: 'FixtureLive',
      publishedAt: iso('2026-06-04T06:49:58Z'),
      likeCount: 5366,
      live: { isLiveNow: true, start: iso('2026-06-04T06:53:18Z') },
    });
  });

  it('uses the live start when the publish date has no time', () => {
    const m = parseMicroformat(cases.scheduledDateOnly);
    expect(m.publishedAt).toBe(1677592800);
    expect(m.uploadedAt).toBe(iso('2023-02-27T00:00:00Z'));
    expect(m.live).toEqual({ isLiveNow: false, start: 1677592800 });
    expect(parseMicroformat(cases.endedStream).live).toEqual({
      isLiveNow: false,
      start: iso('2020-03-09T13:30:00Z'),
      end: iso('2020-03-09T19:56:09Z'),
    });
  });

  it('reads a date-only publish date as 00:00 UTC and omits hidden likes', () => {
    expect(parseMicroformat(cases.dateOnly)).toEqual({ publishedAt: iso('2012-05-21T00:00:00Z') });
  });

  it('yields {} without microformat and throws on non-objects', () => {
    expect(parseMicroformat(cases.noMicroformat)).toEqual({});
    expect(() => parseMicroformat('x')).toThrow(ParseError);
  });
});

describe('mergeVideoExtras', () => {
  it('prefers the exact microformat values and keeps the next extras', () => {
    const merged = mergeVideoExtras(
      {
        chapters: [{ title: 'Intro', startSeconds: 0 }],
        videoId: 'v',
        viewCount: 3,
        likeCount: 348000,
        likeCountApproximate: true,
        dateText: '19 Jun 2018',
        dateTextSeconds: 1529366400,
        channelSubscribersText: '1 subscriber',
      },
      { publishedAt: 1529437294, likeCount: 348977 },
    );
    expect(merged).toEqual({
      chapters: [{ title: 'Intro', startSeconds: 0 }],
      channelSubscribersText: '1 subscriber',
      publishedAt: 1529437294,
      likeCount: 348977,
    });
  });

  it('falls back to the date line and the rounded likes', () => {
    expect(mergeVideoExtras({ chapters: [], likeCount: 7, dateTextSeconds: 100 }, {})).toEqual({
      chapters: [],
      likeCount: 7,
      publishedAt: 100,
    });
    expect(mergeVideoExtras({ chapters: [] }, {})).toEqual({ chapters: [] });
  });
});
