/**
 * The transcript document shared by the timed-text parser and the renderers: words and segments in
 * seconds, a track's parsed timed text, and everything a renderer may use.
 * @module
 */
import type { Chapter, Json3Event, TrackKind } from '../ports/upstream.ts';

/** One word with its timing, in seconds. */
export interface Word {
  word: string;
  start: number;
  end: number;
}

/** One caption line, in seconds. `words` only for ASR tracks (never fabricated). */
export interface Segment {
  text: string;
  start: number;
  end: number;
  words?: Word[];
}

/** The parsed timed text of one track. */
export interface ParsedTimedText {
  segments: Segment[];
  /** True when the segments carry real per-word timings. */
  hasWordLevel: boolean;
  /** The normalised json3 events (styling noise removed), for the `json3` format. */
  events: Json3Event[];
  /**
   * With word timings: each segment's speech start and end in ms, two numbers per segment (see
   * `speech-times.ts`). Absent from documents cached before it existed.
   */
  speechMs?: number[];
}

/** Everything a renderer may use. */
export interface TranscriptDoc {
  videoId: string;
  /** The returned track's language code (the target language when translated). */
  language: string;
  /** The source track's language code, only when the text is YouTube's translation of it. */
  translatedFrom?: string;
  trackKind: TrackKind;
  durationSeconds?: number;
  title?: string;
  author?: string;
  chapters?: Chapter[];
  segments: Segment[];
  hasWordLevel: boolean;
  events: Json3Event[];
  /** See {@link ParsedTimedText.speechMs} (a document made from one carries its value, even none). */
  speechMs?: number[] | undefined;
}
