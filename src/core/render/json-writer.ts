/**
 * Writes the Transcript JSON body straight from segments, several times faster than
 * `JSON.stringify(transcriptObject(…))` on word-level transcripts (see {@link Utf8Buffer}).
 *
 * The output is byte for byte what `JSON.stringify` gives for the object `transcriptObject`
 * builds: same keys in the same order, same clamping and rounding (whole milliseconds through
 * {@link toMs}), words as `segmentsJson` attaches them. json3 events: see {@link writeEvents}
 * (events whose objects have other keys or another key order differ from `JSON.stringify` in
 * that only).
 * @module
 */

import type { Json3Event } from '../../ports/upstream.ts';
import type { TranscriptDoc } from '../transcript.ts';
import { putSeconds } from './digits.ts';
import { hasRealWords } from './json.ts';
import { fragment, putEndKey, putFragment, putStartKey, putWordKey } from './json-keys.ts';
import { writeEvents } from './json3-writer.ts';
import {
  readSegmentsAhead,
  readSegmentWordsAhead,
  SEGMENTS_AHEAD,
  WORD_SEGMENTS_AHEAD,
} from './read-ahead.ts';
import { toMs } from './time.ts';
import { putString, Utf8Buffer } from './utf8-buffer.ts';

/** A timed word: a document's `Word` or a contract `WordJson`. */
interface TimedWord {
  word: string;
  start: number;
  end: number;
}

/** A timed text: a document's `Segment` or a contract `SegmentJson`. */
export interface TimedSegment {
  text: string;
  start: number;
  end: number;
  words?: readonly TimedWord[];
}

const NO_WORDS: readonly TimedWord[] = [];

/** Room for one word besides its text: keys, two times and braces. */
const WORD_BYTES = 80;
const FIRST_SEGMENT = fragment('{"text":');
const NEXT_SEGMENT = fragment(',{"text":');
const DURATION = fragment(',"duration":');
const WORDS = fragment(',"words":[');

/** Copies `bytes[from, to)` to `p` (a time just written: at most 20 bytes); returns the new position. */
function copyDigits(bytes: Uint8Array, view: DataView, p: number, from: number, to: number): number {
  if (to - from <= 8) {
    // Two 32-bit copies; the bytes past `to - from` are scratch that the next key overwrites.
    view.setUint32(p, view.getUint32(from, true), true);
    view.setUint32(p + 4, view.getUint32(from + 4, true), true);
    return p + (to - from);
  }
  let q = p;
  for (let k = from; k < to; k++) bytes[q++] = bytes[k]!;
  return q;
}

/** Writes the words, comma-separated, and the closing `]}` of their segment. */
function writeWords(out: Utf8Buffer, words: readonly TimedWord[]): void {
  let bytes = out.bytes;
  let view = out.view;
  let limit = bytes.length;
  let p = out.length;
  // ASR words follow each other: a word's start is usually the previous word's end, whose
  // digits were just written at [endFrom, endTo) and are copied instead of printed again.
  let endMs = -1;
  let endFrom = 0;
  let endTo = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const text = w.word;
    // Room for this word: 3 bytes per code unit of text at most.
    if (p + text.length * 3 + WORD_BYTES > limit) {
      out.length = p;
      bytes = out.room(text.length * 3 + WORD_BYTES);
      view = out.view;
      limit = bytes.length;
      endMs = -1; // the array may have moved
    }
    p = putWordKey(view, p, i === 0);
    const after = putString(bytes, p, text);
    if (after < 0) {
      out.length = p;
      out.jsonString(text);
      bytes = out.room(WORD_BYTES);
      view = out.view;
      limit = bytes.length;
      p = out.length;
      endMs = -1; // the array may have moved
    } else {
      p = after;
    }
    const start = toMs(w.start);
    const end = Math.max(toMs(w.end), start);
    p = putStartKey(view, p);
    p = start === endMs ? copyDigits(bytes, view, p, endFrom, endTo) : putSeconds(bytes, p, start);
    endFrom = putEndKey(view, p);
    p = putSeconds(bytes, endFrom, end);
    endTo = p;
    endMs = end;
    bytes[p++] = 0x7d; // }
  }
  out.length = p;
  out.ascii(']}');
}

/** Writes one segment; `first`: no comma before it. */
function writeSegment(out: Utf8Buffer, s: TimedSegment, first: boolean, withWords: boolean): void {
  let bytes = out.room(s.text.length * 3 + 128);
  let at = putFragment(out.view, out.length, first ? FIRST_SEGMENT : NEXT_SEGMENT);
  const after = putString(bytes, at, s.text);
  if (after < 0) {
    out.length = at;
    out.jsonString(s.text);
    bytes = out.room(128);
    at = out.length;
  } else {
    at = after;
  }
  const start = toMs(s.start);
  let end = toMs(s.end);
  if (end < start) end = start;
  const view = out.view;
  at = putSeconds(bytes, putStartKey(view, at), start);
  at = putSeconds(bytes, putEndKey(view, at), end);
  at = putSeconds(bytes, putFragment(view, at, DURATION), end - start);
  if (withWords) {
    out.length = putFragment(view, at, WORDS);
    writeWords(out, s.words ?? NO_WORDS);
  } else {
    bytes[at++] = 0x7d;
    out.length = at;
  }
}

/**
 * Segments made one at a time: calls `visit` with each, in order. A writer given these writes
 * each segment as it is made, so none outlives its writing: built into an array first, the
 * sentences of a 10-hour transcript outlived several young-generation collections, each of which
 * copied them (about a third of that render's time).
 */
export type SegmentStream = (visit: (segment: TimedSegment) => void) => void;

function writeSegments(
  out: Utf8Buffer,
  segments: readonly TimedSegment[] | SegmentStream,
  withWords: boolean,
): void {
  if (typeof segments === 'function') {
    let first = true;
    segments((segment) => {
      writeSegment(out, segment, first, withWords);
      first = false;
    });
    return;
  }
  for (let i = 0; i < segments.length; i++) {
    if (i % SEGMENTS_AHEAD === 0) readSegmentsAhead(segments, i);
    if (withWords && i % WORD_SEGMENTS_AHEAD === 0) readSegmentWordsAhead(segments, i);
    writeSegment(out, segments[i]!, i === 0, withWords);
  }
}

/** A size estimate in code bytes, so that the buffer rarely grows. */
function estimate(
  segments: readonly TimedSegment[],
  withWords: boolean,
  events: readonly Json3Event[],
): number {
  let size = 512;
  for (const s of segments) {
    size += s.text.length + 112;
    if (withWords && s.words !== undefined) size += s.words.length * 56;
  }
  for (const e of events) size += 96 + (e.segs === undefined ? 0 : e.segs.length * 56);
  return size;
}

/**
 * The Transcript JSON of `doc` around `segments` (the document's own, or its sentences as they
 * are made: the size is then estimated from the document's segments, which hold the same text
 * and words), with each segment's words when `withWords` (missing words: `[]`) and `events`
 * when given, written into a new buffer: the caller takes the result with `done()` (a string)
 * or `doneBytes()`.
 */
export function writeTranscriptJson(
  doc: TranscriptDoc,
  segments: readonly TimedSegment[] | SegmentStream,
  withWords: boolean,
  events?: readonly Json3Event[],
): Utf8Buffer {
  const sized = typeof segments === 'function' ? doc.segments : segments;
  const out = new Utf8Buffer(estimate(sized, withWords, events ?? []));
  out.ascii('{"video_id":');
  out.jsonString(doc.videoId);
  out.ascii(',"language":');
  out.jsonString(doc.language);
  if (doc.translatedFrom !== undefined) {
    out.ascii(',"translated_from":');
    out.jsonString(doc.translatedFrom);
  }
  out.ascii(',"track_kind":');
  out.jsonString(doc.trackKind);
  if (doc.durationSeconds !== undefined) {
    out.ascii(',"duration_seconds":');
    out.seconds(toMs(doc.durationSeconds));
  }
  out.ascii(
    hasRealWords(doc) ? ',"has_word_level":true,"segments":[' : ',"has_word_level":false,"segments":[',
  );
  writeSegments(out, segments, withWords);
  out.ascii(']');
  if (events !== undefined) {
    out.ascii(',"events":[');
    writeEvents(out, events);
    out.ascii(']');
  }
  out.ascii('}');
  return out;
}
