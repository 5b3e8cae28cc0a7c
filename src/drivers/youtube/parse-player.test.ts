import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { ParseError } from './json.ts';
import { needsPoToken, parsePlayer, parsePlayerResponse, timedTextUrl } from './parse-player.ts';
import { WrongVideoError } from './playability.ts';

const fixture = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
const player = fixture('player');
const ID = 'FixtureVid1';

describe('parsePlayer', () => {
  const data = parsePlayer(player, ID);

  it('reads videoDetails', () => {
    expect(data).toMatchObject({
      videoId: ID,
      title: 'Fixture video: a tour of the test bench',
      author: 'Fixture Channel',
      channelId: 'UCfixtureChannel00000001',
      description: 'A hand-written player response.\nSecond line.',
      lengthSeconds: 3723,
      viewCount: 1234567,
      keywords: ['fixture', 'test bench'],
      live: 'none',
    });
    expect(data.thumbnails).toEqual([
      { url: 'https://i.ytimg.com/vi/FixtureVid1/default.jpg', width: 120, height: 90 },
      { url: 'https://i.ytimg.com/vi/FixtureVid1/hqdefault.jpg', width: 480, height: 360 },
    ]);
  });

  it('reads the caption tracks: kinds, names, variants, the default, without PO-token tracks', () => {
    expect(
      data.tracks.map((t) => [t.languageCode, t.kind, t.name, t.variant, t.isTranslatable, t.isDefault]),
    ).toEqual([
      ['de', 'manual', 'German', undefined, true, false],
      ['en', 'manual', 'English', undefined, true, true],
      ['en', 'asr', 'English (auto-generated)', undefined, true, false],
      ['en', 'manual', "English - Director's cut", "Director's cut", false, false],
      ['fr', 'manual', 'French', 'gemini', true, false],
      ['ko', 'manual', 'Korean', undefined, true, false],
    ]);
    expect(data.tracks[1]!.ref).toMatch(
      /^https:\/\/www\.youtube\.com\/api\/timedtext\?v=FixtureVid1&.*&lang=en$/,
    );
    expect(data.tracks.every((t) => !('variant' in t) || t.variant !== undefined)).toBe(true);
  });

  it('sets PO-token tracks apart', () => {
    const { data: d, poTokenTracks } = parsePlayerResponse(player, ID);
    expect(poTokenTracks.map((t) => t.languageCode)).toEqual(['ja']);
    expect(d.tracks).toHaveLength(6);
  });

  it('reads the reel endpoint wrapper and the microformat fallbacks', () => {
    const details = { videoId: ID, isLiveContent: true };
    const micro = {
      title: { simpleText: 'From microformat' },
      externalChannelId: 'UCmicro',
      ownerChannelName: 'Micro',
      lengthSeconds: '10',
      viewCount: '5',
      description: { simpleText: 'micro description' },
    };
    const d = parsePlayer(
      {
        playerResponse: {
          playabilityStatus: { status: 'OK' },
          videoDetails: details,
          microformat: { playerMicroformatRenderer: micro },
        },
      },
      ID,
    );
    expect(d).toMatchObject({
      title: 'From microformat',
      channelId: 'UCmicro',
      author: 'Micro',
      lengthSeconds: 10,
      viewCount: 5,
      description: 'micro description',
      live: 'ended',
      tracks: [],
      keywords: [],
    });
  });

  it.each([
    [{ isLive: true, isLiveContent: true }, 'OK', 'live'],
    [{ isUpcoming: true, isLiveContent: true }, 'OK', 'upcoming'],
    [{ isLiveContent: true }, 'LIVE_STREAM_OFFLINE', 'upcoming'],
    [{ isLiveContent: true }, 'OK', 'ended'],
    [{ isLiveContent: false }, 'OK', 'none'],
  ])('live state of %o with %s is %s', (flags, status, live) => {
    const body = {
      playabilityStatus: { status },
      videoDetails: { videoId: ID, title: 't', channelId: 'UC', ...flags },
    };
    expect(parsePlayer(body, ID).live).toBe(live);
  });

  it('throws the playability errors, WrongVideoError and ParseError', () => {
    expect(() => parsePlayer({}, ID)).toThrow(ApiError);
    expect(() =>
      parsePlayer({ playabilityStatus: { status: 'OK' }, videoDetails: { videoId: 'x' } }, ID),
    ).toThrow(WrongVideoError);
    expect(() => parsePlayer({ playabilityStatus: { status: 'OK' } }, ID)).toThrow(ParseError);
    expect(() =>
      parsePlayer({ playabilityStatus: { status: 'OK' }, videoDetails: { title: 't' } }, ID),
    ).toThrow('videoDetails.channelId');
  });
});

describe('needsPoToken', () => {
  it.each([
    ['https://www.youtube.com/api/timedtext?v=a&exp=xpe&lang=en', true],
    ['https://www.youtube.com/api/timedtext?v=a&exp=xpv&lang=en', true],
    ['https://www.youtube.com/api/timedtext?v=a&exp=xbt,xpe&lang=en', true],
    ['https://www.youtube.com/api/timedtext?v=a&exp=xbt&lang=en', false],
    ['https://www.youtube.com/api/timedtext?v=a&lang=en&xexp=xpe', false],
    ['https://www.youtube.com/api/timedtext?v=a&lang=en', false],
  ])('%s → %s', (url, expected) => {
    expect(needsPoToken(url)).toBe(expected);
  });
});

describe('timedTextUrl', () => {
  const ref =
    'https://www.youtube.com/api/timedtext?v=a&sparams=ip,ipbits&signature=S.T&fmt=srv3&tlang=de&xosf=1&lang=en';

  it('replaces fmt, drops tlang and xosf, keeps the signed parameters as they were', () => {
    expect(timedTextUrl(ref, 'json3')).toBe(
      'https://www.youtube.com/api/timedtext?v=a&sparams=ip,ipbits&signature=S.T&lang=en&fmt=json3',
    );
    expect(timedTextUrl('https://www.youtube.com/api/timedtext?v=a', 'srv1')).toBe(
      'https://www.youtube.com/api/timedtext?v=a&fmt=srv1',
    );
  });

  it('replaces scheme and host with the origin', () => {
    expect(timedTextUrl(ref, 'srv3', 'http://127.0.0.1:8080')).toBe(
      'http://127.0.0.1:8080/api/timedtext?v=a&sparams=ip,ipbits&signature=S.T&lang=en&fmt=srv3',
    );
    expect(timedTextUrl('/api/timedtext?v=a#x', 'json3', 'http://localhost:9/')).toBe(
      'http://localhost:9/api/timedtext?v=a&fmt=json3',
    );
    expect(timedTextUrl('//www.youtube.com/api/timedtext?v=a', 'json3')).toBe(
      'https://www.youtube.com/api/timedtext?v=a&fmt=json3',
    );
  });
});

describe('timedTextUrl with tlang and translation languages', () => {
  it('appends tlang after fmt, replacing any tlang of the ref', () => {
    const url = timedTextUrl(
      'https://www.youtube.com/api/timedtext?v=x&lang=en&tlang=fr&fmt=srv3',
      'json3',
      undefined,
      'de',
    );
    expect(url).toBe('https://www.youtube.com/api/timedtext?v=x&lang=en&fmt=json3&tlang=de');
  });

  it('reads the player’s translationLanguages as codes', () => {
    const data = parsePlayer(player, ID);
    expect(data.translationLanguages).toEqual(['af']);
  });
});
