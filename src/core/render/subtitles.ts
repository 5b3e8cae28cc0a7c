/**
 * SRT and WebVTT writers.
 *
 * One cue per segment: start = segment start, end = segment end (overlapping cues are kept, as
 * ASR tracks overlap). Times are clamped: NaN and negative times become 0, an end before its
 * start becomes the start (a zero-length cue is written as such, never dropped or stretched).
 * Cues are written in start order: the segments' order when it already is (the normal case),
 * otherwise a stable sort by start, which WebVTT requires and SRT players expect.
 * Payloads follow {@link srtCueText} / {@link vttCueText}.
 *
 * SRT: `index\nHH:MM:SS,mmm --> HH:MM:SS,mmm\ntext` cues separated by a blank line, with a
 * trailing newline. WebVTT: `WEBVTT`, a blank line, then `HH:MM:SS.mmm --> HH:MM:SS.mmm\ntext`
 * cues (no identifiers) in the same layout. Hours take 3 or more digits past 99. An empty
 * transcript gives `''` (SRT) or `WEBVTT\n` (WebVTT: `subtitle`'s parser rejects a header
 * followed by two empty lines and nothing else). Written as bytes ({@link Utf8Buffer}).
 * @module
 */

import type { Segment } from '../transcript.ts';
import { putPlainCueText, srtCueText, vttCueText } from './cue-text.ts';
import { putInteger, putPadded, putPadded2 } from './digits.ts';
import { readSegmentsAhead, SEGMENTS_AHEAD } from './read-ahead.ts';
import { toMs } from './time.ts';
import { putUtf8, Utf8Buffer } from './utf8-buffer.ts';

/** One cue as written: whole milliseconds and the escaped payload. */
export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
}

/** Segment starts in ms, and the order to write them in (`undefined`: as given). */
function startsAndOrder(segments: readonly Segment[]): {
  starts: Float64Array;
  order: number[] | undefined;
} {
  const n = segments.length;
  const starts = new Float64Array(n);
  let sorted = true;
  let previous = 0;
  for (let i = 0; i < n; i++) {
    const start = toMs(segments[i]!.start);
    starts[i] = start;
    if (start < previous) sorted = false;
    previous = start;
  }
  if (sorted) return { starts, order: undefined };
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => starts[a]! - starts[b]!);
  return { starts, order };
}

/**
 * The cues of a segment list, exactly as {@link renderSrt} (`vtt` false) or {@link renderVtt}
 * (`vtt` true) write them: clamped times, write order, escaped payloads.
 */
export function subtitleCues(segments: readonly Segment[], vtt: boolean): Cue[] {
  const { starts, order } = startsAndOrder(segments);
  const cues: Cue[] = [];
  for (let k = 0; k < segments.length; k++) {
    const i = order === undefined ? k : order[k]!;
    const segment = segments[i]!;
    const startMs = starts[i]!;
    const end = toMs(segment.end);
    const text = vtt ? vttCueText(segment.text) : srtCueText(segment.text);
    cues.push({ startMs, endMs: Math.max(end, startMs), text });
  }
  return cues;
}

/** Writes `HH:MM:SS<sep>mmm` (at most 16 bytes); returns the new position. */
function putClock(bytes: Uint8Array, at: number, ms: number, sep: number): number {
  let hours = 0;
  let rest = ms;
  if (rest >= 3_600_000) {
    hours = Math.floor(rest / 3_600_000);
    rest -= hours * 3_600_000;
  }
  rest |= 0;
  const minutes = (rest / 60_000) | 0;
  rest -= minutes * 60_000;
  const secs = (rest / 1000) | 0;
  let p = hours < 100 ? putPadded2(bytes, at, hours | 0) : putInteger(bytes, at, hours);
  bytes[p++] = 0x3a;
  p = putPadded2(bytes, p, minutes);
  bytes[p++] = 0x3a;
  p = putPadded2(bytes, p, secs);
  bytes[p++] = sep;
  return putPadded(bytes, p, rest - secs * 1000);
}

/**
 * The segments as an SRT (`vtt` false) or WebVTT document, written into a new buffer: the
 * caller takes the result with `done()` (a string) or `doneBytes()`.
 */
export function writeSubtitles(segments: readonly Segment[], vtt: boolean): Utf8Buffer {
  const out = new Utf8Buffer(segments.length * 96 + 16);
  if (segments.length === 0) {
    if (vtt) out.ascii('WEBVTT\n');
    return out;
  }
  if (vtt) out.ascii('WEBVTT\n\n');
  // Segments normally come in start order: write them in one pass (each segment is read
  // once, which matters once a long transcript no longer fits in the CPU caches), and start
  // over in sorted order at the first one that starts earlier than the one before.
  const from = out.length;
  if (!writeCues(out, segments, undefined, vtt)) {
    out.length = from;
    writeCues(out, segments, startsAndOrder(segments), vtt);
  }
  return out;
}

/**
 * Writes the cues in the given order (`undefined`: as given, and then returns false, having
 * written an unusable prefix, at the first segment out of start order); returns true.
 */
function writeCues(
  out: Utf8Buffer,
  segments: readonly Segment[],
  sorted: { starts: Float64Array; order: number[] | undefined } | undefined,
  vtt: boolean,
): boolean {
  const sep = vtt ? 0x2e : 0x2c;
  const order = sorted?.order;
  let previous = 0;
  for (let k = 0; k < segments.length; k++) {
    if (order === undefined && k % SEGMENTS_AHEAD === 0) readSegmentsAhead(segments, k);
    const i = order === undefined ? k : order[k]!;
    const segment = segments[i]!;
    const startMs = sorted === undefined ? toMs(segment.start) : sorted.starts[i]!;
    if (startMs < previous) return false;
    previous = startMs;
    let endMs = toMs(segment.end);
    if (endMs < startMs) endMs = startMs;
    const raw = segment.text;
    let bytes = out.room(raw.length * 3 + 64);
    let at = out.length;
    if (k > 0) bytes[at++] = 0x0a;
    if (!vtt) {
      at = putInteger(bytes, at, k + 1);
      bytes[at++] = 0x0a;
    }
    at = putClock(bytes, at, startMs, sep);
    bytes[at] = 0x20; // " --> "
    bytes[at + 1] = 0x2d;
    bytes[at + 2] = 0x2d;
    bytes[at + 3] = 0x3e;
    bytes[at + 4] = 0x20;
    at = putClock(bytes, at + 5, endMs, sep);
    bytes[at++] = 0x0a;
    const plain = putPlainCueText(bytes, at, raw, vtt);
    if (plain >= 0) {
      at = plain;
    } else {
      // Rare: the text needs normalising or escaping (see cue-text.ts).
      const text = vtt ? vttCueText(raw) : srtCueText(raw);
      out.length = at;
      bytes = out.room(text.length * 3 + 1);
      at = putUtf8(bytes, at, text);
    }
    bytes[at++] = 0x0a;
    out.length = at;
  }
  return true;
}

/** The segments as an SRT document. */
export function renderSrt(segments: readonly Segment[]): string {
  return writeSubtitles(segments, false).done();
}

/** The segments as a WebVTT document. */
export function renderVtt(segments: readonly Segment[]): string {
  return writeSubtitles(segments, true).done();
}
