/**
 * An append-only UTF-8 byte buffer for writing large bodies (JSON, SRT, WebVTT), decoded into
 * one string at the end.
 *
 * Why: building a multi-megabyte body by string concatenation keeps hundreds of thousands of
 * small strings alive until the end (a rope) that the young-generation GC copies again and
 * again, and `JSON.stringify` spends most of its time printing doubles. Writing bytes into a
 * typed array creates almost no garbage, and decoding mostly-ASCII UTF-8 gives a compact
 * one-byte string (about twice as fast as decoding UTF-16). Hot loops get the array and the
 * write position and use the `put*` functions (no bounds checks: call {@link Utf8Buffer.room}
 * first), then store the position back.
 * @module
 */

import { putSeconds } from './digits.ts';

const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

/** The `Buffer` of Node and Bun, where the runtime has one (see {@link decodeBody}). */
const NATIVE_BUFFER = (
  globalThis as {
    Buffer?: {
      from(
        buffer: ArrayBufferLike,
        byteOffset: number,
        length: number,
      ): { toString(encoding: 'latin1'): string };
    };
  }
).Buffer;

/**
 * From this many bytes Node answers `toString('latin1')` with an external string (its
 * `EXTERN_APEX`, 0xFBEE9): the characters stay in memory from `malloc`, which reuses freed
 * memory, instead of a new V8 large object, whose fresh pages the kernel must map on first
 * write. Measured here on a 3.4 MB body: `TextDecoder` 9.8 ms (more than half of it in the
 * kernel), the ASCII check and `toString('latin1')` together 1.1 ms.
 */
const EXTERNAL_MIN_BYTES = 0xfbee9;

/** Buffers up to this size are kept for the next render. */
const KEEP_BYTES = 16 * 1024 * 1024;

/**
 * One spare byte array, reused by the next buffer. Allocating a fresh multi-megabyte array per
 * render costs little by itself, but its external memory makes V8 run full GCs far more often
 * (render times then vary by 50%). A buffer takes the spare while it writes (so two live buffers
 * never share it) and gives its array back in {@link Utf8Buffer.done}. Rendering is synchronous,
 * so this is invisible to callers: no result depends on it.
 */
let spare: Uint8Array | undefined;

const EMPTY = new Uint8Array(0);

/**
 * How many texts with a non-ASCII character have been written into any buffer so far: every
 * writer that can write one counts it ({@link putString}, {@link putUtf8} and the others call
 * {@link noteNonAscii}), once per text, when it wrote more bytes than the text has UTF-16 units
 * (which only non-ASCII characters do). A buffer notes the count when it begins; when the count is
 * the same at {@link Utf8Buffer.done}, every byte it holds is ASCII and a large body skips the
 * scan for non-ASCII bytes (5-6% of rendering word-level json3 for 3 hours). A count moved by
 * another buffer meanwhile only sends this one through the scan.
 */
let nonAsciiWrites = 0;

/** Counts one text with a non-ASCII character written into a buffer (see {@link nonAsciiWrites}). */
export function noteNonAscii(): void {
  nonAsciiWrites++;
}

/** A `DataView` over exactly the bytes of `bytes`. */
const viewOf = (bytes: Uint8Array): DataView =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const EMPTY_VIEW = viewOf(EMPTY);

/** A growable byte buffer; each render owns its own while it writes. */
export class Utf8Buffer {
  /** The bytes; replaced when the buffer grows, so re-read it after {@link room}. */
  bytes: Uint8Array;
  /** A `DataView` over {@link bytes} (multi-byte stores); replaced with it, re-read after {@link room}. */
  view: DataView;
  /** The number of bytes written. */
  length = 0;
  /** `bytes.length`, kept as a plain field (cheaper to read in hot loops). */
  private capacity: number;
  /** {@link nonAsciiWrites} when this buffer began. */
  private readonly nonAsciiBefore = nonAsciiWrites;

  /** `capacity`: the expected size in bytes (the buffer grows past it when needed). */
  constructor(capacity: number) {
    const wanted = Math.max(256, Math.ceil(capacity));
    if (spare !== undefined && spare.length >= wanted) {
      this.bytes = spare;
      spare = undefined;
    } else {
      this.bytes = new Uint8Array(wanted);
    }
    this.capacity = this.bytes.length;
    this.view = viewOf(this.bytes);
  }

  /** Makes room for `extra` more bytes and returns the (possibly new) array. */
  room(extra: number): Uint8Array {
    if (this.length + extra > this.capacity) {
      this.capacity = Math.max(this.capacity * 2, this.length + extra);
      const grown = new Uint8Array(this.capacity);
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
      this.view = viewOf(grown);
    }
    return this.bytes;
  }

  /** Appends ASCII text that needs no escaping. */
  ascii(text: string): void {
    this.length = putAscii(this.room(text.length), this.length, text);
  }

  /** Appends a JSON string literal escaped exactly as `JSON.stringify` escapes it. */
  jsonString(text: string): void {
    const at = putString(this.room(text.length * 3 + 2), this.length, text);
    if (at >= 0) {
      this.length = at;
    } else {
      // Rare: control characters, `"`, `\` or lone surrogates; JSON.stringify escapes them and
      // its output is well-formed UTF-16.
      const escaped = JSON.stringify(text);
      this.length = putUtf8(this.room(escaped.length * 3), this.length, escaped);
    }
  }

  /** Appends whole milliseconds ≥ 0 as seconds (see {@link putSeconds}). */
  seconds(ms: number): void {
    this.length = putSeconds(this.room(24), this.length, ms);
  }

  /** The text written so far, as one string; the buffer must not be used afterwards. */
  done(): string {
    const text = decodeBody(this.bytes, this.length, nonAsciiWrites === this.nonAsciiBefore);
    this.release();
    return text;
  }

  /**
   * The bytes written so far, as a new array of exactly that length (a copy: the working array
   * is reused); the buffer must not be used afterwards.
   */
  doneBytes(): Uint8Array {
    const bytes = this.bytes.slice(0, this.length);
    this.release();
    return bytes;
  }

  /** Gives the working array back as the spare (when worth keeping) and empties the buffer. */
  private release(): void {
    if (this.capacity <= KEEP_BYTES && (spare === undefined || spare.length < this.capacity))
      spare = this.bytes;
    this.bytes = EMPTY;
    this.view = EMPTY_VIEW;
    this.capacity = 0;
    this.length = 0;
  }
}

/**
 * The first `length` bytes of `bytes` (UTF-8) as a string. A large ASCII body, where the
 * runtime has a `Buffer`, goes through Latin-1 (the same text for ASCII; see
 * {@link EXTERNAL_MIN_BYTES}); anything else through `TextDecoder`. `ascii`: the caller knows
 * every byte is below 0x80 (they are not checked again).
 */
export function decodeBody(bytes: Uint8Array, length: number, ascii = false): string {
  if (NATIVE_BUFFER !== undefined && length >= EXTERNAL_MIN_BYTES && (ascii || isAscii(bytes, length)))
    return NATIVE_BUFFER.from(bytes.buffer, bytes.byteOffset, length).toString('latin1');
  return DECODER.decode(bytes.subarray(0, length));
}

/** Whether the first `length` bytes are all below 0x80 (32 bits at a time where aligned). */
export function isAscii(bytes: Uint8Array, length: number): boolean {
  let i = 0;
  if (bytes.byteOffset % 4 === 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset, length >>> 2);
    const n = words.length;
    // Eight words per test: the OR of the group is one branch (a non-ASCII body stops early).
    let w = 0;
    for (; w + 8 <= n; w += 8) {
      const group =
        words[w]! |
        words[w + 1]! |
        words[w + 2]! |
        words[w + 3]! |
        words[w + 4]! |
        words[w + 5]! |
        words[w + 6]! |
        words[w + 7]!;
      if ((group & 0x80808080) !== 0) return false;
    }
    for (; w < n; w++) if ((words[w]! & 0x80808080) !== 0) return false;
    i = n << 2;
  }
  for (; i < length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** Writes ASCII `text` at `at`; returns the new position. */
export function putAscii(bytes: Uint8Array, at: number, text: string): number {
  let p = at;
  for (let i = 0; i < text.length; i++) bytes[p++] = text.charCodeAt(i);
  return p;
}

/**
 * Writes a code point ≥ 0x80 as UTF-8 at `p`; returns the new position. It does not count it
 * (see {@link nonAsciiWrites}): a writer that uses it counts once per text it wrote.
 */
export function putCodePoint(bytes: Uint8Array, p: number, cp: number): number {
  if (cp < 0x800) {
    bytes[p] = 0xc0 | (cp >> 6);
    bytes[p + 1] = 0x80 | (cp & 0x3f);
    return p + 2;
  }
  if (cp < 0x10000) {
    bytes[p] = 0xe0 | (cp >> 12);
    bytes[p + 1] = 0x80 | ((cp >> 6) & 0x3f);
    bytes[p + 2] = 0x80 | (cp & 0x3f);
    return p + 3;
  }
  bytes[p] = 0xf0 | (cp >> 18);
  bytes[p + 1] = 0x80 | ((cp >> 12) & 0x3f);
  bytes[p + 2] = 0x80 | ((cp >> 6) & 0x3f);
  bytes[p + 3] = 0x80 | (cp & 0x3f);
  return p + 4;
}

/**
 * Writes `text` as a JSON string literal in UTF-8 at `at` when it needs no escaping (no `"`,
 * `\`, control character or lone surrogate; needs `3 × text.length + 2` bytes) and returns the
 * new position; returns -1 (nothing usable written) when it needs escaping.
 */
export function putString(bytes: Uint8Array, at: number, text: string): number {
  const n = text.length;
  let p = at;
  bytes[p++] = 0x22;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c < 0x20 || c === 0x22 || c === 0x5c) return -1;
      bytes[p++] = c;
    } else if (c < 0xd800 || c > 0xdfff) {
      p = putCodePoint(bytes, p, c);
    } else {
      const low = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || low < 0xdc00 || low > 0xdfff) return -1;
      p = putCodePoint(bytes, p, 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00));
      i++;
    }
  }
  bytes[p++] = 0x22;
  if (p - at !== n + 2) nonAsciiWrites++;
  return p;
}

/**
 * Writes `text` as UTF-8 at `at` (needs `3 × text.length` bytes), a lone surrogate as U+FFFD;
 * returns the new position.
 */
export function putUtf8(bytes: Uint8Array, at: number, text: string): number {
  const n = text.length;
  let p = at;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      bytes[p++] = c;
    } else if (c < 0xd800 || c > 0xdfff) {
      p = putCodePoint(bytes, p, c);
    } else {
      const low = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
        p = putCodePoint(bytes, p, 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00));
        i++;
      } else {
        p = putCodePoint(bytes, p, 0xfffd);
      }
    }
  }
  if (p - at !== n) nonAsciiWrites++;
  return p;
}
