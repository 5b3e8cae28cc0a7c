import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fragment,
  putConfidenceKey,
  putEndKey,
  putFragment,
  putOffsetKey,
  putStartKey,
  putUtf8Key,
  putWordKey,
} from './json-keys.ts';

const AT = 5;

/** What a writer put at AT (the bytes before AT must stay untouched: they are checked). */
function written(write: (view: DataView, at: number) => number): string {
  const bytes = new Uint8Array(64).fill(0x2a); // *
  const end = write(new DataView(bytes.buffer), AT);
  expect(String.fromCharCode(...bytes.subarray(0, AT))).toBe('*****');
  return String.fromCharCode(...bytes.subarray(AT, end));
}

describe('JSON keys', () => {
  it('write exactly their key', () => {
    expect(written((v, p) => putWordKey(v, p, true))).toBe('{"word":');
    expect(written((v, p) => putWordKey(v, p, false))).toBe(',{"word":');
    expect(written(putStartKey)).toBe(',"start":');
    expect(written(putEndKey)).toBe(',"end":');
    expect(written((v, p) => putUtf8Key(v, p, true))).toBe('{"utf8":');
    expect(written((v, p) => putUtf8Key(v, p, false))).toBe(',{"utf8":');
    expect(written(putOffsetKey)).toBe(',"tOffsetMs":');
    expect(written(putConfidenceKey)).toBe(',"acAsrConf":');
  });

  it('a fragment writes its text and returns the position after it, whatever its length', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
          minLength: 1,
          maxLength: 40,
        }),
        (text) => {
          expect(written((v, p) => putFragment(v, p, fragment(text)))).toBe(text);
        },
      ),
    );
  });
});
