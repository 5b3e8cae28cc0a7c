/**
 * The json3 `events` array of the Transcript JSON, written into a {@link Utf8Buffer}: the
 * {@link Json3Event} / {@link Json3Seg} fields in the interfaces' order, undefined fields left
 * out, numbers as `JSON.stringify` prints them (`null` when not finite).
 * @module
 */

import type { Json3Event, Json3Seg } from '../../ports/upstream.ts';
import { putJsonNumber } from './digits.ts';
import {
  type Fragment,
  fragment,
  putConfidenceKey,
  putFragment,
  putOffsetKey,
  putUtf8Key,
} from './json-keys.ts';
import { readEventsAhead, SEGMENTS_AHEAD } from './read-ahead.ts';
import { putString, type Utf8Buffer } from './utf8-buffer.ts';

/** The longest number {@link putJsonNumber} writes (`-1.2345678901234567e-308` and the like). */
const NUMBER_BYTES = 26;

const FIRST_EVENT = fragment('{"tStartMs":');
const NEXT_EVENT = fragment(',{"tStartMs":');
const DURATION = fragment(',"dDurationMs":');
const ID = fragment(',"id":');
const WIN = fragment(',"wWinId":');
const WIN_POS = fragment(',"wpWinPosId":');
const WIN_STYLE = fragment(',"wsWinStyleId":');
const APPEND = fragment(',"aAppend":');
const SEGS = fragment(',"segs":[');
/** Room for one seg besides its text: key 9 + quotes 2 + two fields (13 + NUMBER_BYTES each) + brace. */
const SEG_BYTES = 96;

/** Writes `key` and the number when the value is defined; returns the new position. */
function putField(
  bytes: Uint8Array,
  view: DataView,
  p: number,
  key: Fragment,
  value: number | undefined,
): number {
  return value === undefined ? p : putJsonNumber(bytes, putFragment(view, p, key), value);
}

/** Writes the segs, comma-separated, and the closing `]}` of their event. */
function writeSegs(out: Utf8Buffer, segs: readonly Json3Seg[]): void {
  let bytes = out.bytes;
  let view = out.view;
  let limit = bytes.length;
  let p = out.length;
  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k]!;
    const text = seg.utf8;
    // Room for this seg: 3 bytes per code unit of text at most.
    if (p + text.length * 3 + SEG_BYTES > limit) {
      out.length = p;
      bytes = out.room(text.length * 3 + SEG_BYTES);
      view = out.view;
      limit = bytes.length;
    }
    p = putUtf8Key(view, p, k === 0);
    const after = putString(bytes, p, text);
    if (after < 0) {
      out.length = p;
      out.jsonString(text);
      bytes = out.room(SEG_BYTES);
      view = out.view;
      limit = bytes.length;
      p = out.length;
    } else {
      p = after;
    }
    if (seg.tOffsetMs !== undefined) p = putJsonNumber(bytes, putOffsetKey(view, p), seg.tOffsetMs);
    if (seg.acAsrConf !== undefined) p = putJsonNumber(bytes, putConfidenceKey(view, p), seg.acAsrConf);
    bytes[p++] = 0x7d; // }
  }
  out.length = p;
  out.ascii(']}');
}

/** Writes the events, comma-separated (the caller writes the brackets). */
export function writeEvents(out: Utf8Buffer, events: readonly Json3Event[]): void {
  for (let i = 0; i < events.length; i++) {
    if (i % SEGMENTS_AHEAD === 0) readEventsAhead(events, i);
    const e = events[i]!;
    // Seven number fields: at most 16 bytes of key and NUMBER_BYTES of number each.
    const bytes = out.room(16 + 7 * (16 + NUMBER_BYTES) + 16);
    const view = out.view;
    let p = putFragment(view, out.length, i === 0 ? FIRST_EVENT : NEXT_EVENT);
    p = putJsonNumber(bytes, p, e.tStartMs);
    p = putField(bytes, view, p, DURATION, e.dDurationMs);
    p = putField(bytes, view, p, ID, e.id);
    p = putField(bytes, view, p, WIN, e.wWinId);
    p = putField(bytes, view, p, WIN_POS, e.wpWinPosId);
    p = putField(bytes, view, p, WIN_STYLE, e.wsWinStyleId);
    p = putField(bytes, view, p, APPEND, e.aAppend);
    if (e.segs === undefined) {
      bytes[p] = 0x7d; // }
      out.length = p + 1;
    } else {
      out.length = putFragment(view, p, SEGS);
      writeSegs(out, e.segs);
    }
  }
}
