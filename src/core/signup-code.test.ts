import { describe, expect, it } from 'vitest';
import type { Random } from '../ports/random.ts';
import {
  codeMac,
  codeMatches,
  generateCode,
  generateSignupToken,
  isWellFormedCode,
  isWellFormedSignupToken,
} from './signup-code.ts';

/** A seeded xorshift32 source (tests only). */
function seeded(seed: number): Random {
  let x = seed | 0 || 1;
  return {
    bytes(length: number): Uint8Array {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        out[i] = x & 255;
      }
      return out;
    },
  };
}

/** A source that replays `bytes` and then repeats the last one. */
function scripted(bytes: number[]): Random {
  let i = 0;
  return {
    bytes: (length) => Uint8Array.from({ length }, () => bytes[Math.min(i++, bytes.length - 1)]!),
  };
}

const TOKEN = 'sut_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';

describe('codes and tokens', () => {
  it('generates 6 digits, every digit in every position over 10,000 seeded draws', () => {
    const random = seeded(42);
    const seen = Array.from({ length: 6 }, () => new Set<string>());
    for (let i = 0; i < 10_000; i++) {
      const code = generateCode(random);
      expect(code).toMatch(/^[0-9]{6}$/);
      for (const [position, digit] of [...code].entries()) seen[position]!.add(digit);
    }
    for (const digits of seen) expect(digits.size).toBe(10);
  });

  it('rejects bytes ≥ 250 and keeps leading zeros', () => {
    expect(generateCode(scripted([250, 255, 0, 10, 249, 20, 30, 40, 5]))).toBe('009000');
    expect(generateCode(scripted([251, 7, 252, 1, 2, 3, 4, 5]), 4)).toBe('7123');
  });

  it('takes a length and refuses nonsense or a broken source', () => {
    expect(generateCode(seeded(7), 8)).toMatch(/^[0-9]{8}$/);
    expect(() => generateCode(seeded(7), 0)).toThrow(RangeError);
    expect(() => generateCode(scripted([255]))).toThrow(/unusable/);
  });

  it('checks code and token shapes', () => {
    expect(isWellFormedCode('012345')).toBe(true);
    expect(isWellFormedCode('12345')).toBe(false);
    expect(isWellFormedCode('12345a')).toBe(false);
    expect(isWellFormedCode(123456)).toBe(false);
    expect(isWellFormedCode('１２３４５６')).toBe(false);
    const token = generateSignupToken(seeded(1));
    expect(isWellFormedSignupToken(token)).toBe(true);
    expect(generateSignupToken(seeded(2))).not.toBe(token);
    expect(isWellFormedSignupToken(`${token}x`)).toBe(false);
    expect(isWellFormedSignupToken('sut_../../etc/passwd')).toBe(false);
  });

  it('stores codes only as a token-bound HMAC and compares it', async () => {
    const secret = new TextEncoder().encode('s3cret');
    const mac = await codeMac(secret, TOKEN, '012345');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(mac).not.toContain('012345');
    expect(await codeMac(secret, TOKEN, '012345')).toBe(mac);
    expect(await codeMac(secret, `${TOKEN}B`, '012345')).not.toBe(mac);
    expect(await codeMatches(secret, TOKEN, '012345', mac)).toBe(true);
    expect(await codeMatches(secret, TOKEN, '012346', mac)).toBe(false);
    expect(await codeMatches(secret, TOKEN, '012345', mac.slice(0, 63))).toBe(false);
    expect(await codeMatches(secret, TOKEN, '012345', `${mac}0`)).toBe(false);
    expect(await codeMatches(new TextEncoder().encode('other'), TOKEN, '012345', mac)).toBe(false);
  });
});
