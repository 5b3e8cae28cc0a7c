/**
 * Round trips of our SRT and WebVTT through independent parsers from npm: `subtitle` (SRT and
 * WebVTT) and the W3C `webvtt-parser` (WebVTT, with the full HTML entity table: its default
 * table decodes `&amp;` as `&;`). Cue count, every start/end in ms and the text must survive;
 * text modulo the documented normalisation (`cleanCueText`, `srtCueText`, `vttCueText`).
 */
import fc from 'fast-check';
import { parseSync } from 'subtitle';
import { describe, expect, it } from 'vitest';
// @ts-expect-error webvtt-parser ships no type declarations
import webvtt from 'webvtt-parser';
import entities from 'webvtt-parser/html-entities.json';
import type { Segment } from '../transcript.ts';
import { cleanCueText, srtCueText, vttCueText } from './cue-text.ts';
import { renderSrt, renderVtt } from './subtitles.ts';
import { toMs } from './time.ts';

interface ParsedCue {
  start: number;
  end: number;
  text: string;
}

interface VttNode {
  type: string;
  value?: unknown;
  children?: VttNode[];
}

interface VttResult {
  cues: { startTime: number; endTime: number; text: string; tree: VttNode }[];
  errors: { message: string }[];
}

const WebVTTParser = (
  webvtt as { WebVTTParser: new (entities: unknown) => { parse(input: string): VttResult } }
).WebVTTParser;

function treeText(node: VttNode): string {
  if (node.type === 'text') return String(node.value);
  return (node.children ?? []).map(treeText).join('');
}

/** What both parsers read back as cues (the `subtitle` package). */
function parseWithSubtitle(body: string): ParsedCue[] {
  return parseSync(body).flatMap((node) => (node.type === 'cue' ? [node.data] : []));
}

/** The W3C parser: times in ms, raw cue text and the decoded text of its cue tree. */
function parseWithW3c(body: string): { cues: (ParsedCue & { decoded: string })[]; errors: string[] } {
  const result = new WebVTTParser(entities).parse(body);
  return {
    cues: result.cues.map((cue) => ({
      start: Math.round(cue.startTime * 1000),
      end: Math.round(cue.endTime * 1000),
      text: cue.text,
      decoded: treeText(cue.tree),
    })),
    errors: result.errors.map((e) => e.message),
  };
}

/** Lone surrogates become U+FFFD in the written UTF-8 (String.prototype.toWellFormed). */
const wellFormed = (text: string): string =>
  text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');

/** Our cue model: clamped times, stable start order. */
function expectedCues(segments: readonly Segment[]): { start: number; end: number; segment: Segment }[] {
  return segments
    .map((segment) => {
      const start = toMs(segment.start);
      return { start, end: Math.max(start, toMs(segment.end)), segment };
    })
    .sort((a, b) => a.start - b.start);
}

/** The order webvtt-parser returns cues in: start ascending, then end descending (stable). */
function w3cOrder<T extends { start: number; end: number }>(cues: T[]): T[] {
  return [...cues].sort((a, b) => a.start - b.start || b.end - a.end);
}

function checkRoundTrip(segments: readonly Segment[]): void {
  const expected = expectedCues(segments);
  const srt = renderSrt(segments);
  const vtt = renderVtt(segments);

  const fromSrt = parseWithSubtitle(srt);
  expect(fromSrt.map((c) => [c.start, c.end, c.text])).toEqual(
    expected.map((c) => [c.start, c.end, wellFormed(srtCueText(c.segment.text))]),
  );

  const fromVtt = parseWithSubtitle(vtt);
  expect(fromVtt.map((c) => [c.start, c.end, c.text])).toEqual(
    expected.map((c) => [c.start, c.end, wellFormed(vttCueText(c.segment.text))]),
  );

  const w3c = parseWithW3c(vtt);
  const w3cExpected = w3cOrder(
    expected.map((c) => ({
      start: c.start,
      end: c.end,
      text: wellFormed(vttCueText(c.segment.text)),
      decoded: wellFormed(cleanCueText(c.segment.text)),
    })),
  );
  expect(w3c.cues.map((c) => [c.start, c.end, c.text])).toEqual(
    w3cExpected.map((c) => [c.start, c.end, c.text]),
  );
  // Decoded text is the same multiset (the parser's sort may swap cues with equal times).
  expect(w3c.cues.map((c) => c.decoded).sort()).toEqual(w3cExpected.map((c) => c.decoded).sort());
  // The only conformance complaint allowed: zero-length cues (written as they are).
  const zeroLength = expected.filter((c) => c.end === c.start).length;
  expect(w3c.errors.filter((m) => m !== 'End timestamp is not greater than start timestamp.')).toEqual([]);
  expect(w3c.errors).toHaveLength(zeroLength);
}

const seg = (start: number, end: number, text: string): Segment => ({ text, start, end });

describe('SRT and WebVTT round trips through subtitle and webvtt-parser', () => {
  it.each<[string, Segment[]]>([
    ['overlapping cues', [seg(0, 3, 'one'), seg(1, 4, 'two'), seg(2, 2.5, 'three'), seg(2, 6, 'four')]],
    ['zero-length cues', [seg(1, 1, 'instant'), seg(1, 2, 'next'), seg(3, 2, 'end before start')]],
    ['times past 10 hours', [seg(35999.999, 36000.001, 'ten'), seg(36000.5, 40000.25, 'eleven')]],
    [
      'times past 100 hours',
      [seg(359999.5, 360000, 'ninety-nine'), seg(360000.001, 3600000.999, 'thousand')],
    ],
    ['empty text', [seg(0, 1, ''), seg(1, 2, '   '), seg(2, 3, '\n\r\n'), seg(3, 4, 'after')]],
    [
      '"-->" inside text',
      [seg(0, 1, 'a --> b'), seg(1, 2, '--->'), seg(2, 3, '00:00:01,000 --> 00:00:02,000')],
    ],
    [
      'CJK',
      [seg(0, 1, '日本語のテキスト。次の文！'), seg(1, 2, '中文字幕，测试？'), seg(2, 3, '한국어 자막')],
    ],
    [
      'right-to-left scripts',
      [seg(0, 1, 'مرحبا بالعالم'), seg(1, 2, 'שלום עולם'), seg(2, 3, 'mixed עברית and English')],
    ],
    ['emoji and ZWJ sequences', [seg(0, 1, '👩‍👩‍👧‍👦 family'), seg(1, 2, '🏳️‍🌈 flag 👍🏽'), seg(2, 3, '🇯🇵')]],
    ['CRLF and CR in text', [seg(0, 1, 'line one\r\nline two'), seg(1, 2, 'cr\ronly'), seg(2, 3, 'end\r\n')]],
    ['blank lines inside text', [seg(0, 1, 'para one\n\n\npara two'), seg(1, 2, 'a\r\n\r\nb')]],
    ['digit-only lines (look like SRT indexes)', [seg(0, 1, '42'), seg(1, 2, '1\n2'), seg(2, 3, '3')]],
    [
      'markup characters',
      [seg(0, 1, '<b>bold</b> & Tom &amp; Jerry'), seg(1, 2, 'a < b > c'), seg(2, 3, '&lt;')],
    ],
    ['NUL and lone surrogates', [seg(0, 1, 'nul\0byte'), seg(1, 2, 'lone \ud83d here'), seg(2, 3, '\udc00')]],
    ['unsorted input', [seg(9, 10, 'nine'), seg(1, 2, 'one'), seg(5, 6, 'five')]],
  ])('%s', (_name, segments) => {
    checkRoundTrip(segments);
  });

  const hazard = fc.constantFrom(
    '-->',
    '--->',
    '\r\n',
    '\r',
    '\n',
    '\n\n',
    ' ',
    '\t',
    '&',
    '<',
    '>',
    '&amp;',
    '42',
    '00:00:01,000 --> 00:00:02,000',
    '日本語',
    'مرحبا',
    'שלום',
    '👩‍👩‍👧‍👦',
    '\u00a0',
    '\ufeff',
    '\0',
  );
  const text = fc
    .array(
      fc.oneof(
        hazard,
        fc.string({ unit: 'grapheme', maxLength: 8 }),
        fc.string({ unit: 'binary', maxLength: 8 }),
        fc.string({ unit: 'grapheme-ascii', maxLength: 8 }),
      ),
      { maxLength: 6 },
    )
    .map((parts) => parts.join(''));
  const time = fc.oneof(
    fc.double({ min: 0, max: 400_000, noNaN: true }),
    fc.integer({ min: 0, max: 400_000_000 }).map((ms) => ms / 1000),
    fc.constantFrom(0, -1, Number.NaN, 35999.9995, 360000),
  );
  const segment = fc.record({ text, start: time, end: time });

  it('property: random cue lists round-trip timings and text through both parsers', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 12 }), (segments) => {
        checkRoundTrip(segments);
      }),
      { numRuns: 300 },
    );
  });
});
