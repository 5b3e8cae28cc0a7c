import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError, type ErrorCode } from '../errors.ts';
import type { ChannelLocator } from '../ports/upstream.ts';
import { MAX_ID_INPUT_LENGTH, parseChannel, parsePlaylistId, parseVideoId } from './ids.ts';

const ID = 'dQw4w9WgXcQ';
const PL32 = 'PLFgquLnL59alCl_2TQvOiD5Vgm1hCaGSI';
const PL16 = 'PLBCF2DAC6FFB574DE';
const OLAK = 'OLAK5uy_mAGTQmYeosOR-Pp17OnnzkKHPeEbzSFOg';
const UC = 'UCuAXFkgsw1L7xaCfnd5JJOw';
const UU = 'UUuAXFkgsw1L7xaCfnd5JJOw';

/** Runs `fn` and returns the ApiError it throws (fails the test when it throws anything else). */
function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected an ApiError, nothing was thrown');
}

function expectCode(fn: () => unknown, code: ErrorCode): ApiError {
  const error = errorOf(fn);
  expect(error.code).toBe(code);
  expect(error.status).toBe(400);
  return error;
}

describe('parseVideoId: accepted forms', () => {
  it.each([
    ['bare id', ID],
    ['bare id with - and _', 'a-_b-_c-_d0'],
    ['surrounding spaces', `  ${ID}  `],
    ['surrounding tabs and newline', `\t${ID}\r\n`],
    ['watch', `https://www.youtube.com/watch?v=${ID}`],
    ['watch over http', `http://www.youtube.com/watch?v=${ID}`],
    ['watch, no www', `https://youtube.com/watch?v=${ID}`],
    ['watch, v not first', `https://www.youtube.com/watch?feature=share&v=${ID}`],
    ['watch with t', `https://www.youtube.com/watch?v=${ID}&t=42s`],
    ['watch with list and index', `https://www.youtube.com/watch?v=${ID}&list=${PL32}&index=3`],
    ['watch with fragment', `https://www.youtube.com/watch?v=${ID}#t=30`],
    ['watch with trailing slash', `https://www.youtube.com/watch/?v=${ID}`],
    ['watch with the same v twice', `https://www.youtube.com/watch?v=${ID}&v=${ID}`],
    ['watch with &amp; from HTML', `https://www.youtube.com/watch?v=${ID}&amp;t=1`],
    ['mobile', `https://m.youtube.com/watch?v=${ID}&feature=youtu.be`],
    ['music', `https://music.youtube.com/watch?v=${ID}&si=abc`],
    ['upper-case scheme and host', `HTTPS://WWW.YouTube.COM/watch?v=${ID}`],
    ['no scheme', `youtube.com/watch?v=${ID}`],
    ['no scheme, www', `www.youtube.com/watch?v=${ID}`],
    ['protocol-relative (embed snippets)', `//www.youtube.com/embed/${ID}`],
    ['youtu.be', `https://youtu.be/${ID}`],
    ['youtu.be with si', `https://youtu.be/${ID}?si=Ab12Cd34Ef56Gh78`],
    ['youtu.be with t', `youtu.be/${ID}?t=10`],
    ['youtu.be trailing slash', `https://youtu.be/${ID}/`],
    ['shorts', `https://www.youtube.com/shorts/${ID}`],
    ['shorts with feature', `https://youtube.com/shorts/${ID}?feature=share`],
    ['embed', `https://www.youtube.com/embed/${ID}?start=5`],
    ['live', `https://www.youtube.com/live/${ID}?si=x`],
    ['/v/', `https://www.youtube.com/v/${ID}`],
    ['nocookie embed', `https://www.youtube-nocookie.com/embed/${ID}`],
    ['nocookie embed, no www', `https://youtube-nocookie.com/embed/${ID}?rel=0`],
  ])('%s', (_name, input) => {
    expect(parseVideoId(input)).toBe(input.includes(ID) ? ID : input.trim());
  });
});

describe('parseVideoId: refused input', () => {
  it.each([
    ['empty', ''],
    ['whitespace only', ' \t\n '],
    ['interior space', 'dQw4w 9WgXcQ'],
    ['interior tab in URL', `https://www.youtube.com/watch?v=${ID}\t`.replace('watch', 'wa\ttch')],
    ['NUL byte', `${ID}\u0000`],
    ['NBSP around (not ASCII whitespace)', `\u00a0${ID}\u00a0`],
    ['zero-width space', `dQw4w\u200b9WgXcQ`],
    ['10 chars', 'dQw4w9WgXc'],
    ['12 chars', 'dQw4w9WgXcQQ'],
    ['bad character', 'dQw4w9WgXc!'],
    ['other host', `https://evil.com/watch?v=${ID}`],
    ['suffix host', `https://youtube.com.evil.com/watch?v=${ID}`],
    ['prefix host', `https://notyoutube.com/watch?v=${ID}`],
    ['sub-subdomain', `https://a.b.youtube.com/watch?v=${ID}`],
    ['trailing dot host', `https://youtube.com./watch?v=${ID}`],
    ['userinfo trick', `https://youtube.com@evil.com/watch?v=${ID}`],
    ['userinfo on real host', `https://user:pass@youtube.com/watch?v=${ID}`],
    ['port', `https://youtube.com:8443/watch?v=${ID}`],
    ['javascript:', `javascript:alert('${ID}')`],
    ['javascript: with comment', `javascript://youtube.com/watch?v=${ID}%0Aalert(1)`],
    ['data:', `data:text/html,<a href="youtube.com/watch?v=${ID}">`],
    ['ftp:', `ftp://youtube.com/watch?v=${ID}`],
    ['file:', `file:///youtube.com/watch?v=${ID}`],
    ['scheme without //', `https:youtube.com/watch?v=${ID}`],
    ['backslashes', `https:\\\\youtube.com\\watch?v=${ID}`],
    ['triple slash', `https:///youtube.com/watch?v=${ID}`],
    ['Cyrillic у look-alike', `https://уoutube.com/watch?v=${ID}`],
    ['full-width host', `https://ｙｏｕｔｕｂｅ.com/watch?v=${ID}`],
    ['full-width ID', 'ｄQw4w9WgXcQ'],
    ['punycode look-alike', `https://xn--outube-xjf.com/watch?v=${ID}`],
    ['percent-encoded host', `https://%79outube.com/watch?v=${ID}`],
    ['percent-encoded dot in host', `https://youtube%2Ecom/watch?v=${ID}`],
    ['percent-encoded v value', `https://youtube.com/watch?v=%64Qw4w9WgXcQ`],
    ['percent-encoded ?', `https://youtube.com/watch%3Fv=${ID}`],
    ['conflicting v', `https://youtube.com/watch?v=${ID}&v=jNQXAC9IVRw`],
    ['v missing', 'https://www.youtube.com/watch?t=10'],
    ['v empty', 'https://www.youtube.com/watch?v='],
    ['v too long', `https://www.youtube.com/watch?v=${ID}X`],
    ['v in the fragment only', `https://www.youtube.com/watch#v=${ID}`],
    ['unknown path', `https://www.youtube.com/foo/${ID}`],
    ['channel URL', `https://www.youtube.com/channel/${UC}`],
    ['shorts without id', 'https://www.youtube.com/shorts/'],
    ['shorts with extra segment', `https://www.youtube.com/shorts/${ID}/x`],
    ['youtu.be without id', 'https://youtu.be/'],
    ['youtu.be with extra segment', `https://youtu.be/watch/${ID}`],
    ['nocookie watch', `https://www.youtube-nocookie.com/watch?v=${ID}`],
    ['host only', 'youtube.com'],
    ['overlong', `https://youtube.com/watch?v=${ID}&x=${'a'.repeat(MAX_ID_INPUT_LENGTH)}`],
  ])('%s', (_name, input) => {
    const error = expectCode(() => parseVideoId(input), 'invalid_video_id');
    expect(error.message.length).toBeLessThan(200);
  });

  it('does not echo huge input', () => {
    const error = expectCode(() => parseVideoId('x'.repeat(1000)), 'invalid_video_id');
    expect(error.message).not.toContain('x'.repeat(61));
    expect(error.message.length).toBeLessThan(200);
  });

  it('says what is wrong', () => {
    expect(errorOf(() => parseVideoId('')).message).toMatch(/empty/);
    expect(errorOf(() => parseVideoId('abc')).message).toMatch(/11 characters/);
    expect(errorOf(() => parseVideoId(`https://evil.com/watch?v=${ID}`)).message).toMatch(
      /not a YouTube host/,
    );
    expect(errorOf(() => parseVideoId(`https://a@youtube.com/watch?v=${ID}`)).message).toMatch(/user info/);
    expect(errorOf(() => parseVideoId(`https://youtube.com:80/watch?v=${ID}`)).message).toMatch(/port/);
    expect(errorOf(() => parseVideoId('javascript:alert(1)')).message).toMatch(/http and https/);
    expect(errorOf(() => parseVideoId('x'.repeat(3000))).message).toMatch(/too long/);
  });
});

describe('parsePlaylistId', () => {
  it.each([
    ['PL + 32', PL32, PL32],
    ['PL + 16 (legacy)', PL16, PL16],
    ['OLAK5uy_ album', OLAK, OLAK],
    ['UU uploads', UU, UU],
    ['UUSH shorts uploads', 'UUSHuAXFkgsw1L7xaCfnd5JJOw', 'UUSHuAXFkgsw1L7xaCfnd5JJOw'],
    ['UULF long-form uploads', 'UULFuAXFkgsw1L7xaCfnd5JJOw', 'UULFuAXFkgsw1L7xaCfnd5JJOw'],
    ['FL favourites', 'FLuAXFkgsw1L7xaCfnd5JJOw', 'FLuAXFkgsw1L7xaCfnd5JJOw'],
    ['LL likes', 'LLuAXFkgsw1L7xaCfnd5JJOw', 'LLuAXFkgsw1L7xaCfnd5JJOw'],
    ['PU popular uploads', 'PUuAXFkgsw1L7xaCfnd5JJOw', 'PUuAXFkgsw1L7xaCfnd5JJOw'],
    ['OL other', 'OLx1y2z3w4v5u6t7', 'OLx1y2z3w4v5u6t7'],
    ['trimmed', `\n ${PL32} \n`, PL32],
    ['playlist URL', `https://www.youtube.com/playlist?list=${PL32}`, PL32],
    ['playlist URL, no scheme', `youtube.com/playlist?list=${PL32}`, PL32],
    ['playlist URL with si', `https://youtube.com/playlist?list=${OLAK}&si=rjdThN1uadLtR24A`, OLAK],
    ['music playlist URL', `https://music.youtube.com/playlist?list=${OLAK}`, OLAK],
    ['mobile playlist URL', `https://m.youtube.com/playlist?list=${PL16}`, PL16],
    ['watch URL with list', `https://www.youtube.com/watch?v=${ID}&list=${PL32}&index=2`, PL32],
    ['watch URL, list first', `https://www.youtube.com/watch?list=${PL32}&v=${ID}`, PL32],
    ['embed videoseries', `https://www.youtube.com/embed/videoseries?list=${OLAK}`, OLAK],
    ['youtu.be with list', `https://youtu.be/${ID}?list=${PL32}`, PL32],
  ])('accepts %s', (_name, input, expected) => {
    expect(parsePlaylistId(input)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['whitespace', '   '],
    ['unknown prefix', 'XX1234567890123456'],
    ['PL too short', 'PL12345'],
    ['PL + 20', `PL${'a'.repeat(20)}`],
    ['PL too long', `${PL32}abc`],
    ['UU + 21', 'UUuAXFkgsw1L7xaCfnd5JJO'],
    ['OLAK5uy_ + 32', OLAK.slice(0, -1)],
    ['watch later (private)', 'WL'],
    ['likes of the signed-in user', 'LL'],
    ['bad character', `${PL32.slice(0, -1)}!`],
    ['interior whitespace', `PL ${PL32.slice(2)}`],
    ['other host', `https://evil.com/playlist?list=${PL32}`],
    ['userinfo trick', `https://youtube.com@evil.com/playlist?list=${PL32}`],
    ['port', `https://youtube.com:443/playlist?list=${PL32}`],
    ['look-alike host', `https://youtubе.com/playlist?list=${PL32}`],
    ['javascript:', `javascript:alert("${PL32}")`],
    ['no list parameter', `https://www.youtube.com/playlist?v=${ID}`],
    ['empty list', 'https://www.youtube.com/playlist?list='],
    ['conflicting lists', `https://www.youtube.com/playlist?list=${PL32}&list=${PL16}`],
    ['percent-encoded list', `https://www.youtube.com/playlist?list=%50L${PL32.slice(2)}`],
    ['list on unknown path', `https://www.youtube.com/results?list=${PL32}`],
    ['video URL without list', `https://youtu.be/${ID}`],
    ['overlong', `${'PL'.repeat(1100)}`],
  ])('refuses %s', (_name, input) => {
    expectCode(() => parsePlaylistId(input), 'invalid_playlist_id');
  });

  it.each([
    ['video mix', `RD${ID}`],
    ['my mix', 'RDMM'],
    ['music radio', 'RDCLAK5uy_kmPRjHDECIcuVwnKsx2Ng7fyNgFKWNJFs'],
    ['mix in a watch URL', `https://www.youtube.com/watch?v=${ID}&list=RD${ID}&start_radio=1`],
  ])('refuses %s with a message about mixes', (_name, input) => {
    expect(expectCode(() => parsePlaylistId(input), 'invalid_playlist_id').message).toMatch(/mix/i);
  });
});

describe('parseChannel', () => {
  it.each<[string, string, ChannelLocator]>([
    ['UC id', UC, { kind: 'id', id: UC }],
    ['UC id with - and _', 'UC-lHJZR3Gqxm24_Vd_AJ5Yw', { kind: 'id', id: 'UC-lHJZR3Gqxm24_Vd_AJ5Yw' }],
    ['handle', '@mkbhd', { kind: 'handle', handle: '@mkbhd' }],
    ['handle with . _ -', '@a.b_c-d', { kind: 'handle', handle: '@a.b_c-d' }],
    ['handle, 3 chars', '@abc', { kind: 'handle', handle: '@abc' }],
    ['handle, 30 chars', `@${'a'.repeat(30)}`, { kind: 'handle', handle: `@${'a'.repeat(30)}` }],
    ['Unicode handle', '@日本語チャンネル', { kind: 'handle', handle: '@日本語チャンネル' }],
    ['Cyrillic handle', '@канал', { kind: 'handle', handle: '@канал' }],
    ['trimmed handle', '  @mkbhd\n', { kind: 'handle', handle: '@mkbhd' }],
    ['channel URL', `https://www.youtube.com/channel/${UC}`, { kind: 'id', id: UC }],
    ['channel URL + /videos', `https://youtube.com/channel/${UC}/videos`, { kind: 'id', id: UC }],
    ['channel URL, no scheme', `youtube.com/channel/${UC}`, { kind: 'id', id: UC }],
    ['handle URL', 'https://www.youtube.com/@mkbhd', { kind: 'handle', handle: '@mkbhd' }],
    ['handle URL + /streams', 'https://m.youtube.com/@mkbhd/streams', { kind: 'handle', handle: '@mkbhd' }],
    ['handle URL with query', 'https://youtube.com/@mkbhd?si=x', { kind: 'handle', handle: '@mkbhd' }],
    [
      'percent-encoded Unicode handle URL',
      'https://www.youtube.com/@%E3%81%82%E3%81%84%E3%81%86',
      { kind: 'handle', handle: '@あいう' },
    ],
    ['raw Unicode handle URL', 'https://www.youtube.com/@канал/videos', { kind: 'handle', handle: '@канал' }],
    ['custom URL', 'https://www.youtube.com/c/LinusTechTips', { kind: 'custom', name: 'LinusTechTips' }],
    [
      'custom URL + /about',
      'https://youtube.com/c/LinusTechTips/about',
      { kind: 'custom', name: 'LinusTechTips' },
    ],
    ['user URL', 'https://www.youtube.com/user/marquesbrownlee', { kind: 'user', name: 'marquesbrownlee' }],
    ['music channel URL', `https://music.youtube.com/channel/${UC}`, { kind: 'id', id: UC }],
  ])('accepts %s', (_name, input, expected) => {
    expect(parseChannel(input)).toEqual(expected);
  });

  it.each([
    ['empty', ''],
    ['bare name (ambiguous)', 'mkbhd'],
    ['UC + 21', UC.slice(0, -1)],
    ['UC + 23', `${UC}A`],
    ['lower-case uc', `uc${UC.slice(2)}`],
    ['handle too short', '@ab'],
    ['handle too long', `@${'a'.repeat(31)}`],
    ['only @', '@'],
    ['handle with space', '@mk bhd'],
    ['handle with slash', '@mk/bhd'],
    ['handle with zero-width space', '@mk\u200bbhd'],
    ['handle with emoji', '@🙂🙂🙂'],
    ['other host', `https://evil.com/channel/${UC}`],
    ['suffix host', 'https://youtube.com.evil.com/@mkbhd'],
    ['youtu.be', `https://youtu.be/channel/${UC}`],
    ['userinfo trick', 'https://youtube.com@evil.com/@mkbhd'],
    ['Cyrillic look-alike host', 'https://уoutube.com/@mkbhd'],
    ['javascript:', 'javascript:alert(1)//youtube.com/@mkbhd'],
    ['data:', 'data:,youtube.com/@mkbhd'],
    ['bad channel id in URL', 'https://www.youtube.com/channel/UCx'],
    ['encoded slash in handle', 'https://www.youtube.com/@mk%2Fbhd'],
    ['malformed percent-encoding', 'https://www.youtube.com/@mk%E3bhd'],
    ['c without name', 'https://www.youtube.com/c/'],
    ['legacy vanity URL', 'https://www.youtube.com/mkbhd'],
    ['video URL', `https://www.youtube.com/watch?v=${ID}`],
    ['overlong', `@${'a'.repeat(3000)}`],
  ])('refuses %s', (_name, input) => {
    expectCode(() => parseChannel(input), 'invalid_channel_id');
  });
});

const idArb = fc.stringMatching(/^[A-Za-z0-9_-]{11}$/);
const videoTemplates = [
  (id: string) => id,
  (id: string) => `https://www.youtube.com/watch?v=${id}`,
  (id: string) => `https://www.youtube.com/watch?feature=share&v=${id}&t=1m2s`,
  (id: string) => `http://m.youtube.com/watch?v=${id}`,
  (id: string) => `music.youtube.com/watch?v=${id}&list=${PL32}`,
  (id: string) => `youtube.com/watch?v=${id}`,
  (id: string) => `https://youtu.be/${id}?si=abcdef`,
  (id: string) => `https://www.youtube.com/shorts/${id}`,
  (id: string) => `https://www.youtube.com/embed/${id}?start=3`,
  (id: string) => `https://www.youtube.com/live/${id}`,
  (id: string) => `https://www.youtube.com/v/${id}`,
  (id: string) => `https://www.youtube-nocookie.com/embed/${id}`,
  (id: string) => ` ${id}\n`,
];

/** Runs a parser on arbitrary input: it returns or throws an ApiError with `code`, nothing else. */
function onlyApiErrors(parse: (input: string) => unknown, code: ErrorCode): (input: string) => void {
  return (input) => {
    try {
      parse(input);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).code).toBe(code);
      expect((error as ApiError).message.length).toBeLessThan(250);
    }
  };
}

const hostileArb = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.webUrl({ withQueryParameters: true, withFragments: true }),
  fc
    .tuple(
      fc.constantFrom('', 'https://', 'http://', '//', 'javascript:', 'data:'),
      fc.constantFrom(
        'youtube.com',
        'www.youtube.com',
        'youtu.be',
        'evil.com',
        'уoutube.com',
        'youtube.com@x',
      ),
      fc.constantFrom('/watch?v=', '/shorts/', '/playlist?list=', '/@', '/channel/', '/c/', '/'),
      fc.string({ unit: 'binary', maxLength: 40 }),
    )
    .map((parts) => parts.join('')),
);

describe('properties', () => {
  it('every valid video ID round-trips through every URL template', () => {
    fc.assert(
      fc.property(idArb, fc.constantFrom(...videoTemplates), (id, template) => {
        expect(parseVideoId(template(id))).toBe(id);
      }),
    );
  });

  it('every valid channel ID and handle round-trips through its URL forms', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^UC[A-Za-z0-9_-]{22}$/), (id) => {
        expect(parseChannel(id)).toEqual({ kind: 'id', id });
        expect(parseChannel(`https://www.youtube.com/channel/${id}/videos`)).toEqual({ kind: 'id', id });
      }),
    );
    fc.assert(
      fc.property(fc.stringMatching(/^@[A-Za-z0-9_.-]{3,30}$/), (handle) => {
        expect(parseChannel(handle)).toEqual({ kind: 'handle', handle });
        expect(parseChannel(`https://youtube.com/${handle}/shorts`)).toEqual({ kind: 'handle', handle });
      }),
    );
  });

  it('every PL playlist ID round-trips through its URL forms', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^PL[A-Za-z0-9_-]{32}$/), (id) => {
        expect(parsePlaylistId(id)).toBe(id);
        expect(parsePlaylistId(`https://www.youtube.com/playlist?list=${id}`)).toBe(id);
        expect(parsePlaylistId(`https://youtu.be/${ID}?list=${id}`)).toBe(id);
      }),
    );
  });

  it('arbitrary input never throws anything but the parser’s ApiError', () => {
    fc.assert(fc.property(hostileArb, onlyApiErrors(parseVideoId, 'invalid_video_id')), { numRuns: 500 });
    fc.assert(fc.property(hostileArb, onlyApiErrors(parsePlaylistId, 'invalid_playlist_id')), {
      numRuns: 500,
    });
    fc.assert(fc.property(hostileArb, onlyApiErrors(parseChannel, 'invalid_channel_id')), { numRuns: 500 });
  });

  it('a returned video ID is always 11 characters of the ID alphabet', () => {
    fc.assert(
      fc.property(hostileArb, (input) => {
        try {
          expect(parseVideoId(input)).toMatch(/^[A-Za-z0-9_-]{11}$/);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('a video ID with any one character replaced by a non-ID character is refused', () => {
    fc.assert(
      fc.property(
        idArb,
        fc.nat(10),
        fc.constantFrom(' ', '!', '/', '.', 'é', 'у', '\u0000', '%'),
        (id, at, ch) => {
          const broken = id.slice(0, at) + ch + id.slice(at + 1);
          expectCode(() => parseVideoId(broken), 'invalid_video_id');
        },
      ),
    );
  });
});
