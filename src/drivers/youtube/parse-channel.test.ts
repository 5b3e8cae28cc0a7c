import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import { ParseError } from './json.ts';
import {
  assertChannelExists,
  errorAlert,
  parseChannel,
  parseCompactNumber,
  parseSubscriberCount,
  tabName,
  thumbnailsOf,
  unwrapRedirect,
} from './parse-channel.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));

describe('parseSubscriberCount', () => {
  it.each<[string, number | undefined]>([
    ['25M subscribers', 25_000_000],
    ['25m subscribers', 25_000_000],
    ['25 million subscribers', 25_000_000],
    ['5.04m subscribers', 5_040_000],
    ['5.04 million subscribers', 5_040_000],
    ['1.23M subscribers', 1_230_000],
    ['845K subscribers', 845_000],
    ['1.5K', 1_500],
    ['18k videos', 18_000],
    ['3.2B subscribers', 3_200_000_000],
    ['2 bn', 2_000_000_000],
    ['1,234,567 subscribers', 1_234_567],
    ['1,545,374 views', 1_545_374],
    ['987 subscribers', 987],
    ['1 subscriber', 1],
    ['No subscribers', 0],
    // Locale-ish spellings.
    ['1,2 Mio. Abonnenten', 1_200_000],
    ['1.234.567 Abonnenten', 1_234_567],
    ['12,5 k', 12_500],
    ['2,3 M d’abonnés', 2_300_000],
    ['1\u00a0234\u00a0567 abonnés', 1_234_567],
    ['1\u202f234 abonnés', 1_234],
    ["1'234'567", 1_234_567],
    ['12 mil suscriptores', 12_000],
    ['1,5 mill. de suscriptores', 1_500_000],
    ['3,4 млн подписчиков', 3_400_000],
    ['1.2万人', 12_000],
    ['3億', 300_000_000],
    ['1.234,5', 1_235],
    ['1,234.5', 1_235],
    // Without a multiplier, one separator before exactly three digits is grouping.
    ['1.234', 1_234],
    ['1,234', 1_234],
    ['12.5', 13],
    ['', undefined],
    ['subscribers', undefined],
    ['Subscribe', undefined],
  ])('%j → %s', (input, expected) => {
    expect(parseSubscriberCount(input)).toBe(expected);
  });

  it('reads back any integer written with English grouping (law)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 ** 12 }), (n) => {
        expect(parseCompactNumber(`${n.toLocaleString('en-US')} views`)).toBe(n);
        expect(parseCompactNumber(n.toLocaleString('de-DE'))).toBe(n);
      }),
    );
  });
});

describe('thumbnailsOf', () => {
  it('accepts {thumbnails}, {sources} and lists; fixes protocol-relative URLs; drops entries without url', () => {
    const list = [{ url: '//yt3.ggpht.com/a', width: 88, height: 88 }, { width: 1 }, { url: 'https://x/b' }];
    const expected = [
      { url: 'https://yt3.ggpht.com/a', width: 88, height: 88 },
      { url: 'https://x/b', width: 0, height: 0 },
    ];
    expect(thumbnailsOf({ thumbnails: list })).toEqual(expected);
    expect(thumbnailsOf({ sources: list })).toEqual(expected);
    expect(thumbnailsOf(list)).toEqual(expected);
    expect(thumbnailsOf(undefined)).toEqual([]);
  });
});

describe('helpers', () => {
  it('unwraps redirect links', () => {
    expect(unwrapRedirect('https://www.youtube.com/redirect?event=x&q=https%3A%2F%2Fa.example%2Fb&v=1')).toBe(
      'https://a.example/b',
    );
    expect(unwrapRedirect('https://twitter.com/cat')).toBe('https://twitter.com/cat');
    expect(unwrapRedirect('https://www.youtube.com/redirect?event=x')).toBe(
      'https://www.youtube.com/redirect?event=x',
    );
  });

  it.each([
    [
      'params',
      { endpoint: { browseEndpoint: { params: 'EgZzaG9ydHPyBgUKA5oBAA%3D%3D' } }, title: 'Kurzvideos' },
      'shorts',
    ],
    [
      'params (featured → home)',
      { endpoint: { browseEndpoint: { params: 'EghmZWF0dXJlZPIGBAoCMgA%3D' } } },
      'home',
    ],
    ['url', { endpoint: { commandMetadata: { webCommandMetadata: { url: '/@cat/streams' } } } }, 'streams'],
    [
      'url (community → posts)',
      { endpoint: { commandMetadata: { webCommandMetadata: { url: '/c/Cat/community' } } } },
      'posts',
    ],
    ['title (Live → streams)', { title: 'Live' }, 'streams'],
    ['nothing', {}, undefined],
  ])('names a tab from its %s', (_name, tab, expected) => {
    expect(tabName(tab)).toBe(expected);
  });

  it('reads ERROR alerts only', () => {
    expect(
      errorAlert({ alerts: [{ alertRenderer: { type: 'INFO', text: { simpleText: 'hi' } } }] }),
    ).toBeUndefined();
    expect(errorAlert({ alerts: [{ alertWithButtonRenderer: { type: 'ERROR' } }] })).toBe('');
    expect(errorAlert(fixture('channel-removed.json'))).toMatch(/terminated/);
  });
});

describe('parseChannel', () => {
  it('reads the 2026 pageHeaderViewModel layout', () => {
    expect(parseChannel(fixture('channel-2026.json'))).toEqual({
      channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
      title: 'Science Cat',
      handle: '@sciencecat',
      customUrl: '@sciencecat',
      description: 'Cats explain physics.\n\nNew videos every Friday.',
      subscriberCountText: '1.23M subscribers',
      subscriberCount: 1_230_000,
      videoCount: 1204,
      verified: true,
      avatars: [
        { url: 'https://yt3.googleusercontent.com/cat=s72-c-k', width: 72, height: 72 },
        { url: 'https://yt3.googleusercontent.com/cat=s160-c-k', width: 160, height: 160 },
        { url: 'https://yt3.googleusercontent.com/cat=s900-c-k', width: 900, height: 900 },
      ],
      banners: [
        { url: 'https://yt3.googleusercontent.com/banner=w1060', width: 1060, height: 175 },
        { url: 'https://yt3.googleusercontent.com/banner=w2560', width: 2560, height: 424 },
      ],
      links: ['https://catshop.example/'],
      tabs: ['home', 'videos', 'streams', 'posts'],
    });
  });

  it('reads the older c4TabbedHeaderRenderer layout', () => {
    expect(parseChannel(fixture('channel-c4.json'))).toEqual({
      channelId: 'UCbbbbbbbbbbbbbbbbbbbbbb',
      title: 'Old Cat',
      handle: '@oldcat',
      customUrl: 'c/OldCat',
      description: 'The classic cat channel.',
      subscriberCountText: '845K subscribers',
      subscriberCount: 845_000,
      videoCount: 96,
      verified: true,
      avatars: [
        { url: 'https://yt3.ggpht.com/oldcat=s48-c-k', width: 48, height: 48 },
        { url: 'https://yt3.ggpht.com/oldcat=s176-c-k', width: 176, height: 176 },
      ],
      banners: [{ url: 'https://yt3.ggpht.com/oldbanner=w1060', width: 1060, height: 175 }],
      links: ['https://oldcat.example/shop', 'https://twitter.com/oldcat'],
      tabs: ['home', 'videos', 'playlists'],
    });
  });

  it('falls back to the microformat and the requested id', () => {
    const json = {
      microformat: {
        microformatDataRenderer: {
          title: 'Bare',
          urlCanonical: 'https://www.youtube.com/channel/UCzzzzzzzzzzzzzzzzzzzzzz',
        },
      },
    };
    expect(parseChannel(json)).toMatchObject({
      channelId: 'UCzzzzzzzzzzzzzzzzzzzzzz',
      title: 'Bare',
      description: '',
      verified: false,
      tabs: [],
    });
    expect(
      parseChannel({ header: { c4TabbedHeaderRenderer: { title: 'No id' } } }, { channelId: 'UCq' })
        .channelId,
    ).toBe('UCq');
  });

  it('reports a removed channel as channel_not_found, with the reason', () => {
    const error = (() => {
      try {
        parseChannel(fixture('channel-removed.json'));
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('channel_not_found');
    expect((error as ApiError).details).toEqual({
      reason: 'This account has been terminated for violating our Terms of Service.',
    });
  });

  it('maps error bodies: 400/404 → channel_not_found, others → ParseError', () => {
    const body = (code: number, status: string) => ({ error: { code, status, message: 'x' } });
    expect(() => parseChannel(body(400, 'INVALID_ARGUMENT'))).toThrow(
      expect.objectContaining({ code: 'channel_not_found' }),
    );
    expect(() => parseChannel(body(404, 'NOT_FOUND'))).toThrow(
      expect.objectContaining({ code: 'channel_not_found' }),
    );
    expect(() => assertChannelExists(body(400, 'FAILED_PRECONDITION'))).toThrow(ParseError);
  });

  it('throws ParseError when nothing names the channel', () => {
    expect(() => parseChannel({ contents: {} })).toThrow(ParseError);
    expect(() => parseChannel({ metadata: { channelMetadataRenderer: { externalId: 'UCx' } } })).toThrow(
      /channelMetadataRenderer\.title/,
    );
  });
});
