/**
 * The `text` format: one line per segment, in segment order.
 * @module
 */

import type { Segment } from '../transcript.ts';
import { oneLine } from './inline.ts';

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
