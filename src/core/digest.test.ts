import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromHex, hmacSha256, sha256Hex, toHex } from './digest.ts';

describe('digest', () => {
  it('computes SHA-256 and HMAC-SHA256 test vectors', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    // RFC 4231 test case 2
    const mac = await hmacSha256(new TextEncoder().encode('Jefe'), 'what do ya want for nothing?');
    expect(toHex(mac)).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });

  it('round-trips hex and rejects what is not hex of whole bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array(), (bytes) => {
        expect(fromHex(toHex(bytes))).toEqual(bytes);
      }),
    );
    expect(fromHex('abc')).toBeUndefined();
    expect(fromHex('zz')).toBeUndefined();
  });
});
