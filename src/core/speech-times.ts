/**
 * When the speech of each segment starts and ends, in whole ms, packed two numbers per segment
 * (`[start0, end0, start1, end1, …]`): with word timings, the first word's start and the last
 * word's end (ASR segments overlap in time, their words do not); without them, or for a segment
 * without words, the segment's own times.
 *
 * The parser stores them with the words it has just made ({@link ParsedTimedText.speechMs}), so a
 * renderer that needs only these times (Markdown's paragraph pauses) reads one array instead of
 * two word objects and their boxed numbers per segment, scattered over the heap: on a 10-hour
 * transcript those reads made the Markdown render grow 15–17× the 1-hour time where the rest of
 * its work grows 10–11×.
 * @module
 */
import { toMs } from './render/time.ts';
import type { Segment, TranscriptDoc } from './transcript.ts';

/** The packed speech times of `segments`; from their words when `words` (see the module comment). */
export function speechTimesMs(segments: readonly Segment[], words: boolean): number[] {
  const out: number[] = [];
  for (const segment of segments) {
    const list = words ? segment.words : undefined;
    const first = list?.[0];
    const last = list === undefined ? undefined : list[list.length - 1];
    out.push(
      toMs(first === undefined ? segment.start : first.start),
      toMs(last === undefined ? segment.end : last.end),
    );
  }
  return out;
}

/**
 * The document's speech times: the parser's when it stored them (a document cached by an older
 * version has none, and one made by hand may not match its segments), else computed.
 */
export function documentSpeechTimesMs(doc: TranscriptDoc, words: boolean): readonly number[] {
  const stored = words ? doc.speechMs : undefined;
  return stored !== undefined && stored.length === doc.segments.length * 2
    ? stored
    : speechTimesMs(doc.segments, words);
}
