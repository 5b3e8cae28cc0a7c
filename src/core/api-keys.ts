/**
 * API keys and random identifiers.
 *
 * A key is `tsk_` + 32 random base62 characters + 6 base62 characters of the CRC32 of those 32
 * characters (decisions.md), so a mistyped or truncated key is rejected without a storage lookup.
 * Only {@link apiKeyDigest} of a key is ever stored.
 * @module
 */
import type { Random } from '../ports/random.ts';
import { sha256Hex } from './digest.ts';

/** The prefix of every API key. */
const API_KEY_PREFIX = 'tsk_';
/** Random base62 characters in a key (≈ 190 bits). */
const API_KEY_RANDOM_LENGTH = 32;
/** Base62 characters of the checksum (62⁶ > 2³²). */
const API_KEY_CHECKSUM_LENGTH = 6;
/** Total length of a key: 4 + 32 + 6 = 42. */
export const API_KEY_LENGTH: number = API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH;

/** The base62 digits, in value order. */
export const BASE62_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Character code → base62 value, or -1. */
const BASE62_VALUES: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 62; i++) table[BASE62_ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) lookup table. */
const CRC_TABLE: Uint32Array = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * CRC-32 (the zlib/PNG/Ethernet one) as an unsigned 32-bit integer.
 * A string is read as UTF-8. `crc32('123456789') === 0xcbf43926`.
 */
export function crc32(data: Uint8Array | string): number {
  const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : data;
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** CRC-32 of the character codes `text[start..end)`, which the caller knows to be ASCII. */
function crc32Ascii(text: string, start: number, end: number): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ text.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The base62 value of one character code, or -1. */
function base62Value(code: number): number {
  return code < 128 ? BASE62_VALUES[code]! : -1;
}

/**
 * Writes `value` (a non-negative safe integer) as exactly `width` base62 digits, most significant
 * first, left-padded with `0`. Throws `RangeError` when it does not fit.
 */
export function encodeBase62(value: number, width: number): string {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new RangeError('value must be a non-negative safe integer');
  let out = '';
  let rest = value;
  for (let i = 0; i < width; i++) {
    out = BASE62_ALPHABET[rest % 62]! + out;
    rest = Math.floor(rest / 62);
  }
  if (rest !== 0) throw new RangeError(`${value} does not fit in ${width} base62 digits`);
  return out;
}

/** Reads base62 digits (at most 8, so the value stays exact); `undefined` for anything else. */
export function decodeBase62(text: string): number | undefined {
  if (text.length === 0 || text.length > 8) return undefined;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = base62Value(text.charCodeAt(i));
    if (digit < 0) return undefined;
    value = value * 62 + digit;
  }
  return value;
}

/**
 * `length` uniformly distributed base62 characters from `random`. Bytes ≥ 248 (= 4 × 62) are
 * rejected so that `byte % 62` is unbiased.
 */
export function randomBase62(random: Random, length: number): string {
  if (!Number.isInteger(length) || length < 0) throw new RangeError('length must be a non-negative integer');
  let out = '';
  for (let round = 0; out.length < length; round++) {
    if (round >= 64) throw new Error('Random source keeps returning unusable bytes');
    const needed = length - out.length;
    const bytes = random.bytes(needed + (needed >> 3) + 4);
    for (let i = 0; i < bytes.length && out.length < length; i++) {
      const byte = bytes[i]!;
      if (byte < 248) out += BASE62_ALPHABET[byte % 62]!;
    }
  }
  return out;
}

/** A new API key: `tsk_` + 32 random base62 characters + their 6-character CRC32 checksum. */
export function generateApiKey(random: Random): string {
  const body = randomBase62(random, API_KEY_RANDOM_LENGTH);
  return API_KEY_PREFIX + body + encodeBase62(crc32Ascii(body, 0, body.length), API_KEY_CHECKSUM_LENGTH);
}

/**
 * True when `key` has the shape of a tubescribe key (prefix, length, alphabet) and its checksum
 * matches. Allocation-free; runs on every request before any storage lookup.
 */
export function isWellFormedApiKey(key: string): boolean {
  if (typeof key !== 'string' || key.length !== API_KEY_LENGTH || !key.startsWith(API_KEY_PREFIX))
    return false;
  const bodyEnd = API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH;
  for (let i = API_KEY_PREFIX.length; i < bodyEnd; i++) {
    if (base62Value(key.charCodeAt(i)) < 0) return false;
  }
  let checksum = 0;
  for (let i = bodyEnd; i < API_KEY_LENGTH; i++) {
    const digit = base62Value(key.charCodeAt(i));
    if (digit < 0) return false;
    checksum = checksum * 62 + digit;
  }
  return checksum === crc32Ascii(key, API_KEY_PREFIX.length, bodyEnd);
}

/** The lowercase hex SHA-256 of the key's UTF-8 bytes: the only form of a key that is stored. */
export async function apiKeyDigest(key: string): Promise<string> {
  return sha256Hex(key);
}

/**
 * A new random identifier: `prefix` + `_` + `length` base62 characters (default 20, ≈ 119 bits),
 * e.g. `newId('acc', random)` → `acc_3kTq…`. A prefix that already ends in `_` gets no second one;
 * an empty prefix gives the bare random part.
 */
export function newId(prefix: string, random: Random, length = 20): string {
  if (!/^[A-Za-z0-9_-]*$/.test(prefix)) throw new TypeError('id prefix must be [A-Za-z0-9_-]*');
  if (!Number.isInteger(length) || length < 1 || length > 128)
    throw new RangeError('id length must be 1–128');
  const head = prefix === '' || prefix.endsWith('_') ? prefix : `${prefix}_`;
  return head + randomBase62(random, length);
}

/**
 * A display form of a key that is safe to show and log: the first 6 and the last 4 characters,
 * `tsk_ab…wxyz`. Strings shorter than 16 characters are fully masked (`…`).
 */
export function keyHint(key: string): string {
  if (key.length < 16) return '…';
  return `${key.slice(0, 6)}…${key.slice(-4)}`;
}
