import { describe, expect, it } from 'vitest';
import { makeAsrTranscriptOfHours } from '../../bench/transcript-fixture.ts';
import { renderTranscript } from './render/index.ts';
import { documentSpeechTimesMs, speechTimesMs } from './speech-times.ts';
import { parseJson3 } from './timedtext.ts';
import type { Segment, TranscriptDoc } from './transcript.ts';

const segments: Segment[] = [
  {
    text: 'hello there',
    start: 1,
    end: 4.5,
    words: [
      { word: 'hello', start: 1.2, end: 1.8 },
      { word: 'there', start: 1.8, end: 2.6 },
    ],
  },
  { text: '[Music]', start: 3, end: 6.25, words: [] },
  { text: 'no words', start: 7.0004, end: 8 },
];

function doc(speechMs?: number[]): TranscriptDoc {
  return {
    videoId: 'abcdefghijk',
    language: 'en',
    trackKind: 'asr',
    segments,
    hasWordLevel: true,
    events: [],
    ...(speechMs === undefined ? {} : { speechMs }),
  };
}

describe('speechTimesMs', () => {
  it('takes the first word start and last word end, else the segment times, in whole ms', () => {
    expect(speechTimesMs(segments, true)).toEqual([1200, 2600, 3000, 6250, 7000, 8000]);
  });

  it('takes the segment times when words are not to be used', () => {
    expect(speechTimesMs(segments, false)).toEqual([1000, 4500, 3000, 6250, 7000, 8000]);
  });
});

describe('documentSpeechTimesMs', () => {
  it('reads the stored times when they match the segments', () => {
    const stored = [1, 2, 3, 4, 5, 6];
    expect(documentSpeechTimesMs(doc(stored), true)).toBe(stored);
  });

  it('computes them when none are stored, or when they do not fit the segments', () => {
    expect(documentSpeechTimesMs(doc(), true)).toEqual([1200, 2600, 3000, 6250, 7000, 8000]);
    expect(documentSpeechTimesMs(doc([1, 2]), true)).toEqual([1200, 2600, 3000, 6250, 7000, 8000]);
  });

  it('never reads stored word times when words are not to be used', () => {
    expect(documentSpeechTimesMs(doc([1, 2, 3, 4, 5, 6]), false)).toEqual([
      1000, 4500, 3000, 6250, 7000, 8000,
    ]);
  });
});

describe('the parser stores the speech times with its words', () => {
  // An hour of generated ASR captions, as YouTube sends them, through the parser.
  const events = makeAsrTranscriptOfHours(1).events;
  const parsed = parseJson3(JSON.parse(JSON.stringify({ events })), 'asr');
  const parsedDoc: TranscriptDoc = {
    videoId: 'abcdefghijk',
    language: 'en',
    trackKind: 'asr',
    title: 'One hour',
    chapters: [
      { title: 'Start', startSeconds: 0 },
      { title: 'Middle', startSeconds: 1800 },
    ],
    ...parsed,
  };

  it('stores exactly what would be computed from the segments', () => {
    expect(parsed.hasWordLevel).toBe(true);
    expect(parsed.speechMs).toEqual(speechTimesMs(parsed.segments, true));
  });

  it('renders the same Markdown as a document cached without them (an older cache entry)', () => {
    const { speechMs: _, ...older } = parsedDoc;
    const body = renderTranscript(parsedDoc, 'markdown', { wordLevel: false }).body;
    expect(body).toBe(renderTranscript(older, 'markdown', { wordLevel: false }).body);
    expect(body.split('\n\n').length).toBeGreaterThan(50);
  });

  it('stores none for captions without word timings', () => {
    const manual = parseJson3(
      { events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'Hi' }] }] },
      'manual',
    );
    expect(manual.speechMs).toBeUndefined();
  });
});
