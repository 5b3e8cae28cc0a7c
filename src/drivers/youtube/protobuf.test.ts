import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeBase64,
  decodeMessage,
  decodeToken,
  encodeBase64,
  encodeBase64UrlSafe,
  encodeMessage,
  type ProtoField,
  protoField,
  protoMessage,
  protoString,
} from './protobuf.ts';

const hex = (bytes: Uint8Array | undefined): string =>
  bytes ? [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(' ') : 'undefined';

describe('protobuf writer', () => {
  it.each<[string, ProtoField[], string]>([
    ['small varint', [[1, 3]], '08 03'],
    ['multi-byte varint', [[1, 300]], '08 ac 02'],
    ['boolean', [[30, true]], 'f0 01 01'],
    ['string', [[2, 'UC']], '12 02 55 43'],
    ['utf-8 string', [[1, 'ä']], '0a 02 c3 a4'],
    ['raw bytes', [[3, Uint8Array.of(1, 2)]], '1a 02 01 02'],
    [
      'nested message',
      [
        [
          2,
          [
            [1, 3],
            [2, 1],
          ],
        ],
      ],
      '12 04 08 03 10 01',
    ],
    ['huge field number', [[80226972, [[2, 'x']]]], 'e2 a9 85 b2 02 03 12 01 78'],
    [
      'zero and 2^53-1',
      [
        [1, 0],
        [2, Number.MAX_SAFE_INTEGER],
      ],
      '08 00 10 ff ff ff ff ff ff ff 0f',
    ],
  ])('encodes %s', (_name, fields, expected) => {
    expect(hex(encodeMessage(fields))).toBe(expected);
  });

  it('rejects values that are not varints', () => {
    expect(() => encodeMessage([[1, -1]])).toThrow(RangeError);
    expect(() => encodeMessage([[1, 1.5]])).toThrow(RangeError);
  });
});

describe('protobuf reader', () => {
  it('reads varint, length-delimited and fixed fields', () => {
    const bytes = Uint8Array.of(
      0x08,
      0xac,
      0x02,
      0x12,
      0x01,
      0x78,
      0x1d,
      1,
      0,
      0,
      0,
      0x21,
      2,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    );
    const entries = decodeMessage(bytes)!;
    expect(entries.map((e) => [e.field, e.wire])).toEqual([
      [1, 0],
      [2, 2],
      [3, 5],
      [4, 1],
    ]);
    expect(protoField(entries, 1)?.value).toBe(300);
    expect(protoString(entries, 2)).toBe('x');
    expect(protoField(entries, 3)?.value).toBe(1);
    expect(protoField(entries, 4)?.value).toBe(2);
  });

  it.each([
    ['truncated varint', Uint8Array.of(0x08, 0x80)],
    ['length past the end', Uint8Array.of(0x12, 0x05, 0x01)],
    ['group wire type', Uint8Array.of(0x0b)],
    ['field number 0', Uint8Array.of(0x00, 0x01)],
    ['truncated fixed32', Uint8Array.of(0x0d, 1, 2)],
  ])('returns undefined for %s', (_name, bytes) => {
    expect(decodeMessage(bytes)).toBeUndefined();
  });

  it('reads nested messages and rejects invalid UTF-8 strings', () => {
    const entries = decodeMessage(
      encodeMessage([
        [2, [[1, 'inner']]],
        [3, Uint8Array.of(0xff)],
      ]),
    );
    expect(protoString(protoMessage(entries, 2), 1)).toBe('inner');
    expect(protoString(entries, 3)).toBeUndefined();
    expect(protoMessage(entries, 9)).toBeUndefined();
    expect(protoString(undefined, 1)).toBeUndefined();
  });

  it('round-trips any message (law: decode ∘ encode = id)', () => {
    const field = fc.tuple(
      fc.integer({ min: 1, max: 536_870_911 }),
      fc.oneof(
        fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
        fc.string(),
        fc.uint8Array({ maxLength: 40 }),
      ),
    );
    fc.assert(
      fc.property(fc.array(field, { maxLength: 8 }), (fields) => {
        const decoded = decodeMessage(encodeMessage(fields))!;
        expect(decoded.map((e) => e.field)).toEqual(fields.map(([f]) => f));
        decoded.forEach((entry, i) => {
          const value = fields[i]![1];
          if (typeof value === 'number') expect(entry.value).toBe(value);
          else if (typeof value === 'string') expect(protoString([entry], entry.field)).toBe(value);
          else expect([...(entry.value as Uint8Array)]).toEqual([...value]);
        });
      }),
    );
  });
});

describe('base64', () => {
  it('encodes both alphabets, with and without padding', () => {
    const bytes = Uint8Array.of(0x12, 0x02, 0x10, 0x03, 0xf0, 0x01, 0x01);
    expect(encodeBase64(bytes)).toBe('EgIQA/ABAQ==');
    expect(encodeBase64UrlSafe(bytes)).toBe('EgIQA_ABAQ==');
    expect(encodeBase64UrlSafe(bytes, false)).toBe('EgIQA_ABAQ');
    expect(encodeBase64(new Uint8Array())).toBe('');
  });

  it.each([
    ['standard', 'EgIQA/ABAQ=='],
    ['url-safe', 'EgIQA_ABAQ=='],
    ['unpadded', 'EgIQA_ABAQ'],
    ['percent-encoded padding', 'EgIQA_ABAQ%3D%3D'],
  ])('decodes %s', (_name, text) => {
    expect(hex(decodeBase64(text))).toBe('12 02 10 03 f0 01 01');
  });

  it.each(['a', 'ab!c', 'é==='])('rejects %j', (text) => {
    expect(decodeBase64(text)).toBeUndefined();
  });

  it('matches btoa and round-trips (laws)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(encodeBase64(bytes)).toBe(btoa(String.fromCharCode(...bytes)));
        expect([...decodeBase64(encodeBase64(bytes))!]).toEqual([...bytes]);
        expect([...decodeBase64(encodeBase64UrlSafe(bytes, false))!]).toEqual([...bytes]);
      }),
    );
  });

  it('decodes a percent-encoded protobuf token', () => {
    const token = encodeURIComponent(encodeBase64(encodeMessage([[80226972, [[2, 'UCx']]]])));
    expect(protoString(protoMessage(decodeToken(token), 80226972), 2)).toBe('UCx');
    expect(decodeToken('%E0%A4%A')).toBeUndefined();
    expect(decodeToken('!!!!')).toBeUndefined();
  });
});
