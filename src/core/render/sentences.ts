/**
 * The `sentences` format: segments re-cut at sentence ends ({@link sentenceEnds}).
 *
 * Segment texts are put on one line and flowed together (a space between segments, none between
 * two CJK characters). Each piece of a segment between two sentence ends is timed:
 * - from its words when the document has real word timings (first word start → last word end;
 *   words are located in the segment text in order),
 * - otherwise (manual tracks, or a piece holding no word) by interpolating within the source
 *   segment, proportionally to the character offsets of the piece.
 * A sentence starts at its first piece's start and ends at the latest piece end.
 * A text with no punctuation would otherwise be one sentence: at a segment boundary, a sentence
 * that has reached {@link MAX_SENTENCE_CHARS} is closed there.
 * Words are attached per sentence under the same rule as `segments` (asked for, and real).
 * @module
 */

import type { Segment, TranscriptDoc, Word } from '../transcript.ts';
import { jointAt, oneLine } from './inline.ts';
import { hasRealWords, type SegmentJson, segmentJson, wordsJson } from './json.ts';
import type { TimedSegment } from './json-writer.ts';
import {
  readSegmentsAhead,
  readSegmentWordsAhead,
  SEGMENTS_AHEAD,
  WORD_SEGMENTS_AHEAD,
} from './read-ahead.ts';
import { sentenceEnds } from './sentence-ends.ts';
import { toMs } from './time.ts';

/** A sentence this long (UTF-16 units) is closed at the next segment boundary. */
export const MAX_SENTENCE_CHARS = 300;

const NO_WORDS: readonly Word[] = [];

/** True when `word` occurs in `text` at `at`. */
function occursAt(text: string, word: string, at: number): boolean {
  if (at + word.length > text.length) return false;
  for (let i = 0; i < word.length; i++) if (text.charCodeAt(at + i) !== word.charCodeAt(i)) return false;
  return true;
}

/** `word.trim()`, without the call when it starts and ends with visible ASCII (the usual case). */
function trimmed(word: string): string {
  const first = word.charCodeAt(0);
  const last = word.charCodeAt(word.length - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f ? word : word.trim();
}

/**
 * Offsets of the words in `text`, located in order (a word not found sits at the cursor), written
 * into `into` (a render reuses one array for all its segments); returns it, or a larger one when
 * it was too small. Each is `text.indexOf(word, cursor)`; the next word usually sits right at
 * the cursor or one space after it, which is checked first (the first occurrence from the cursor
 * then is there).
 */
function wordOffsets(
  text: string,
  words: readonly Word[],
  into: Int32Array<ArrayBuffer>,
): Int32Array<ArrayBuffer> {
  const offsets = into.length < words.length ? new Int32Array(words.length * 2) : into;
  let cursor = 0;
  for (let i = 0; i < words.length; i++) {
    const word = trimmed(words[i]!.word);
    const at =
      word === ''
        ? -1
        : occursAt(text, word, cursor)
          ? cursor
          : occursAt(text, word, cursor + 1)
            ? cursor + 1
            : text.indexOf(word, cursor);
    if (at < 0) {
      offsets[i] = cursor;
    } else {
      offsets[i] = at;
      cursor = at + word.length;
    }
  }
  return offsets;
}

/** A sentence: text, times in seconds (whole ms) and the document's own words when attached. */
export interface Sentence extends TimedSegment {
  words?: Word[];
}

/** The `sentences` segments of a document in contract form; words when `wordLevel` and real. */
export function sentencesJson(doc: TranscriptDoc, wordLevel: boolean): SegmentJson[] {
  return sentences(doc, wordLevel).map((s) =>
    segmentJson(s.text, toMs(s.start), toMs(s.end), s.words === undefined ? undefined : wordsJson(s.words)),
  );
}

/**
 * The sentences of a document (see the module comment); each carries the document's own
 * `Word` objects when `wordLevel` and the words are real (the JSON writer rounds them).
 */
export function sentences(doc: TranscriptDoc, wordLevel: boolean): Sentence[] {
  const out: Sentence[] = [];
  eachSentence(doc, wordLevel, (sentence) => out.push(sentence));
  return out;
}

/** The sentences of {@link sentences}, given to `visit` one by one as they are made. */
export function eachSentence(
  doc: TranscriptDoc,
  wordLevel: boolean,
  visit: (sentence: Sentence) => void,
): void {
  const timedByWords = hasRealWords(doc);
  const attach = wordLevel && timedByWords;
  // The sentence so far: its pieces and separators, joined once (one flat string) by flush;
  // its length and last code unit are kept aside.
  const parts: string[] = [];
  let length = 0;
  let last = 0;
  let startMs = 0;
  let endMs = 0;
  let words: Word[] = [];
  let offsets = new Int32Array(64); // see wordOffsets

  const flush = (): void => {
    if (length === 0) return;
    const text = parts.length === 1 ? parts[0]! : parts.join('');
    const sentence: Sentence = { text, start: startMs / 1000, end: Math.max(startMs, endMs) / 1000 };
    if (attach) sentence.words = words;
    visit(sentence);
    parts.length = 0;
    length = 0;
    words = [];
  };
  /** Adds a piece timed `[from, to)` (ms) holding `segWords[wi, wj)`. */
  const add = (
    piece: string,
    from: number,
    to: number,
    segWords: readonly Word[],
    wi: number,
    wj: number,
  ): void => {
    if (length === 0) {
      startMs = from;
      endMs = to;
    } else {
      const space = jointAt(last, piece);
      if (space !== '') parts.push(space);
      length += space.length;
      if (to > endMs) endMs = to;
    }
    parts.push(piece);
    length += piece.length;
    last = piece.charCodeAt(piece.length - 1);
    if (attach) for (let k = wi; k < wj; k++) words.push(segWords[k]!);
  };

  const cutSegment = (segment: Segment, line: string, segWords: readonly Word[]): void => {
    const segStart = toMs(segment.start);
    const segEnd = Math.max(segStart, toMs(segment.end));
    const ends = sentenceEnds(line);
    if (ends.length === 0 || (ends.length === 1 && ends[0] === line.length)) {
      const n = segWords.length;
      if (n > 0) add(line, toMs(segWords[0]!.start), wordEnd(segWords, 0, n), segWords, 0, n);
      else add(line, segStart, segEnd, NO_WORDS, 0, 0);
      if (ends.length === 1) flush();
      return;
    }
    offsets = wordOffsets(line, segWords, offsets);
    const span = segEnd - segStart;
    let from = 0;
    let wi = 0;
    for (let k = 0; k <= ends.length; k++) {
      const to = k < ends.length ? ends[k]! : line.length;
      if (to <= from) continue;
      let wj = wi;
      if (to === line.length) wj = segWords.length;
      else while (wj < segWords.length && offsets[wj]! < to) wj++;
      const piece = line.slice(from, to).trim();
      if (piece !== '') {
        if (wj > wi) {
          add(piece, toMs(segWords[wi]!.start), wordEnd(segWords, wi, wj), segWords, wi, wj);
        } else {
          const pieceStart = segStart + Math.round((span * from) / line.length);
          add(piece, pieceStart, segStart + Math.round((span * to) / line.length), NO_WORDS, 0, 0);
        }
        wi = wj;
      }
      if (k < ends.length) flush();
      from = to;
    }
  };

  const segments = doc.segments;
  for (let i = 0; i < segments.length; i++) {
    if (i % SEGMENTS_AHEAD === 0) readSegmentsAhead(segments, i);
    if (timedByWords && i % WORD_SEGMENTS_AHEAD === 0) readSegmentWordsAhead(segments, i);
    const segment = segments[i]!;
    const line = oneLine(segment.text);
    if (line !== '') cutSegment(segment, line, timedByWords ? (segment.words ?? NO_WORDS) : NO_WORDS);
    if (length >= MAX_SENTENCE_CHARS) flush();
  }
  flush();
}

/** The end of the last word of `words[from, to)` (not empty), never before the first word's start. */
function wordEnd(words: readonly Word[], from: number, to: number): number {
  const start = toMs(words[from]!.start);
  const end = toMs(words[to - 1]!.end);
  return Math.max(end, start);
}
