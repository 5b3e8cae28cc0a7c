/**
 * Text written into a {@link Utf8Buffer} through small strings: the byte output of flowing text
 * (the text and Markdown formats), without a string of the whole body.
 * @module
 */
import { noteNonAscii, type Utf8Buffer } from './utf8-buffer.ts';

const ENCODER = new TextEncoder();

/** Whether `text` ends with the first half of a surrogate pair. */
function endsWithHighSurrogate(text: string): boolean {
  const last = text.charCodeAt(text.length - 1);
  return last >= 0xd800 && last <= 0xdbff;
}

/**
 * Pending text is encoded once it reaches this many UTF-16 units: large enough that the
 * per-call cost of `encodeInto` vanishes, far below the 128 KiB past which V8 makes a string
 * a large object (measured: 8-16 Ki units are fastest on a 1-10 h transcript).
 */
const CHUNK_UNITS = 8 * 1024;

/**
 * Writes text into a {@link Utf8Buffer} through small strings: pieces are concatenated up to
 * {@link CHUNK_UNITS}, then encoded natively with `TextEncoder.encodeInto` (several times
 * faster per character than a JS loop). No string ever holds the whole body, so the cost per
 * byte does not grow with it. The bytes are `TextEncoder.encode` of all the pieces joined: a
 * chunk never ends between the halves of a surrogate pair, and both write a lone surrogate as
 * U+FFFD.
 */
export class ChunkedUtf8Writer {
  private pending = '';

  constructor(readonly buffer: Utf8Buffer) {}

  /** Appends a piece. */
  write(piece: string): void {
    this.pending += piece;
    // Never cut after a high surrogate: its pair may start the next piece.
    if (this.pending.length >= CHUNK_UNITS && !endsWithHighSurrogate(this.pending)) this.flush();
  }

  /** Encodes the pending text into the buffer; call it before the buffer is read. */
  flush(): void {
    const text = this.pending;
    if (text === '') return;
    const buffer = this.buffer;
    const bytes = buffer.room(text.length * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
    const written = ENCODER.encodeInto(text, bytes.subarray(buffer.length)).written;
    // UTF-8 takes one byte per UTF-16 unit exactly when every unit is ASCII.
    if (written !== text.length) noteNonAscii();
    buffer.length += written;
    this.pending = '';
  }
}
