/**
 * The contract's Transcript object (JSON formats): envelope, segments and words.
 *
 * Times are seconds with at most 3 decimals, computed from whole milliseconds (see
 * {@link toMs}): clamped to ≥ 0, an end never before its start, `duration` = end − start.
 * Segment text is kept as the track gives it (JSON needs no escaping rules of its own).
 * @module
 */

import type { Json3Event, TrackKind } from '../../ports/upstream.ts';
import type { Segment, TranscriptDoc, Word } from '../transcript.ts';
import { toMs } from './time.ts';

/** A word of the contract (seconds). */
export interface WordJson {
  word: string;
  start: number;
  end: number;
}

/** A segment of the contract (seconds). `words` only on word-level ASR tracks, when asked. */
export interface SegmentJson {
  text: string;
  start: number;
  end: number;
  duration: number;
  words?: WordJson[];
}

/**
 * The contract's Transcript. `has_word_level` tells whether the track carries real per-word
 * timings (an ASR track), whether or not this response includes them. `events` only in the
 * `json3` format.
 */
export interface TranscriptJson {
  video_id: string;
  language: string;
  /** The source track's language code; only on a translation (`translate_to`). */
  translated_from?: string;
  track_kind: TrackKind;
  duration_seconds?: number;
  has_word_level: boolean;
  segments: SegmentJson[];
  events?: Json3Event[];
}

/**
 * True when the document has real per-word timings that may be shown: an ASR track whose parser
 * found word timings. Manual tracks never get words (they are never fabricated).
 */
export function hasRealWords(doc: TranscriptDoc): boolean {
  return doc.hasWordLevel && doc.trackKind === 'asr';
}

/** Words in contract form. */
export function wordsJson(words: readonly Word[]): WordJson[] {
  const out: WordJson[] = new Array(words.length);
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    const startMs = toMs(w.start);
    const endMs = toMs(w.end);
    out[i] = { word: w.word, start: startMs / 1000, end: Math.max(endMs, startMs) / 1000 };
  }
  return out;
}

/**
 * A contract segment from text and times in ms (end clamped to the start); `words` is attached
 * as given when defined.
 */
export function segmentJson(
  text: string,
  startMs: number,
  endMs: number,
  words: WordJson[] | undefined,
): SegmentJson {
  const end = Math.max(endMs, startMs);
  const out: SegmentJson = { text, start: startMs / 1000, end: end / 1000, duration: (end - startMs) / 1000 };
  if (words !== undefined) out.words = words;
  return out;
}

/** The segments in contract form, with their words when `withWords` (missing words: `[]`). */
export function segmentsJson(segments: readonly Segment[], withWords: boolean): SegmentJson[] {
  const out: SegmentJson[] = new Array(segments.length);
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    const words = withWords ? wordsJson(s.words ?? []) : undefined;
    out[i] = segmentJson(s.text, toMs(s.start), toMs(s.end), words);
  }
  return out;
}

/** The Transcript envelope of a document around the given segments. */
export function transcriptJson(doc: TranscriptDoc, segments: SegmentJson[]): TranscriptJson {
  return {
    video_id: doc.videoId,
    language: doc.language,
    ...(doc.translatedFrom === undefined ? {} : { translated_from: doc.translatedFrom }),
    track_kind: doc.trackKind,
    ...(doc.durationSeconds === undefined ? {} : { duration_seconds: toMs(doc.durationSeconds) / 1000 }),
    has_word_level: hasRealWords(doc),
    segments,
  };
}
