/**
 * The `text` format: one line per segment, in segment order, as a string ({@link renderText})
 * or as UTF-8 bytes ({@link writeText}, what a response sends).
 * @module
 */

import type { Segment } from '../transcript.ts';
import { oneLine } from './inline.ts';
import { readSegmentsAhead, SEGMENTS_AHEAD } from './read-ahead.ts';
import { Utf8Buffer } from './utf8-buffer.ts';
import { ChunkedUtf8Writer } from './utf8-chunks.ts';

/**
 * Bytes to reserve per segment of flowing text (text, Markdown): ASR lines are a few dozen bytes
 * (the buffer grows past it).
 */
export const EXPECTED_BYTES_PER_SEGMENT = 48;

/**
 * The segment texts joined by `\n`, with a trailing newline (`''` when there are no segments).
 * Line breaks inside a segment become one space and each line is trimmed (see {@link oneLine});
 * an empty segment gives an empty line, so line *n* is always segment *n*.
 */
export function renderText(segments: readonly Segment[]): string {
  let out = '';
  for (let i = 0; i < segments.length; i++) out += `${oneLine(segments[i]!.text)}\n`;
  return out;
}

/**
 * {@link renderText} written into a new buffer, without the string of the whole body (past
 * 128 KiB V8 makes it a large object, dearer per byte as the body grows): `doneBytes()` gives
 * exactly `TextEncoder.encode(renderText(segments))` (every line ends with `\n`, so no
 * surrogate pair is split between pieces).
 */
export function writeText(segments: readonly Segment[]): Utf8Buffer {
  const out = new Utf8Buffer(segments.length * EXPECTED_BYTES_PER_SEGMENT);
  const writer = new ChunkedUtf8Writer(out);
  for (let i = 0; i < segments.length; i++) {
    if (i % SEGMENTS_AHEAD === 0) readSegmentsAhead(segments, i);
    writer.write(`${oneLine(segments[i]!.text)}\n`);
  }
  writer.flush();
  return out;
}
