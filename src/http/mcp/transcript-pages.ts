/**
 * Pages of a transcript for `get_transcript`: the rendered transcript is cut into units at
 * segment boundaries (a line of `text`, a cue of `srt`/`vtt`, a paragraph of `markdown`, an item
 * of `segments`/`sentences`), and a page holds as many whole units as fit in `max_chars`. Joined,
 * the pages of a text format are exactly the whole rendering; the item lists of a JSON format
 * concatenate to the whole list. A unit longer than a page on its own is cut into page-sized
 * pieces (text formats only; a JSON item is never split).
 * @module
 */

import { renderTranscript, transcriptObject } from '../../core/render/index.ts';
import { oneLine } from '../../core/render/inline.ts';
import type { TranscriptDoc } from '../../core/transcript.ts';

/** The formats `get_transcript` offers. */
export const MCP_TRANSCRIPT_FORMATS = ['text', 'segments', 'srt', 'vtt', 'markdown', 'sentences'] as const;

/** A format of `get_transcript`. */
export type McpTranscriptFormat = (typeof MCP_TRANSCRIPT_FORMATS)[number];

/** Where a page starts: a unit index and a character offset inside that unit. */
export interface PagePosition {
  unit: number;
  offset: number;
}

/** One page: its text (text formats) or its items (JSON formats), and where the next starts. */
export interface TranscriptPage {
  content?: string;
  segments?: unknown[];
  next?: PagePosition;
  /** Units in the whole transcript. */
  units: number;
}

/** `[mm:ss]` (or `[h:mm:ss]`) of a time in seconds. */
export function timestamp(seconds: number): string {
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `[${h}:${String(m).padStart(2, '0')}:${s}]` : `[${String(m).padStart(2, '0')}:${s}]`;
}

/** Cuts a rendered document after every blank line (cues, paragraphs), keeping every character. */
function blocks(body: string): string[] {
  return body.split(/(?<=\n\n)/).filter((part) => part !== '');
}

/** The units of a document in a format: strings for text formats, items for JSON formats. */
export function transcriptUnits(doc: TranscriptDoc, format: McpTranscriptFormat): string[] | unknown[] {
  switch (format) {
    case 'text':
      return doc.segments.map((s) => `${timestamp(s.start)} ${oneLine(s.text)}\n`);
    case 'segments':
    case 'sentences':
      return transcriptObject(doc, format, { wordLevel: false }).segments;
    default:
      return blocks(renderTranscript(doc, format, { wordLevel: false }).body);
  }
}

/** True for the formats whose units are JSON items. */
export function isItemFormat(format: McpTranscriptFormat): boolean {
  return format === 'segments' || format === 'sentences';
}

/** The page of `units` that starts at `from` and holds at most `maxChars` characters. */
export function pageOf(
  units: string[] | unknown[],
  items: boolean,
  from: PagePosition,
  maxChars: number,
): TranscriptPage {
  if (items) {
    const out: unknown[] = [];
    let size = 2;
    let i = from.unit;
    for (; i < units.length; i++) {
      const cost = JSON.stringify(units[i]).length + 1;
      if (out.length > 0 && size + cost > maxChars) break;
      out.push(units[i]);
      size += cost;
    }
    return {
      segments: out,
      units: units.length,
      ...(i < units.length ? { next: { unit: i, offset: 0 } } : {}),
    };
  }
  const text = units as string[];
  let content = '';
  let unit = from.unit;
  let offset = from.offset;
  while (unit < text.length) {
    const rest = text[unit]!.slice(offset);
    const room = maxChars - content.length;
    if (rest.length <= room) {
      content += rest;
      unit++;
      offset = 0;
      continue;
    }
    // A unit that does not fit: start it on the next page, unless it alone is longer than a page.
    if (content === '') {
      let cut = room;
      const code = rest.charCodeAt(cut - 1);
      if (cut > 1 && code >= 0xd800 && code <= 0xdbff) cut--; // never split a surrogate pair
      content = rest.slice(0, cut);
      offset += cut;
    }
    break;
  }
  return { content, units: text.length, ...(unit < text.length ? { next: { unit, offset } } : {}) };
}
