import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intBetween, mulberry32 } from '../../../bench/prng.ts';
import { makeAsrTranscriptOfHours } from '../../../bench/transcript-fixture.ts';
import type { Segment, TranscriptDoc, Word } from '../transcript.ts';
import {
  renderTranscript,
  renderTranscriptBytes,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from './index.ts';

/**
 * Golden bodies of long generated transcripts: every format (word-level and not) is compared,
 * as a SHA-256 digest, with what the renderers wrote before they were reworked for speed (the
 * digests below were taken from that code), so a faster writer must stay byte for byte the same.
 */

/** Tokens that exercise the escaping, sentence, paragraph and CJK rules. */
const TRICKY = [
  'Mr.',
  'e.g.',
  '3.14',
  'youtube.com',
  'done.',
  'why?!',
  'wow!',
  'etc.',
  '日本語です。',
  '中文',
  'naïve',
  '*bold*',
  '<i>x</i>',
  '#tag',
  '12.',
  '-->',
  'a&b',
  'back\\slash',
  '`code`',
  '"quoted."',
  '(aside.)',
  '😀',
  '…',
  'Ünïcödé',
  'x\u00a0y',
  'lone\ud83d',
  'tab\there',
];
const CJK = ['日本語', 'です', '。', '中文', '字幕', 'テスト', '！', '漢字', '、'];

/** The bench's ASR fixture, with tricky words, line breaks, pauses and out-of-order starts. */
function trickyDoc(seed: number, hours: number, cjk: boolean): TranscriptDoc {
  const base = makeAsrTranscriptOfHours(hours, seed);
  const random = mulberry32(seed * 7 + 1);
  let shift = 0;
  const segments = base.segments.map((s): Segment => {
    if (random() < 0.02) shift += intBetween(random, 3, 9); // a pause of a few seconds
    const words = (s.words ?? []).map(
      (w): Word => ({
        word: cjk
          ? CJK[intBetween(random, 0, CJK.length - 1)]!
          : random() < 0.15
            ? TRICKY[intBetween(random, 0, TRICKY.length - 1)]!
            : w.word,
        start: w.start + shift,
        end: w.end + shift,
      }),
    );
    const glue = (): string => (cjk ? '' : random() < 0.05 ? (random() < 0.5 ? '\n' : ' \r\n ') : ' ');
    let text = words.length === 0 ? s.text : words.map((w) => w.word).reduce((a, b) => a + glue() + b);
    if (random() < 0.03) text = `  ${text}\n`;
    if (random() < 0.01) text = '';
    const start = random() < 0.01 ? s.start + shift - 5 : s.start + shift; // out of order now and then
    return { text, start, end: s.end + shift, words };
  });
  return { ...base, segments, durationSeconds: (base.durationSeconds ?? 0) + shift };
}

const DOCS: Record<string, TranscriptDoc> = {
  asr: trickyDoc(11, 0.5, false),
  cjk: trickyDoc(12, 0.25, true),
  manual: { ...trickyDoc(13, 0.25, false), trackKind: 'manual', hasWordLevel: false },
};

/** SHA-256 (hex) of a string's UTF-16 code units: lone surrogates count. */
async function digest(text: string): Promise<string> {
  const units = new Uint16Array(text.length);
  for (let i = 0; i < text.length; i++) units[i] = text.charCodeAt(i);
  const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', units));
  return Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('');
}

const EXPECTED: Record<string, string> = {
  'asr segments false': '5147571da7f7cf07be4e285bcb75c47fd2c1c97fd7371f7c6a1bc8c8bc957495',
  'asr segments true': '2ce4a9be92e1e0df307ab50e1ed870e01f7086ba13ebeb4351757e41df418431',
  'asr word_timestamps false': '2ce4a9be92e1e0df307ab50e1ed870e01f7086ba13ebeb4351757e41df418431',
  'asr word_timestamps true': '2ce4a9be92e1e0df307ab50e1ed870e01f7086ba13ebeb4351757e41df418431',
  'asr sentences false': '0f02a5288a877c783813dce5c71abd8add2740edf26df026cad1294f8bd5bac2',
  'asr sentences true': 'cc798df7bace27a53bf60cf8437dc0657bb062a3d73ba7346febc4a3f78e5205',
  'asr markdown false': 'cc344484d77b1043c0762038af19abcb64c12ade840bc096a9b74871e50256e1',
  'asr markdown true': 'cc344484d77b1043c0762038af19abcb64c12ade840bc096a9b74871e50256e1',
  'asr text false': 'e9ad7109fa258b019eb063d244b58a5c811a3c0997d68430621ac40dc40146d7',
  'asr text true': 'e9ad7109fa258b019eb063d244b58a5c811a3c0997d68430621ac40dc40146d7',
  'asr srt false': 'b36d8a17a4be5a1c7165d2db1d3eccc600acf9ce7fad0f2b83d95097671f19f6',
  'asr srt true': 'b36d8a17a4be5a1c7165d2db1d3eccc600acf9ce7fad0f2b83d95097671f19f6',
  'asr vtt false': '8e273154069ef214c033c331644e2fc8d1eccdf34c9a7a8ad48ee1365008bb07',
  'asr vtt true': '8e273154069ef214c033c331644e2fc8d1eccdf34c9a7a8ad48ee1365008bb07',
  'asr json3 false': '2465299f26ceae1a95bdc88ac2f5ad098b391fcc5160f6d43de8c52a425c4da9',
  'asr json3 true': 'e3bedfb2b75364ebed8cb84dc553544e2162ab2b3b8901ffd890b851ccb2af39',
  'cjk segments false': '5c697f92d99524f681573e6736d55ececbcf61aa3e40ad8187098204aba1e8e1',
  'cjk segments true': 'a3f073b62c42bfdd6cae83f1134e381f41966fdb8c941d46534a079305e4c217',
  'cjk word_timestamps false': 'a3f073b62c42bfdd6cae83f1134e381f41966fdb8c941d46534a079305e4c217',
  'cjk word_timestamps true': 'a3f073b62c42bfdd6cae83f1134e381f41966fdb8c941d46534a079305e4c217',
  'cjk sentences false': 'b47ad2e53fbf4a1d1604f874d622418d9aea43f97d1b2aa48d1da9b06ca83733',
  'cjk sentences true': '5814dffba1572eab65524fa9ddf883a831bc40418b2b7858f596908b6d740b38',
  'cjk markdown false': 'ad4e1bc0c79b40b5377eda269d029489c388d4740d7b318c5d31188a2dada3d4',
  'cjk markdown true': 'ad4e1bc0c79b40b5377eda269d029489c388d4740d7b318c5d31188a2dada3d4',
  'cjk text false': '3309064659f2e817dc45c96905385287f677b93126d7576a770358b24290ebe6',
  'cjk text true': '3309064659f2e817dc45c96905385287f677b93126d7576a770358b24290ebe6',
  'cjk srt false': 'bbed37bd05c289195bce4863f0eb9c73b68838a1b44d81c4489489b72bf4d75e',
  'cjk srt true': 'bbed37bd05c289195bce4863f0eb9c73b68838a1b44d81c4489489b72bf4d75e',
  'cjk vtt false': 'af2be2c63b5b65487ec64009c204a6d67e2f6179199c919f67181221c62e5620',
  'cjk vtt true': 'af2be2c63b5b65487ec64009c204a6d67e2f6179199c919f67181221c62e5620',
  'cjk json3 false': '7e95b2d9f2bf657c6695dd3ca84bd141eed80d161a2f6a093ab98bac69a8bc21',
  'cjk json3 true': '3461c91376555f3db2d6449802efd86a8d6a9a67af1b91dd17c0db480e85d951',
  'manual segments false': '208beca59a1debac8652212f67027613368cadc5fecbc7e7033d96764ac82b27',
  'manual segments true': '208beca59a1debac8652212f67027613368cadc5fecbc7e7033d96764ac82b27',
  'manual word_timestamps false': '208beca59a1debac8652212f67027613368cadc5fecbc7e7033d96764ac82b27',
  'manual word_timestamps true': '208beca59a1debac8652212f67027613368cadc5fecbc7e7033d96764ac82b27',
  'manual sentences false': 'b812ad97b2424ddbaa38226f679198a8352dbfa8f9b7ad6fb1bceb16e9e94275',
  'manual sentences true': 'b812ad97b2424ddbaa38226f679198a8352dbfa8f9b7ad6fb1bceb16e9e94275',
  'manual markdown false': '11da47e78c88fdad7af3199e76276344b3ff5ec553a78d303c275501f1d3a37f',
  'manual markdown true': '11da47e78c88fdad7af3199e76276344b3ff5ec553a78d303c275501f1d3a37f',
  'manual text false': '906d38f0a5743a17a718752e2d78e65f26edbe8fae3409d08b8c4c6972afdb58',
  'manual text true': '906d38f0a5743a17a718752e2d78e65f26edbe8fae3409d08b8c4c6972afdb58',
  'manual srt false': 'e2dc1851a06c8aa380111fcd36d20e147b42b16150b74692c139dd0ba3cef2a0',
  'manual srt true': 'e2dc1851a06c8aa380111fcd36d20e147b42b16150b74692c139dd0ba3cef2a0',
  'manual vtt false': '710d69603b44b78cba532f39298b8cd3d77768891784007a424c82b81351c3f0',
  'manual vtt true': '710d69603b44b78cba532f39298b8cd3d77768891784007a424c82b81351c3f0',
  'manual json3 false': 'ce18dbbfcf0b9fe9b10377b92e2e9891077854df61f41f82ab38efdf84361b9f',
  'manual json3 true': 'ce18dbbfcf0b9fe9b10377b92e2e9891077854df61f41f82ab38efdf84361b9f',
};

describe('golden bodies of long generated transcripts', () => {
  const cases: [string, TranscriptFormat, boolean][] = [];
  for (const name of Object.keys(DOCS))
    for (const format of TRANSCRIPT_FORMATS)
      for (const wordLevel of [false, true]) cases.push([name, format, wordLevel]);

  it.each(cases)('%s %s wordLevel=%s', async (name, format, wordLevel) => {
    const body = renderTranscript(DOCS[name]!, format, { wordLevel }).body;
    expect(await digest(body)).toBe(EXPECTED[`${name} ${format} ${wordLevel}`]);
  });

  it.each(cases)('%s %s wordLevel=%s: the bytes are the string encoded', (name, format, wordLevel) => {
    const doc = DOCS[name]!;
    const text = renderTranscript(doc, format, { wordLevel });
    const bytes = renderTranscriptBytes(doc, format, { wordLevel });
    expect(bytes.contentType).toBe(text.contentType);
    expect(bytes.body).toEqual(new TextEncoder().encode(text.body));
  });
});

describe('renderTranscriptBytes', () => {
  const text = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: 'grapheme' }), fc.string());
  const time = fc.oneof(
    fc.integer({ min: 0, max: 20_000_000 }).map((ms) => ms / 1000),
    fc.double(),
  );
  const word = fc.record({ word: text, start: time, end: time });
  const segment: fc.Arbitrary<Segment> = fc.record(
    { text, start: time, end: time, words: fc.array(word, { maxLength: 3 }) },
    { requiredKeys: ['text', 'start', 'end'] },
  );
  const doc: fc.Arbitrary<TranscriptDoc> = fc.record({
    videoId: text,
    language: text,
    trackKind: fc.constantFrom('asr' as const, 'manual' as const),
    title: text,
    chapters: fc.array(fc.record({ title: text, startSeconds: time }), { maxLength: 3 }),
    segments: fc.array(segment, { maxLength: 8 }),
    hasWordLevel: fc.boolean(),
    events: fc.constant([{ tStartMs: 0, segs: [{ utf8: 'x' }] }]),
  });

  it('is the string body encoded as UTF-8, in every format (lone surrogates → U+FFFD)', () => {
    fc.assert(
      fc.property(doc, fc.constantFrom(...TRANSCRIPT_FORMATS), fc.boolean(), (d, format, wordLevel) => {
        const text = renderTranscript(d, format, { wordLevel });
        const bytes = renderTranscriptBytes(d, format, { wordLevel });
        expect(bytes.contentType).toBe(text.contentType);
        expect(bytes.body).toEqual(new TextEncoder().encode(text.body));
      }),
      { numRuns: 400 },
    );
  });
});
