import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBase64Url, encodeBase64Url } from './base64url.ts';

const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);
const ascii = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('encodeBase64Url', () => {
  // RFC 4648 §10 test vectors, unpadded.
  it.each([
    ['', ''],
    ['f', 'Zg'],
    ['fo', 'Zm8'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg'],
    ['fooba', 'Zm9vYmE'],
    ['foobar', 'Zm9vYmFy'],
  ])('RFC 4648 vector %j → %j', (input, expected) => {
    expect(encodeBase64Url(ascii(input))).toBe(expected);
    expect(decodeBase64Url(expected)).toEqual(ascii(input));
  });

  it('uses the URL-safe alphabet', () => {
    expect(encodeBase64Url(bytes(0xfb, 0xff, 0xbf))).toBe('-_-_');
    expect(encodeBase64Url(bytes(0, 0, 0))).toBe('AAAA');
  });
});

describe('decodeBase64Url', () => {
  it.each([
    ['padding', 'Zg=='],
    ['single padding', 'Zm8='],
    ['length 1 mod 4', 'Zm9vY'],
    ['standard alphabet +', 'ab+c'],
    ['standard alphabet /', 'ab/c'],
    ['whitespace', 'Zm9 v'],
    ['newline', 'Zm9v\nYmFy'],
    ['non-ASCII', 'Zm9vé'],
    ['non-zero trailing bits (2 chars)', 'Zh'],
    ['non-zero trailing bits (3 chars)', 'Zm9'],
    ['percent-encoding', 'Zm%39v'],
  ])('rejects %s', (_name, input) => {
    expect(decodeBase64Url(input)).toBeUndefined();
  });

  it('round-trips arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (data) => {
        const text = encodeBase64Url(data);
        expect(text).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(decodeBase64Url(text)).toEqual(data);
      }),
    );
  });

  it('is canonical: decoding then encoding gives back the input, or decoding fails', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'AZaz09-_gQw+/=. é'), maxLength: 40 }), (text) => {
        const decoded = decodeBase64Url(text);
        if (decoded !== undefined) expect(encodeBase64Url(decoded)).toBe(text);
      }),
    );
  });
});
