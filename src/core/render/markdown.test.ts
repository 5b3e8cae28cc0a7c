import { describe, expect, it } from 'vitest';
import type { Segment, TranscriptDoc } from '../transcript.ts';
import {
  escapeMarkdown,
  PARAGRAPH_HARD_CHARS,
  PARAGRAPH_PAUSE_MS,
  PARAGRAPH_SOFT_CHARS,
  renderMarkdown,
  writeMarkdown,
} from './markdown.ts';

const base: TranscriptDoc = {
  videoId: 'dQw4w9WgXcQ',
  language: 'en',
  trackKind: 'manual',
  segments: [],
  hasWordLevel: false,
  events: [],
};

const seg = (start: number, end: number, text: string): Segment => ({ text, start, end });

/** The blocks after the title and metadata lines. */
const body = (doc: TranscriptDoc): string[] => renderMarkdown(doc).trimEnd().split('\n\n').slice(2);

describe('renderMarkdown', () => {
  it.each<[string, Partial<TranscriptDoc>, string]>([
    [
      'full metadata',
      {
        title: 'Never Gonna Give You Up',
        author: 'Rick Astley',
        durationSeconds: 213.9,
        trackKind: 'manual',
      },
      '# Never Gonna Give You Up\n\nChannel: Rick Astley · Language: en · Track: manual · Duration: 3:33 · ' +
        '<https://www.youtube.com/watch?v=dQw4w9WgXcQ>\n',
    ],
    [
      'no title: the video id; ASR; long duration',
      { trackKind: 'asr', durationSeconds: 3 * 3600 + 62, language: 'pt-BR' },
      '# dQw4w9WgXcQ\n\nLanguage: pt-BR · Track: auto-generated · Duration: 3:01:02 · ' +
        '<https://www.youtube.com/watch?v=dQw4w9WgXcQ>\n',
    ],
    [
      'escaped title, blank author left out',
      { title: '# *Best* `code` <ever>\nnew line', author: '' },
      '# \\# \\*Best\\* \\`code\\` \\<ever> new line\n\nLanguage: en · Track: manual · ' +
        '<https://www.youtube.com/watch?v=dQw4w9WgXcQ>\n',
    ],
  ])('%s', (_name, fields, expected) => {
    expect(renderMarkdown({ ...base, ...fields })).toBe(expected);
  });

  it('flows segments into one paragraph', () => {
    const doc = {
      ...base,
      segments: [seg(0, 2, 'Hello and'), seg(2, 4, 'welcome.\nToday'), seg(4, 5, 'we cook.')],
    };
    expect(body(doc)).toEqual(['Hello and welcome. Today we cook.']);
  });

  it('places chapter headings before the first paragraph at or after each chapter start', () => {
    const doc: TranscriptDoc = {
      ...base,
      chapters: [
        { title: 'Cooking', startSeconds: 10 },
        { title: 'Intro', startSeconds: 0 },
        { title: 'Eating', startSeconds: 3700 },
        { title: 'Bonus', startSeconds: 9000 },
      ],
      segments: [
        seg(0.5, 2, 'Hi.'),
        seg(2, 9, 'Let us start'),
        seg(9.5, 12, 'the oven.'),
        seg(12, 14, 'Now bake.'),
        seg(3700, 3702, 'Yum.'),
      ],
    };
    expect(body(doc)).toEqual([
      '## 0:00 Intro',
      'Hi. Let us start the oven.',
      '## 0:10 Cooking',
      'Now bake.',
      '## 1:01:40 Eating',
      'Yum.',
      '## 2:30:00 Bonus',
    ]);
  });

  it('breaks paragraphs at a sentence end past the soft length', () => {
    const sentence = 'This is a sentence of moderate length for testing.'; // 50 chars
    const segments = Array.from({ length: 24 }, (_, i) => seg(i * 3, i * 3 + 3, sentence));
    const paragraphs = body({ ...base, segments });
    expect(paragraphs.length).toBeGreaterThan(1);
    for (const p of paragraphs) {
      expect(p.endsWith('.')).toBe(true);
      expect(p.length).toBeLessThan(PARAGRAPH_SOFT_CHARS + sentence.length + 1);
    }
    expect(paragraphs[0]!.length).toBeGreaterThanOrEqual(PARAGRAPH_SOFT_CHARS);
  });

  it('breaks unpunctuated text at the hard length', () => {
    const line = 'words without any punctuation at all in this line'; // 49 chars
    const segments = Array.from({ length: 60 }, (_, i) => seg(i * 2, i * 2 + 2.5, line));
    const paragraphs = body({ ...base, segments });
    expect(paragraphs.length).toBeGreaterThan(2);
    for (const p of paragraphs.slice(0, -1)) {
      expect(p.length).toBeGreaterThanOrEqual(PARAGRAPH_HARD_CHARS);
      expect(p.length).toBeLessThan(PARAGRAPH_HARD_CHARS + line.length + 1);
    }
  });

  it('breaks at long pauses, measured from the last word on ASR tracks', () => {
    const pause = PARAGRAPH_PAUSE_MS / 1000;
    const manual = { ...base, segments: [seg(0, 1, 'one'), seg(1 + pause, 5, 'two'), seg(5.5, 6, 'three')] };
    expect(body(manual)).toEqual(['one', 'two three']);
    // ASR: the first segment "ends" at 9 s (overlap) but its last word ends at 1 s.
    const asr: TranscriptDoc = {
      ...base,
      trackKind: 'asr',
      hasWordLevel: true,
      segments: [
        { text: 'one', start: 0, end: 9, words: [{ word: 'one', start: 0, end: 1 }] },
        { text: 'two', start: 1 + pause, end: 9, words: [{ word: 'two', start: 1 + pause, end: 5 }] },
      ],
    };
    expect(body(asr)).toEqual(['one', 'two']);
  });

  it('joins CJK segments without spaces', () => {
    expect(
      body({ ...base, segments: [seg(0, 1, '今日は'), seg(1, 2, '晴れです。'), seg(2, 3, 'OK')] }),
    ).toEqual(['今日は晴れです。 OK']);
  });

  it('escapes block markers at the start of a paragraph and inline specials', () => {
    const doc = { ...base, segments: [seg(0, 1, '# 1. *not* a <heading>')] };
    expect(body(doc)).toEqual(['\\# 1. \\*not\\* a \\<heading>']);
  });
});

describe('escapeMarkdown', () => {
  it.each([
    ['plain [Music] text_with_underscores', 'plain [Music] text_with_underscores'],
    ['a * b ` c \\ d < e', 'a \\* b \\` c \\\\ d \\< e'],
    ['# not a heading', '\\# not a heading'],
    ['> not a quote', '\\> not a quote'],
    ['- not a list', '\\- not a list'],
    ['+ not a list', '\\+ not a list'],
    ['1. not a list', '1\\. not a list'],
    ['2024) not a list', '2024\\) not a list'],
    ['=== not a heading underline', '\\=== not a heading underline'],
    ['in 2024. fine', 'in 2024. fine'],
  ])('%j → %j', (input, expected) => {
    expect(escapeMarkdown(input)).toBe(expected);
  });
});

describe('writeMarkdown', () => {
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
  const sameAsString = (doc: TranscriptDoc): void => {
    expect(writeMarkdown(doc).doneBytes()).toEqual(encode(renderMarkdown(doc)));
  };

  it('writes the string body as UTF-8: metadata, chapters (also past the end), paragraphs', () => {
    sameAsString({
      ...base,
      title: '# Title *with* <marks>',
      author: 'Chef `Ann`',
      durationSeconds: 3725,
      chapters: [
        { title: 'Intro\nline', startSeconds: 0 },
        { title: '- Main', startSeconds: 9 },
        { title: 'After the end', startSeconds: 9000 },
      ],
      segments: [
        seg(0, 2, 'Hello, naïve 😀 world.'),
        seg(2, 4, '日本語'),
        seg(4, 5, 'です。'),
        seg(9, 10, '1. *not* a list'),
        seg(20, 21, 'after a pause'),
        ...Array.from({ length: 80 }, (_, i) => seg(21 + i * 0.1, 21.1 + i * 0.1, `word number ${i}.`)),
      ],
    });
  });

  it('turns lone surrogates into U+FFFD and never pairs them across pieces', () => {
    sameAsString({
      ...base,
      title: 'lone \ud83d',
      author: '\ude00 author',
      chapters: [{ title: '\udc00', startSeconds: 1 }],
      segments: [
        seg(0, 1, 'end\ud83d'),
        seg(1, 2, '\ude00start'),
        seg(2, 3, 'x\ud800'),
        seg(3, 4, '\udfffy'),
      ],
    });
  });

  it('writes an empty document like the string', () => {
    sameAsString(base);
  });
});
