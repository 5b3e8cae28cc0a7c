import { describe, expect, it } from 'vitest';
import type { Segment, TranscriptDoc, Word } from '../transcript.ts';
import type { SegmentJson } from './json.ts';
import { MAX_SENTENCE_CHARS, sentencesJson } from './sentences.ts';

function doc(segments: Segment[], trackKind: 'asr' | 'manual' = 'manual'): TranscriptDoc {
  return {
    videoId: 'abcdefghijk',
    language: 'en',
    trackKind,
    segments,
    hasWordLevel: trackKind === 'asr',
    events: [],
  };
}

/** An ASR segment whose words are its space-separated tokens, `step` seconds each. */
function asrSegment(text: string, start: number, step: number, end?: number): Segment {
  const words: Word[] = text.split(' ').map((word, i) => ({
    word,
    start: Math.round((start + i * step) * 1000) / 1000,
    end: Math.round((start + (i + 1) * step) * 1000) / 1000,
  }));
  return { text, start, end: end ?? words[words.length - 1]!.end + 1, words };
}

const brief = (s: SegmentJson): [string, number, number] => [s.text, s.start, s.end];

describe('sentencesJson', () => {
  it('joins a sentence spread over segments and interpolates without words', () => {
    const d = doc([
      { text: 'This is a', start: 0, end: 2 },
      { text: 'long sentence. And', start: 2, end: 4 },
      { text: 'another one.', start: 4, end: 6 },
    ]);
    // "long sentence." is 14 of 18 characters: it ends at 2 + 2 × 14/18 s.
    expect(sentencesJson(d, false).map(brief)).toEqual([
      ['This is a long sentence.', 0, 3.556],
      ['And another one.', 3.556, 6],
    ]);
  });

  it('cuts several sentences out of one segment, timed by words', () => {
    const d = doc([asrSegment('Hi there. How are you? Good', 10, 0.5, 20)], 'asr');
    const sentences = sentencesJson(d, true);
    expect(sentences.map(brief)).toEqual([
      ['Hi there.', 10, 11],
      ['How are you?', 11, 12.5],
      ['Good', 12.5, 13],
    ]);
    expect(sentences[1]!.words).toEqual([
      { word: 'How', start: 11, end: 11.5 },
      { word: 'are', start: 11.5, end: 12 },
      { word: 'you?', start: 12, end: 12.5 },
    ]);
    expect(sentences[1]!.duration).toBe(1.5);
  });

  it('attaches words only when asked, and only real ones', () => {
    const asr = doc([asrSegment('One. Two.', 0, 1)], 'asr');
    expect(sentencesJson(asr, false).every((s) => s.words === undefined)).toBe(true);
    expect(sentencesJson(asr, true).map((s) => s.words?.length)).toEqual([1, 1]);
    const manual = doc([{ text: 'One. Two.', start: 0, end: 2 }]);
    expect(sentencesJson(manual, true).every((s) => s.words === undefined)).toBe(true);
  });

  it('uses words when present and interpolation when absent, on the same text', () => {
    const text = 'Short. A much longer second sentence';
    const withWords = sentencesJson(doc([asrSegment(text, 0, 1, 10)], 'asr'), false);
    const without = sentencesJson(doc([{ text, start: 0, end: 10 }]), false);
    expect(withWords.map(brief)).toEqual([
      ['Short.', 0, 1],
      ['A much longer second sentence', 1, 6],
    ]);
    // "Short." is 6 of 36 characters.
    expect(without.map(brief)).toEqual([
      ['Short.', 0, 1.667],
      ['A much longer second sentence', 1.667, 10],
    ]);
  });

  it('joins CJK segments without spaces and cuts at 。！？', () => {
    const d = doc([
      { text: '今日は晴れです。明日は', start: 0, end: 2.2 },
      { text: '雨です！本当？', start: 2.2, end: 3.6 },
    ]);
    expect(sentencesJson(d, false).map((s) => s.text)).toEqual([
      '今日は晴れです。',
      '明日は雨です！',
      '本当？',
    ]);
  });

  it('without any punctuation, closes sentences at segment boundaries past the length cap', () => {
    const line = 'word '.repeat(20).trim(); // 99 characters
    const segments = Array.from({ length: 10 }, (_, i) => ({ text: line, start: i * 5, end: i * 5 + 5 }));
    const sentences = sentencesJson(doc(segments), false);
    for (const s of sentences.slice(0, -1)) {
      expect(s.text.length).toBeGreaterThanOrEqual(MAX_SENTENCE_CHARS);
      expect(s.text.length).toBeLessThan(MAX_SENTENCE_CHARS + line.length + 1);
    }
    expect(sentences.map((s) => s.text).join(' ')).toBe(segments.map((s) => s.text).join(' '));
    expect(sentences.map(brief).slice(0, 2)).toEqual([
      [`${line} ${line} ${line} ${line}`, 0, 20],
      [`${line} ${line} ${line} ${line}`, 20, 40],
    ]);
  });

  it('a short unpunctuated transcript is one sentence', () => {
    const d = doc([
      { text: 'no punctuation', start: 1, end: 2 },
      { text: 'at all', start: 2, end: 3 },
    ]);
    expect(sentencesJson(d, false).map(brief)).toEqual([['no punctuation at all', 1, 3]]);
  });

  it('skips empty segments, puts multi-line segments on one line, keeps 3.14 and Mr. inside', () => {
    const d = doc([
      { text: '', start: 0, end: 1 },
      { text: 'Mr. Smith said\r\npi is 3.14.', start: 1, end: 3 },
      { text: '   ', start: 3, end: 4 },
    ]);
    expect(sentencesJson(d, false).map(brief)).toEqual([['Mr. Smith said pi is 3.14.', 1, 3]]);
  });

  it('an ASR sentence ends with its last word, not with the overlapping segment end', () => {
    const d = doc([asrSegment('we start here.', 0, 0.4, 5), asrSegment('Then more', 1.2, 0.4, 6)], 'asr');
    expect(sentencesJson(d, false).map(brief)).toEqual([
      ['we start here.', 0, 1.2],
      ['Then more', 1.2, 2],
    ]);
  });
});
