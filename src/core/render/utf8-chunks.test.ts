import { describe, expect, it } from 'vitest';
import { Utf8Buffer } from './utf8-buffer.ts';
import { ChunkedUtf8Writer } from './utf8-chunks.ts';

const encode = (text: string) => new TextEncoder().encode(text);

function written(pieces: readonly string[]): Uint8Array {
  const buffer = new Utf8Buffer(16);
  const writer = new ChunkedUtf8Writer(buffer);
  for (const piece of pieces) writer.write(piece);
  writer.flush();
  return buffer.doneBytes();
}

describe('ChunkedUtf8Writer', () => {
  it('gives the bytes of the joined pieces over many chunks, with non-ASCII text', () => {
    const pieces = Array.from({ length: 5_000 }, (_, i) => `${i} héllo 世界 😀\n`);
    expect(written(pieces)).toEqual(encode(pieces.join('')));
  });

  it('keeps a surrogate pair whole when its halves arrive in two pieces at a chunk edge', () => {
    // The first piece fills a chunk and ends with a high surrogate; the second starts with its pair.
    const pieces = [`${'a'.repeat(8 * 1024 - 1)}\uD83D`, '\uDE00 after'];
    const bytes = written(pieces);
    expect(bytes).toEqual(encode(pieces.join('')));
    expect(new TextDecoder().decode(bytes).endsWith('😀 after')).toBe(true);
  });

  it('writes lone surrogates as U+FFFD, like TextEncoder', () => {
    const pieces = ['x\uD800', 'y', '\uDC00z', `${'b'.repeat(9_000)}\uD800`];
    expect(written(pieces)).toEqual(encode(pieces.join('')));
  });
});
