/**
 * Reading ahead: before a writer writes the next few segments (or their words, or json3 events'
 * segs), one tight loop reads their text and times. Those reads do not depend on each other, so
 * the CPU overlaps their cache misses, and the writing loop then finds them in the cache. Without
 * it each word or segment waits for its own misses in the middle of the writing. It pays once a
 * transcript no longer fits in the caches (10 hours: word-level renders 15-20% faster, SRT 18%,
 * WebVTT 39%, text 28%) and costs 1-3% when it does (1 and 3 hours), measured in interleaved
 * runs. Since then, measured the same way: json3's events (10 h: 4-20% faster, median 15%; 1 h
 * within ±5%); the words of 8 segments at a time instead of one segment's (about 60 reads in
 * flight instead of 7; word-level segments 10 h: 9-15% faster; 1 h: median 4% faster, single runs
 * from 14% faster to 21% slower); sentences read their segments and words ahead where they are
 * cut (10 h: 10-16% faster; 3 h: 5-13%; 1 h: 0-2% slower), and the writer no longer reads each
 * sentence's words again (they were just read: no difference beyond ±5%).
 * @module
 */

/** The last value read ahead: stored so that the compiler keeps the reads. */
let _lastRead = 0;

/** Segments {@link readSegmentsAhead} reads at a time. */
export const SEGMENTS_AHEAD = 32;

/** Reads the text length and times of `segments[from, from + SEGMENTS_AHEAD)`. */
export function readSegmentsAhead(
  segments: readonly { text: string; start: number; end: number }[],
  from: number,
): void {
  let sum = 0;
  const to = Math.min(segments.length, from + SEGMENTS_AHEAD);
  for (let i = from; i < to; i++) {
    const s = segments[i]!;
    sum += s.text.length + s.start + s.end;
  }
  _lastRead = sum;
}

/** Reads the segs (text length and offsets) of `events[from, from + SEGMENTS_AHEAD)`. */
export function readEventsAhead(
  events: readonly { segs?: readonly { utf8: string; tOffsetMs?: number }[] }[],
  from: number,
): void {
  let sum = 0;
  const to = Math.min(events.length, from + SEGMENTS_AHEAD);
  for (let i = from; i < to; i++) {
    const segs = events[i]!.segs;
    if (segs === undefined) continue;
    for (let k = 0; k < segs.length; k++) {
      const seg = segs[k]!;
      sum += seg.utf8.length + (seg.tOffsetMs ?? 0);
    }
  }
  _lastRead = sum;
}

/** Segments whose words {@link readSegmentWordsAhead} reads at a time (about 60 words). */
export const WORD_SEGMENTS_AHEAD = 8;

/** Reads the words' text length and times of `segments[from, from + WORD_SEGMENTS_AHEAD)`. */
export function readSegmentWordsAhead(
  segments: readonly { words?: readonly { word: string; start: number; end: number }[] }[],
  from: number,
): void {
  let sum = 0;
  const to = Math.min(segments.length, from + WORD_SEGMENTS_AHEAD);
  for (let i = from; i < to; i++) {
    const words = segments[i]!.words;
    if (words === undefined) continue;
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!;
      sum += w.word.length + w.start + w.end;
    }
  }
  _lastRead = sum;
}
