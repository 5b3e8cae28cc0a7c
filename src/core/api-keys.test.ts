import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Random } from '../ports/random.ts';
import {
  API_KEY_LENGTH,
  apiKeyDigest,
  BASE62_ALPHABET,
  crc32,
  decodeBase62,
  encodeBase62,
  generateApiKey,
  isWellFormedApiKey,
  keyHint,
  newId,
  randomBase62,
} from './api-keys.ts';

/** A deterministic Random (mulberry32); never use outside tests. */
function seededRandom(seed: number): Random & { calls: number } {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
  return {
    calls: 0,
    bytes(length: number): Uint8Array {
      this.calls++;
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = next() & 0xff;
      return out;
    },
  };
}

/** A Random that replays the given bytes, then repeats the last one. */
function scriptedRandom(values: number[]): Random {
  let at = 0;
  return {
    bytes(length: number): Uint8Array {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) out[i] = values[Math.min(at++, values.length - 1)]!;
      return out;
    },
  };
}

// Independent vectors (Python zlib.crc32 + hashlib.sha256).
const KNOWN_KEY = 'tsk_0123456789ABCDEFGHIJKLMNOPQRSTUV1ggZdL';
const KNOWN_KEY_2 = 'tsk_abcdefghijklmnopqrstuvwxyz0123451nc0VA';

describe('crc32', () => {
  it.each<[string | Uint8Array, number]>([
    ['123456789', 0xcbf43926],
    ['', 0],
    ['The quick brown fox jumps over the lazy dog', 0x414fa339],
    ['0123456789ABCDEFGHIJKLMNOPQRSTUV', 0x5c339a43],
    [new Uint8Array([0]), 0xd202ef8d],
    [new Uint8Array([0xff, 0xff, 0xff, 0xff]), 0xffffffff],
  ])('crc32(%j) = %i', (input, expected) => {
    expect(crc32(input)).toBe(expected);
  });

  it('reads strings as UTF-8', () => {
    expect(crc32('é')).toBe(crc32(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('base62', () => {
  it.each([
    [0, 6, '000000'],
    [61, 2, '0z'],
    [62, 2, '10'],
    [0xffffffff, 6, '4gfFC3'],
    [62 ** 6 - 1, 6, 'zzzzzz'],
  ])('encodeBase62(%i, %i) = %s', (value, width, expected) => {
    expect(encodeBase62(value, width)).toBe(expected);
    expect(decodeBase62(expected)).toBe(value);
  });

  it('refuses values that do not fit', () => {
    expect(() => encodeBase62(62 ** 6, 6)).toThrow(RangeError);
    expect(() => encodeBase62(-1, 6)).toThrow(RangeError);
    expect(() => encodeBase62(1.5, 6)).toThrow(RangeError);
  });

  it.each(['', '+', 'abc!', 'é', '123456789'])('decodeBase62(%j) is undefined', (text) => {
    expect(decodeBase62(text)).toBeUndefined();
  });

  it('round-trips every 32-bit value at width 6', () => {
    fc.assert(
      fc.property(fc.nat({ max: 0xffffffff }), (value) => {
        const text = encodeBase62(value, 6);
        expect(text).toHaveLength(6);
        expect(decodeBase62(text)).toBe(value);
      }),
    );
  });

  it('randomBase62 rejects bytes ≥ 248 and maps the rest with % 62', () => {
    expect(randomBase62(scriptedRandom([248, 255, 0, 61, 62, 247]), 4)).toBe('0z0z');
  });

  it('randomBase62 is close to uniform', () => {
    const counts = new Map<string, number>();
    for (const ch of randomBase62(seededRandom(7), 62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(160);
  });

  it('randomBase62 gives up on a random source that only yields rejected bytes', () => {
    expect(() => randomBase62(scriptedRandom([255]), 8)).toThrow(/unusable/);
  });
});

describe('generateApiKey', () => {
  it('makes well-formed keys of the documented shape', () => {
    const random = seededRandom(1);
    for (let i = 0; i < 200; i++) {
      const key = generateApiKey(random);
      expect(key).toMatch(/^tsk_[0-9A-Za-z]{38}$/);
      expect(key).toHaveLength(API_KEY_LENGTH);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('is deterministic for a given random source and differs between draws', () => {
    expect(generateApiKey(seededRandom(42))).toBe(generateApiKey(seededRandom(42)));
    const random = seededRandom(42);
    expect(generateApiKey(random)).not.toBe(generateApiKey(random));
  });

  it('appends the CRC32 of the random part in 6 base62 digits', () => {
    const key = generateApiKey(
      scriptedRandom([...'0123456789ABCDEFGHIJKLMNOPQRSTUV'].map((c) => BASE62_ALPHABET.indexOf(c))),
    );
    expect(key).toBe(KNOWN_KEY);
  });
});

describe('isWellFormedApiKey', () => {
  it.each([KNOWN_KEY, KNOWN_KEY_2])('accepts %s', (key) => {
    expect(isWellFormedApiKey(key)).toBe(true);
  });

  it.each([
    ['empty', ''],
    ['prefix only', 'tsk_'],
    ['wrong prefix', KNOWN_KEY.replace('tsk_', 'tsx_')],
    ['upper-case prefix', KNOWN_KEY.replace('tsk_', 'TSK_')],
    ['too short', KNOWN_KEY.slice(0, -1)],
    ['too long', `${KNOWN_KEY}0`],
    ['surrounding space', ` ${KNOWN_KEY.slice(1)}`],
    ['non-base62 in body', KNOWN_KEY.replace('ABC', 'A-C')],
    ['non-base62 in checksum', `${KNOWN_KEY.slice(0, -1)}_`],
    ['non-ASCII look-alike', KNOWN_KEY.replace('A', 'А')],
    ['swapped adjacent characters', KNOWN_KEY.replace('01', '10')],
    ['checksum of another key', KNOWN_KEY.slice(0, 36) + KNOWN_KEY_2.slice(36)],
    ['checksum above 2^32', `${KNOWN_KEY.slice(0, 36)}zzzzzz`],
    ['scheme left in', `Bearer ${KNOWN_KEY}`.slice(0, API_KEY_LENGTH)],
  ])('refuses %s', (_name, key) => {
    expect(isWellFormedApiKey(key)).toBe(false);
  });

  it('refuses non-strings without throwing', () => {
    expect(isWellFormedApiKey(undefined as unknown as string)).toBe(false);
    expect(isWellFormedApiKey(42 as unknown as string)).toBe(false);
  });

  it('refuses every single-character change of a generated key', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: API_KEY_LENGTH - 1 }),
        fc.constantFrom(...BASE62_ALPHABET, '_', '-', ' ', 'é'),
        (seed, at, ch) => {
          const key = generateApiKey(seededRandom(seed));
          fc.pre(key[at] !== ch);
          expect(isWellFormedApiKey(key.slice(0, at) + ch + key.slice(at + 1))).toBe(false);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses random strings of the right shape (checksum does the work)', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^tsk_[0-9A-Za-z]{38}$/), (key) => {
        // A random tail matches its checksum with probability 62^-6 ≈ 2^-35.7.
        expect(isWellFormedApiKey(key)).toBe(false);
      }),
    );
  });
});

describe('apiKeyDigest', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [KNOWN_KEY, 'd379fd9b9046128b7c95307b6f77433728013b4a782771bec26d687f2a879a2b'],
    [KNOWN_KEY_2, '82aed75534accacb92bfd2e34208234f3555d8c7d975c763647b6cee1bd69cd7'],
  ])('sha256(%j)', async (key, expected) => {
    expect(await apiKeyDigest(key)).toBe(expected);
  });
});

describe('newId', () => {
  it.each([
    ['acc', 20, /^acc_[0-9A-Za-z]{20}$/],
    ['key_', 20, /^key_[0-9A-Za-z]{20}$/],
    ['job', 12, /^job_[0-9A-Za-z]{12}$/],
    ['', 16, /^[0-9A-Za-z]{16}$/],
  ])('newId(%j, random, %i)', (prefix, length, pattern) => {
    expect(newId(prefix, seededRandom(3), length)).toMatch(pattern);
  });

  it('defaults to 20 characters and does not repeat', () => {
    const random = seededRandom(9);
    const ids = new Set(Array.from({ length: 1000 }, () => newId('req', random)));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(id).toMatch(/^req_[0-9A-Za-z]{20}$/);
  });

  it('refuses bad prefixes and lengths', () => {
    expect(() => newId('a b', seededRandom(1))).toThrow(TypeError);
    expect(() => newId('acc', seededRandom(1), 0)).toThrow(RangeError);
    expect(() => newId('acc', seededRandom(1), 129)).toThrow(RangeError);
    expect(() => newId('acc', seededRandom(1), 2.5)).toThrow(RangeError);
  });
});

describe('keyHint', () => {
  it.each([
    [KNOWN_KEY, 'tsk_01…gZdL'],
    ['short', '…'],
    ['', '…'],
  ])('keyHint(%j) = %j', (key, expected) => {
    expect(keyHint(key)).toBe(expected);
  });

  it('never shows the random part beyond its first two characters', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const key = generateApiKey(seededRandom(seed));
        const hint = keyHint(key);
        expect(hint).toBe(`${key.slice(0, 6)}…${key.slice(-4)}`);
        expect(hint).not.toContain(key.slice(6, 36));
      }),
    );
  });
});
