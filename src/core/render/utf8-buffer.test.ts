import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { putPlainCueText } from './cue-text.ts';
import { putInteger, putJsonNumber, putSeconds } from './digits.ts';
import { decodeBody, isAscii, putString, putUtf8, Utf8Buffer } from './utf8-buffer.ts';
import { ChunkedUtf8Writer } from './utf8-chunks.ts';

const decode = (bytes: Uint8Array, end: number): string => new TextDecoder().decode(bytes.subarray(0, end));

function written(write: (bytes: Uint8Array) => number): string {
  const bytes = new Uint8Array(4096);
  return decode(bytes, write(bytes));
}

describe('numbers', () => {
  it.each([
    0,
    1,
    9,
    10,
    99,
    100,
    999,
    1000,
    12_345,
    999_999,
    1_000_000,
    10_800_000,
    123_456_789,
    999_999_999,
    1e9,
    2 ** 31,
    1e15 - 1,
  ])('putInteger(%d) prints like String()', (n) => {
    expect(written((b) => putInteger(b, 0, n))).toBe(String(n));
  });

  it('putSeconds(ms) prints like JSON.stringify(ms / 1000)', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 100_000_000 }), fc.integer({ min: 0, max: 1e15 - 1 })),
        (ms) => {
          expect(written((b) => putSeconds(b, 0, ms))).toBe(JSON.stringify(ms / 1000));
        },
      ),
    );
    for (const ms of [0, 1, 10, 100, 500, 1000, 1001, 1010, 1100, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 5]) {
      expect(written((b) => putSeconds(b, 0, ms))).toBe(JSON.stringify(ms / 1000));
    }
  });

  it('putJsonNumber prints like JSON.stringify', () => {
    for (const n of [
      0,
      -0,
      7,
      -7,
      10_800_000,
      999_999_999,
      1e9,
      2 ** 31 - 1,
      2 ** 31,
      -(2 ** 31),
      1.5,
      1e21,
      2 ** 53,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      0.1 + 0.2,
      -1.2345678901234567e-308,
    ]) {
      expect(written((b) => putJsonNumber(b, 0, n))).toBe(JSON.stringify(n));
    }
    fc.assert(
      fc.property(fc.oneof(fc.double(), fc.integer()), (n) => {
        expect(written((b) => putJsonNumber(b, 0, n))).toBe(JSON.stringify(n));
      }),
    );
  });
});

describe('strings', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', '"', '\\', '\n', '\u2028', '\ud800', 'a\udc00b', '😀', 'é', '\u0000\u001f\u007f'),
  );

  it('Utf8Buffer.jsonString writes exactly JSON.stringify', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const out = new Utf8Buffer(1);
        out.jsonString(text);
        expect(out.done()).toBe(JSON.stringify(text));
      }),
    );
  });

  it('putString refuses what needs escaping, writes the rest as is', () => {
    for (const text of ['"', '\\', '\n', '\u0001', 'x\ud800', '\udc00']) {
      expect(putString(new Uint8Array(64), 0, text)).toBe(-1);
    }
    expect(written((b) => putString(b, 0, 'héllo 😀 日本'))).toBe('"héllo 😀 日本"');
  });

  it('putUtf8 encodes like TextEncoder (lone surrogates → U+FFFD)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const expected = new TextDecoder().decode(new TextEncoder().encode(text));
        expect(written((b) => putUtf8(b, 0, text))).toBe(expected);
      }),
    );
  });

  it('grows past its initial capacity', () => {
    const out = new Utf8Buffer(0);
    const parts: string[] = [];
    for (let i = 0; i < 2000; i++) {
      out.ascii(`${i},`);
      out.jsonString('é');
      parts.push(`${i},"é"`);
    }
    expect(out.done()).toBe(parts.join(''));
  });

  it('reuses its array across renders without mixing their contents', () => {
    const first = new Utf8Buffer(1000);
    first.ascii('x'.repeat(900));
    expect(first.done()).toBe('x'.repeat(900));
    const outer = new Utf8Buffer(10);
    const inner = new Utf8Buffer(10);
    outer.ascii('outer');
    inner.ascii('inner');
    expect(inner.done()).toBe('inner');
    outer.ascii('!');
    expect(outer.done()).toBe('outer!');
    const again = new Utf8Buffer(10);
    again.ascii('ab');
    expect(again.done()).toBe('ab');
  });

  it('doneBytes gives a copy of exactly the bytes written, never the reused array', () => {
    const first = new Utf8Buffer(1000);
    first.ascii('abc');
    first.jsonString('é');
    const bytes = first.doneBytes();
    expect(bytes).toEqual(new TextEncoder().encode('abc"é"'));
    expect(bytes.buffer.byteLength).toBe(bytes.length);
    const next = new Utf8Buffer(1000); // takes the array `first` gave back
    next.ascii('xyz!!!!!');
    expect(next.doneBytes()).toEqual(new TextEncoder().encode('xyz!!!!!'));
    expect(new TextDecoder().decode(bytes)).toBe('abc"é"');
  });
});

describe('large bodies', () => {
  // Past about 1 MB an ASCII body is decoded as Latin-1 where the runtime has a Buffer.
  const size = 1_200_003;
  const big = (): Uint8Array => new TextEncoder().encode('ab c'.repeat(size / 4 + 1).slice(0, size));

  it('decodes a large ASCII body to the same text as TextDecoder', () => {
    const bytes = big();
    expect(decodeBody(bytes, bytes.length)).toBe(decode(bytes, bytes.length));
    expect(decodeBody(bytes, 1_100_001)).toBe(decode(bytes, 1_100_001));
  });

  it.each([0, 5, 31, 32, 40_000, size - 40, size - 3, size - 2])(
    'decodes a large body with a non-ASCII character at byte %i as UTF-8',
    (at) => {
      const bytes = big();
      const text = `${decode(bytes, at)}é${decode(bytes.subarray(at + 2), size - at - 2)}`;
      bytes.set(new TextEncoder().encode('é'), at);
      expect(isAscii(bytes, size)).toBe(false);
      expect(decodeBody(bytes, size)).toBe(text);
    },
  );

  it('isAscii agrees with a byte-by-byte check, at any offset and length', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(7), (raw, offset) => {
        const bytes = new Uint8Array(raw.length + offset).subarray(offset);
        bytes.set(raw);
        for (let length = Math.max(0, raw.length - 9); length <= raw.length; length++)
          expect(isAscii(bytes, length)).toBe(raw.subarray(0, length).every((b) => b < 0x80));
      }),
    );
  });

  // A buffer that no character past ASCII was written into skips the scan (see nonAsciiWrites):
  // each way a non-ASCII character can get in must still make it decode as UTF-8.
  it.each([
    ['a JSON string', (out: Utf8Buffer) => out.jsonString('né')],
    ['a JSON string that needs escaping', (out: Utf8Buffer) => out.jsonString('"é"')],
    [
      'a cue text',
      (out: Utf8Buffer) => (out.length = putPlainCueText(out.room(9), out.length, 'fiancé', true)),
    ],
    ['UTF-8 text', (out: Utf8Buffer) => (out.length = putUtf8(out.room(9), out.length, '世\ud800'))],
    [
      'chunked text',
      (out: Utf8Buffer) => {
        const writer = new ChunkedUtf8Writer(out);
        writer.write('ça');
        writer.flush();
      },
    ],
  ] as const)('a large body with %s in it decodes as UTF-8', (_, write) => {
    const out = new Utf8Buffer(size);
    out.ascii('a'.repeat(size));
    write(out);
    out.ascii('z');
    const bytes = out.bytes.slice(0, out.length);
    expect(out.done()).toBe(decode(bytes, bytes.length));
  });

  it('a large body decodes as UTF-8 when another buffer began after its non-ASCII text', () => {
    const first = new Utf8Buffer(size);
    first.jsonString('é');
    first.ascii('a'.repeat(size));
    const second = new Utf8Buffer(16);
    second.ascii('plain');
    expect(second.done()).toBe('plain');
    expect(first.done()).toBe(`"é"${'a'.repeat(size)}`);
  });

  it('a large string stays as it was when the buffer is reused', () => {
    const first = new Utf8Buffer(size);
    first.ascii('x'.repeat(size));
    const text = first.done();
    const next = new Utf8Buffer(size); // takes the array `first` gave back
    next.ascii('y'.repeat(size));
    expect(next.done()).toBe('y'.repeat(size));
    expect(text).toBe('x'.repeat(size));
  });
});
