/**
 * The json3 `events` array of the Transcript JSON, written into a {@link Utf8Buffer}: the
 * {@link Json3Event} / {@link Json3Seg} fields in the interfaces' order, undefined fields left
 * out, numbers as `JSON.stringify` prints them (`null` when not finite).
 * @module
 */

import type { Json3Event, Json3Seg } from '../../ports/upstream.ts';
import { putJsonNumber } from './digits.ts';
import { putConfidenceKey, putOffsetKey, putUtf8Key } from './json-keys.ts';
import { putAscii, putString, type Utf8Buffer } from './utf8-buffer.ts';

/** The longest number {@link putJsonNumber} writes (`-1.2345678901234567e-308` and the like). */
const NUMBER_BYTES = 26;

/** Writes `key` and the number when the value is defined; returns the new position. */
function putField(bytes: Uint8Array, p: number, key: string, value: number | undefined): number {
  return value === undefined ? p : putJsonNumber(bytes, putAscii(bytes, p, key), value);
}

function writeSegs(out: Utf8Buffer, segs: readonly Json3Seg[]): void {
  // Room for all the segs at once: key 8 + quotes 2 + two number fields (13 + NUMBER_BYTES
  // each) + braces, and 3 bytes per code unit of text at most.
  let size = 0;
  for (let k = 0; k < segs.length; k++) size += segs[k]!.utf8.length * 3 + 96;
  let bytes = out.room(size);
  let p = out.length;
  for (let k = 0; k < segs.length; k++) {
    const seg = segs[k]!;
    p = putUtf8Key(bytes, p, k === 0);
    const after = putString(bytes, p, seg.utf8);
    if (after < 0) {
      out.length = p;
      out.jsonString(seg.utf8);
      bytes = out.room(size);
      p = out.length;
    } else {
      p = after;
    }
    if (seg.tOffsetMs !== undefined) p = putJsonNumber(bytes, putOffsetKey(bytes, p), seg.tOffsetMs);
    if (seg.acAsrConf !== undefined) p = putJsonNumber(bytes, putConfidenceKey(bytes, p), seg.acAsrConf);
    bytes[p++] = 0x7d; // }
  }
  out.length = p;
}

/** Writes the events, comma-separated (the caller writes the brackets). */
export function writeEvents(out: Utf8Buffer, events: readonly Json3Event[]): void {
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    // Seven number fields: at most 16 bytes of key and NUMBER_BYTES of number each.
    const bytes = out.room(16 + 7 * (16 + NUMBER_BYTES) + 16);
    let p = putAscii(bytes, out.length, i === 0 ? '{"tStartMs":' : ',{"tStartMs":');
    p = putJsonNumber(bytes, p, e.tStartMs);
    p = putField(bytes, p, ',"dDurationMs":', e.dDurationMs);
    p = putField(bytes, p, ',"id":', e.id);
    p = putField(bytes, p, ',"wWinId":', e.wWinId);
    p = putField(bytes, p, ',"wpWinPosId":', e.wpWinPosId);
    p = putField(bytes, p, ',"wsWinStyleId":', e.wsWinStyleId);
    p = putField(bytes, p, ',"aAppend":', e.aAppend);
    if (e.segs === undefined) {
      bytes[p] = 0x7d; // }
      out.length = p + 1;
    } else {
      out.length = putAscii(bytes, p, ',"segs":[');
      writeSegs(out, e.segs);
      out.ascii(']}');
    }
  }
}
