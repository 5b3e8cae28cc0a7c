import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Segment } from '../transcript.ts';
import { cleanCueText, putPlainCueText, srtCueText, vttCueText } from './cue-text.ts';
import { renderSrt, renderVtt, subtitleCues } from './subtitles.ts';
import { MAX_MS } from './time.ts';

const seg = (start: number, end: number, text: string): Segment => ({ text, start, end });

describe('renderSrt / renderVtt', () => {
  it.each<[string, Segment[], string, string]>([
    ['no segments', [], '', 'WEBVTT\n'],
    [
      'manual, contiguous (youtube-transcript-api vector, end = segment end)',
      [seg(0, 1.5, 'Test line 1'), seg(1.5, 2.5, 'Test line 2'), seg(2.5, 3.25, 'Test line 3')],
      '1\n00:00:00,000 --> 00:00:01,500\nTest line 1\n\n' +
        '2\n00:00:01,500 --> 00:00:02,500\nTest line 2\n\n' +
        '3\n00:00:02,500 --> 00:00:03,250\nTest line 3\n',
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nTest line 1\n\n' +
        '00:00:01.500 --> 00:00:02.500\nTest line 2\n\n' +
        '00:00:02.500 --> 00:00:03.250\nTest line 3\n',
    ],
    [
      'ASR, overlapping cues keep their own ends',
      [seg(0.16, 4.16, 'rust is'), seg(2.669, 6.2, 'a language')],
      '1\n00:00:00,160 --> 00:00:04,160\nrust is\n\n2\n00:00:02,669 --> 00:00:06,200\na language\n',
      'WEBVTT\n\n00:00:00.160 --> 00:00:04.160\nrust is\n\n00:00:02.669 --> 00:00:06.200\na language\n',
    ],
    [
      'hours past 99, float noise, rounding to ms',
      [seg(0.1 + 0.2, 359999.9995, 'a'), seg(360000, 3600000.001, 'b')],
      '1\n00:00:00,300 --> 100:00:00,000\na\n\n2\n100:00:00,000 --> 1000:00:00,001\nb\n',
      'WEBVTT\n\n00:00:00.300 --> 100:00:00.000\na\n\n100:00:00.000 --> 1000:00:00.001\nb\n',
    ],
    [
      'clamping: NaN, negative, end before start, zero length',
      [seg(Number.NaN, -1, 'x'), seg(-5, 2, 'y'), seg(3, 1, 'z'), seg(4, 4, 'w')],
      '1\n00:00:00,000 --> 00:00:00,000\nx\n\n2\n00:00:00,000 --> 00:00:02,000\ny\n\n' +
        '3\n00:00:03,000 --> 00:00:03,000\nz\n\n4\n00:00:04,000 --> 00:00:04,000\nw\n',
      'WEBVTT\n\n00:00:00.000 --> 00:00:00.000\nx\n\n00:00:00.000 --> 00:00:02.000\ny\n\n' +
        '00:00:03.000 --> 00:00:03.000\nz\n\n00:00:04.000 --> 00:00:04.000\nw\n',
    ],
    [
      'empty and blank text: the cue stays, its payload is empty',
      [seg(1, 2, ''), seg(2, 3, ' \r\n \n')],
      '1\n00:00:01,000 --> 00:00:02,000\n\n\n2\n00:00:02,000 --> 00:00:03,000\n\n',
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n\n\n00:00:02.000 --> 00:00:03.000\n\n',
    ],
    [
      'line breaks normalised, blank lines dropped, markup escaped in VTT only',
      [seg(0, 1, ' one\r\ntwo\r\rthree \n\n four '), seg(1, 2, 'a <b>&</b> --> c ---> d')],
      '1\n00:00:00,000 --> 00:00:01,000\none\ntwo\nthree\nfour\n\n2\n00:00:01,000 --> 00:00:02,000\na <b>&</b> -> c -> d\n',
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\none\ntwo\nthree\nfour\n\n' +
        '00:00:01.000 --> 00:00:02.000\na &lt;b&gt;&amp;&lt;/b&gt; --&gt; c ---&gt; d\n',
    ],
    [
      'segments out of order are written in start order (stable)',
      [seg(5, 6, 'late'), seg(1, 2, 'early'), seg(5, 7, 'late too')],
      '1\n00:00:01,000 --> 00:00:02,000\nearly\n\n2\n00:00:05,000 --> 00:00:06,000\nlate\n\n' +
        '3\n00:00:05,000 --> 00:00:07,000\nlate too\n',
      'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nearly\n\n00:00:05.000 --> 00:00:06.000\nlate\n\n' +
        '00:00:05.000 --> 00:00:07.000\nlate too\n',
    ],
    [
      'non-ASCII text and a lone surrogate (U+FFFD)',
      [seg(0, 1, '日本語。👩‍👩‍👧 مرحبا'), seg(1, 2, 'bad \ud800 pair')],
      '1\n00:00:00,000 --> 00:00:01,000\n日本語。👩‍👩‍👧 مرحبا\n\n2\n00:00:01,000 --> 00:00:02,000\nbad \ufffd pair\n',
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.000\n日本語。👩‍👩‍👧 مرحبا\n\n00:00:01.000 --> 00:00:02.000\nbad \ufffd pair\n',
    ],
  ])('%s', (_name, segments, srt, vtt) => {
    expect(renderSrt(segments)).toBe(srt);
    expect(renderVtt(segments)).toBe(vtt);
  });

  it('writes no line holding "-->" except timing lines', () => {
    const segments = [seg(0, 1, '-->'), seg(1, 2, 'a\n-->\nb'), seg(2, 3, '---->>'), seg(3, 4, '<!-- x -->')];
    for (const body of [renderSrt(segments), renderVtt(segments)]) {
      const arrows = body.split('\n').filter((line) => line.includes('-->'));
      expect(arrows).toHaveLength(4);
      for (const line of arrows)
        expect(line).toMatch(/^\d{2,}:\d\d:\d\d[,.]\d{3} --> \d{2,}:\d\d:\d\d[,.]\d{3}$/);
    }
  });
});

describe('timestamps', () => {
  const pad = (n: number, width: number): string => String(n).padStart(width, '0');
  const reference = (ms: number, sep: string): string =>
    `${pad(Math.floor(ms / 3_600_000), 2)}:${pad(Math.floor(ms / 60_000) % 60, 2)}:` +
    `${pad(Math.floor(ms / 1000) % 60, 2)}${sep}${pad(ms % 1000, 3)}`;

  it.each([0, 1500, 59_999, 3_599_999, 36_000_500, 359_999_999, 360_000_000, 3_600_000_001, MAX_MS])(
    '%d ms',
    (ms) => {
      expect(renderSrt([seg(ms / 1000, ms / 1000, 'x')])).toBe(
        `1\n${reference(ms, ',')} --> ${reference(ms, ',')}\nx\n`,
      );
    },
  );

  it('agree with a reference formatter (SRT and WebVTT)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: MAX_MS }), fc.integer({ min: 0, max: MAX_MS }), (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const cue = [seg(start / 1000, end / 1000, 'x')];
        expect(renderSrt(cue)).toBe(`1\n${reference(start, ',')} --> ${reference(end, ',')}\nx\n`);
        expect(renderVtt(cue)).toBe(`WEBVTT\n\n${reference(start, '.')} --> ${reference(end, '.')}\nx\n`);
      }),
    );
  });
});

describe('subtitleCues', () => {
  it('returns what the writers write', () => {
    const segments = [seg(2, 1, 'a & b'), seg(0.5, 3, 'c --> d')];
    expect(subtitleCues(segments, false)).toEqual([
      { startMs: 500, endMs: 3000, text: 'c -> d' },
      { startMs: 2000, endMs: 2000, text: 'a & b' },
    ]);
    expect(subtitleCues(segments, true)).toEqual([
      { startMs: 500, endMs: 3000, text: 'c --&gt; d' },
      { startMs: 2000, endMs: 2000, text: 'a &amp; b' },
    ]);
  });
});

describe('cue text', () => {
  it.each([
    ['plain', 'plain', 'plain', 'plain'],
    ['  padded  ', 'padded', 'padded', 'padded'],
    ['a\r\nb\rc\nd', 'a\nb\nc\nd', 'a\nb\nc\nd', 'a\nb\nc\nd'],
    ['a\n\n \t\nb', 'a\nb', 'a\nb', 'a\nb'],
    ['\u00a0\n\u3000', '', '', ''],
    ['nul\0here', 'nul\ufffdhere', 'nul\ufffdhere', 'nul\ufffdhere'],
    ['x --> y', 'x --> y', 'x -> y', 'x --&gt; y'],
    ['x ---> y -->--> z', 'x ---> y -->--> z', 'x -> y ->-> z', 'x ---&gt; y --&gt;--&gt; z'],
    ['<i>a</i> & b', '<i>a</i> & b', '<i>a</i> & b', '&lt;i&gt;a&lt;/i&gt; &amp; b'],
    ['&amp;', '&amp;', '&amp;', '&amp;amp;'],
  ])('%j → clean %j, srt %j, vtt %j', (input, clean, srt, vtt) => {
    expect(cleanCueText(input)).toBe(clean);
    expect(srtCueText(input)).toBe(srt);
    expect(vttCueText(input)).toBe(vtt);
  });
});

describe('putPlainCueText (the one-pass payload writer)', () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  const written = (text: string, vtt: boolean): Uint8Array | undefined => {
    const bytes = new Uint8Array(text.length * 3 + 8);
    const end = putPlainCueText(bytes, 4, text, vtt);
    return end < 0 ? undefined : bytes.subarray(4, end);
  };
  // Texts built from what the payload rules care about: edges that trim() removes (and some
  // it keeps), line breaks, NUL, `-->`, markup characters, non-ASCII and surrogates.
  const piece = fc.constantFrom(
    'a',
    'word',
    ' ',
    '\t',
    '\v',
    '\f',
    '\r',
    '\n',
    '\0',
    '\u0085',
    '\u00a0',
    '\u1680',
    '\u2000',
    '\u200a',
    '\u200b',
    '\u2028',
    '\u2029',
    '\u202f',
    '\u205f',
    '\u3000',
    '\ufeff',
    '\u0001',
    '-',
    '>',
    '-->',
    '&',
    '<',
    'é',
    '漢字',
    '\ud83d\ude00',
    '\ud800',
    '\udc00',
  );
  const text = fc.oneof(
    fc.array(piece, { maxLength: 8 }).map((p) => p.join('')),
    fc.string({ unit: 'binary' }),
  );

  it('writes exactly the UTF-8 of srtCueText / vttCueText, or declines (-1)', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (t, vtt) => {
        const bytes = written(t, vtt);
        if (bytes !== undefined) expect(bytes).toEqual(encode(vtt ? vttCueText(t) : srtCueText(t)));
      }),
      { numRuns: 2000 },
    );
  });

  it('takes plain caption text in one pass, non-ASCII included, and declines what needs rules', () => {
    for (const plain of ['so we went there', 'naïve café', '日本語の字幕', '']) {
      expect(written(plain, false)).toEqual(encode(plain));
      expect(written(plain, true)).toEqual(encode(plain));
    }
    expect(written('a > b', false)).toBeUndefined(); // `>` may end a `-->`: the rules decide
    for (const ruled of [' padded', 'padded\u3000', 'two\nlines', 'x --> y', 'nul\0', 'pair \ud83d\ude00']) {
      expect(written(ruled, false)).toBeUndefined();
      expect(written(ruled, true)).toBeUndefined();
    }
    expect(written('<i>a</i>', true)).toBeUndefined();
    expect(written('a & b', true)).toBeUndefined();
    expect(written('a & b', false)).toEqual(encode('a & b'));
  });
});
