import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json3Event } from '../../ports/upstream.ts';
import type { Segment, TranscriptDoc } from '../transcript.ts';
import {
  isJsonFormat,
  renderTranscript,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
  transcriptObject,
} from './index.ts';

const EVENTS: Json3Event[] = [
  { tStartMs: 0, dDurationMs: 5000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
  {
    tStartMs: 100,
    dDurationMs: 2900,
    wWinId: 1,
    segs: [
      { utf8: 'hello', acAsrConf: 0 },
      { utf8: ' world', tOffsetMs: 500 },
    ],
  },
];

const asr: TranscriptDoc = {
  videoId: 'abcdefghijk',
  language: 'en',
  trackKind: 'asr',
  durationSeconds: 5,
  hasWordLevel: true,
  segments: [
    {
      text: 'hello world',
      start: 0.1,
      end: 3,
      words: [
        { word: 'hello', start: 0.1, end: 0.6 },
        { word: 'world', start: 0.6, end: 1.3 },
      ],
    },
    { text: 'again', start: 1.3, end: 2.0000000001, words: [{ word: 'again', start: 1.3, end: 2 }] },
  ],
  events: EVENTS,
};

const manual: TranscriptDoc = {
  videoId: 'abcdefghijk',
  language: 'de',
  trackKind: 'manual',
  hasWordLevel: false,
  segments: [
    { text: 'Hallo\nWelt', start: 0.3, end: 1.7 },
    { text: 'Tschüss', start: 1.7, end: 2.2 },
  ],
  events: [],
};

const ENVELOPE_ASR = {
  video_id: 'abcdefghijk',
  language: 'en',
  track_kind: 'asr',
  duration_seconds: 5,
  has_word_level: true,
};
const ASR_SEGMENTS = [
  { text: 'hello world', start: 0.1, end: 3, duration: 2.9 },
  { text: 'again', start: 1.3, end: 2, duration: 0.7 },
];
const ASR_WORDS = [
  [
    { word: 'hello', start: 0.1, end: 0.6 },
    { word: 'world', start: 0.6, end: 1.3 },
  ],
  [{ word: 'again', start: 1.3, end: 2 }],
];
const withWords = ASR_SEGMENTS.map((s, i) => ({ ...s, words: ASR_WORDS[i] }));

describe('JSON formats', () => {
  it.each<[string, TranscriptDoc, TranscriptFormat, boolean, unknown]>([
    ['segments, ASR, no words', asr, 'segments', false, { ...ENVELOPE_ASR, segments: ASR_SEGMENTS }],
    ['segments, ASR, word_level', asr, 'segments', true, { ...ENVELOPE_ASR, segments: withWords }],
    [
      'word_timestamps, ASR (words always)',
      asr,
      'word_timestamps',
      false,
      { ...ENVELOPE_ASR, segments: withWords },
    ],
    [
      'segments, manual, word_level: never fabricated',
      manual,
      'segments',
      true,
      {
        video_id: 'abcdefghijk',
        language: 'de',
        track_kind: 'manual',
        has_word_level: false,
        segments: [
          { text: 'Hallo\nWelt', start: 0.3, end: 1.7, duration: 1.4 },
          { text: 'Tschüss', start: 1.7, end: 2.2, duration: 0.5 },
        ],
      },
    ],
    [
      'word_timestamps, manual: no words either',
      manual,
      'word_timestamps',
      true,
      {
        video_id: 'abcdefghijk',
        language: 'de',
        track_kind: 'manual',
        has_word_level: false,
        segments: [
          { text: 'Hallo\nWelt', start: 0.3, end: 1.7, duration: 1.4 },
          { text: 'Tschüss', start: 1.7, end: 2.2, duration: 0.5 },
        ],
      },
    ],
    [
      'json3: envelope, segments and events',
      asr,
      'json3',
      false,
      { ...ENVELOPE_ASR, segments: ASR_SEGMENTS, events: EVENTS },
    ],
    ['json3 with word_level', asr, 'json3', true, { ...ENVELOPE_ASR, segments: withWords, events: EVENTS }],
    [
      'sentences, ASR, no words (no punctuation: one sentence)',
      asr,
      'sentences',
      false,
      { ...ENVELOPE_ASR, segments: [{ text: 'hello world again', start: 0.1, end: 2, duration: 1.9 }] },
    ],
  ])('%s', (_name, doc, format, wordLevel, expected) => {
    const rendered = renderTranscript(doc, format, { wordLevel });
    expect(rendered.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(rendered.body)).toEqual(expected);
    if (isJsonFormat(format)) expect(transcriptObject(doc, format, { wordLevel })).toEqual(expected);
  });

  it('has_word_level is false for an ASR track without word timings', () => {
    const doc: TranscriptDoc = { ...asr, hasWordLevel: false };
    const body = JSON.parse(renderTranscript(doc, 'word_timestamps', { wordLevel: true }).body);
    expect(body.has_word_level).toBe(false);
    expect(body.segments[0].words).toBeUndefined();
  });

  it('a segment of a word-level track without words gets an empty list', () => {
    const doc: TranscriptDoc = { ...asr, segments: [{ text: '[Music]', start: 0, end: 1 }] };
    expect(transcriptObject(doc, 'word_timestamps', { wordLevel: false }).segments).toEqual([
      { text: '[Music]', start: 0, end: 1, duration: 1, words: [] },
    ]);
  });
});

describe('renderTranscript', () => {
  it.each<[TranscriptFormat, string]>([
    ['segments', 'application/json; charset=utf-8'],
    ['word_timestamps', 'application/json; charset=utf-8'],
    ['sentences', 'application/json; charset=utf-8'],
    ['json3', 'application/json; charset=utf-8'],
    ['markdown', 'text/markdown; charset=utf-8'],
    ['text', 'text/plain; charset=utf-8'],
    ['srt', 'text/plain; charset=utf-8'],
    ['vtt', 'text/vtt; charset=utf-8'],
  ])('%s is served as %s', (format, contentType) => {
    expect(renderTranscript(manual, format, { wordLevel: false }).contentType).toBe(contentType);
  });

  it('lists every format once, segments first', () => {
    expect(TRANSCRIPT_FORMATS[0]).toBe('segments');
    expect(new Set(TRANSCRIPT_FORMATS).size).toBe(8);
    expect(TRANSCRIPT_FORMATS.filter(isJsonFormat)).toEqual([
      'segments',
      'word_timestamps',
      'sentences',
      'json3',
    ]);
  });

  it.each<[TranscriptFormat, string]>([
    ['text', 'Hallo Welt\nTschüss\n'],
    ['srt', '1\n00:00:00,300 --> 00:00:01,700\nHallo\nWelt\n\n2\n00:00:01,700 --> 00:00:02,200\nTschüss\n'],
    [
      'vtt',
      'WEBVTT\n\n00:00:00.300 --> 00:00:01.700\nHallo\nWelt\n\n00:00:01.700 --> 00:00:02.200\nTschüss\n',
    ],
    [
      'markdown',
      '# abcdefghijk\n\nLanguage: de · Track: manual · <https://www.youtube.com/watch?v=abcdefghijk>\n\nHallo Welt Tschüss\n',
    ],
  ])('%s body of a manual track', (format, body) => {
    expect(renderTranscript(manual, format, { wordLevel: true }).body).toBe(body);
  });
});

describe('text formats of an ASR track with chapters', () => {
  const doc: TranscriptDoc = {
    ...asr,
    title: 'Demo',
    author: 'Chan',
    chapters: [
      { title: 'Start', startSeconds: 0 },
      { title: 'Again', startSeconds: 1.3 },
    ],
  };
  it.each<[TranscriptFormat, string]>([
    [
      'markdown',
      '# Demo\n\nChannel: Chan · Language: en · Track: auto-generated · Duration: 0:05 · ' +
        '<https://www.youtube.com/watch?v=abcdefghijk>\n\n## 0:00 Start\n\nhello world\n\n## 0:01 Again\n\nagain\n',
    ],
    ['text', 'hello world\nagain\n'],
    ['srt', '1\n00:00:00,100 --> 00:00:03,000\nhello world\n\n2\n00:00:01,300 --> 00:00:02,000\nagain\n'],
    ['vtt', 'WEBVTT\n\n00:00:00.100 --> 00:00:03.000\nhello world\n\n00:00:01.300 --> 00:00:02.000\nagain\n'],
  ])('%s (word_level changes nothing)', (format, expected) => {
    expect(renderTranscript(doc, format, { wordLevel: false }).body).toBe(expected);
    expect(renderTranscript(doc, format, { wordLevel: true }).body).toBe(expected);
  });
});

describe('the JSON writer equals JSON.stringify(transcriptObject(…))', () => {
  const time = fc.oneof(
    fc.integer({ min: 0, max: 20_000_000 }).map((ms) => ms / 1000),
    fc.double({ min: -5, max: 1e7 }),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, -0, 0.1 + 0.2, 1, 1.5, 1.5), // repeats: chained words
  );
  const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
  const word = fc.record({ word: text, start: time, end: time });
  const segment: fc.Arbitrary<Segment> = fc.record(
    { text, start: time, end: time, words: fc.array(word, { maxLength: 4 }) },
    { requiredKeys: ['text', 'start', 'end'] },
  );
  const event: fc.Arbitrary<Json3Event> = fc.record(
    {
      tStartMs: fc.oneof(fc.nat(), fc.double()),
      dDurationMs: fc.nat(),
      id: fc.nat(),
      wWinId: fc.nat(),
      wpWinPosId: fc.nat(),
      wsWinStyleId: fc.nat(),
      aAppend: fc.constant(1),
      segs: fc.array(
        fc.record(
          {
            utf8: text,
            tOffsetMs: fc.oneof(fc.nat(), fc.double()),
            acAsrConf: fc.integer({ min: 0, max: 255 }),
          },
          { requiredKeys: ['utf8'] },
        ),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: ['tStartMs'] },
  );
  const doc: fc.Arbitrary<TranscriptDoc> = fc.record(
    {
      videoId: text,
      language: text,
      trackKind: fc.constantFrom('asr' as const, 'manual' as const),
      durationSeconds: time,
      segments: fc.array(segment, { maxLength: 6 }),
      hasWordLevel: fc.boolean(),
      events: fc.array(event, { maxLength: 4 }),
    },
    { requiredKeys: ['videoId', 'language', 'trackKind', 'segments', 'hasWordLevel', 'events'] },
  );
  const format = fc.constantFrom(
    'segments' as const,
    'word_timestamps' as const,
    'sentences' as const,
    'json3' as const,
  );

  it('grows its buffer past the estimate in the middle of words and json3 segs', () => {
    // 3 bytes per code unit against an estimate of about one: the buffer grows many times,
    // mid-array, in both hot loops; times chain (the copied digits of the previous end).
    const wide = (k: number): string => `\u20ac${'\u00e9\u4e2d'.repeat(20 + (k % 7))}`;
    const segments: Segment[] = [];
    const events: Json3Event[] = [];
    for (let s = 0; s < 40; s++) {
      const words = Array.from({ length: 50 }, (_, w) => ({
        word: wide(w),
        start: 1000 + s * 10 + w * 0.2,
        end: 1000 + s * 10 + (w + 1) * 0.2,
      }));
      segments.push({ text: wide(s), start: 1000 + s * 10, end: 1010 + s * 10, words });
      events.push({
        tStartMs: 1_000_000 + s * 10_000,
        dDurationMs: 10_000,
        segs: words.map((w, k) => ({ utf8: w.word, tOffsetMs: k * 200, acAsrConf: k % 2 === 0 ? 0 : 255 })),
      });
    }
    const d: TranscriptDoc = {
      videoId: 'dQw4w9WgXcQ',
      language: 'en',
      trackKind: 'asr',
      segments,
      hasWordLevel: true,
      events,
    };
    for (const f of ['segments', 'json3'] as const) {
      const body = renderTranscript(d, f, { wordLevel: true }).body;
      expect(body).toBe(JSON.stringify(transcriptObject(d, f, { wordLevel: true })));
    }
  });

  it('property', () => {
    fc.assert(
      fc.property(doc, format, fc.boolean(), (d, f, wordLevel) => {
        const body = renderTranscript(d, f, { wordLevel }).body;
        expect(body).toBe(JSON.stringify(transcriptObject(d, f, { wordLevel })));
      }),
      { numRuns: 500 },
    );
  });
});
