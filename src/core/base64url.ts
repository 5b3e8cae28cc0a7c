/**
 * Strict, canonical base64url (RFC 4648 §5) without padding.
 *
 * Decoding accepts exactly the strings {@link encodeBase64Url} produces: no padding, no
 * whitespace, no characters outside `A–Z a–z 0–9 - _`, and zero unused bits in the last
 * character. Every byte string therefore has exactly one encoding, so changing any character of
 * an encoding either makes it undecodable or decodes to different bytes (cursors rely on this).
 * @module
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Character code → 6-bit value, or -1. */
const LOOKUP: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) table[ALPHABET.charCodeAt(i)] = i;
  return table;
})();

/** Encodes bytes as unpadded base64url. */
export function encodeBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]!;
  }
  return out;
}

function value(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return code < 128 ? LOOKUP[code]! : -1;
}

/**
 * Decodes canonical unpadded base64url. Returns `undefined` (never throws) for anything
 * {@link encodeBase64Url} would not have produced.
 */
export function decodeBase64Url(text: string): Uint8Array | undefined {
  const rest = text.length % 4;
  if (rest === 1) return undefined;
  const full = text.length - rest;
  const out = new Uint8Array((full / 4) * 3 + (rest === 0 ? 0 : rest - 1));
  let o = 0;
  for (let i = 0; i < full; i += 4) {
    const a = value(text, i);
    const b = value(text, i + 1);
    const c = value(text, i + 2);
    const d = value(text, i + 3);
    if ((a | b | c | d) < 0) return undefined;
    const n = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = n >> 16;
    out[o++] = (n >> 8) & 255;
    out[o++] = n & 255;
  }
  if (rest === 2) {
    const a = value(text, full);
    const b = value(text, full + 1);
    if ((a | b) < 0 || (b & 15) !== 0) return undefined;
    out[o] = (a << 2) | (b >> 4);
  } else if (rest === 3) {
    const a = value(text, full);
    const b = value(text, full + 1);
    const c = value(text, full + 2);
    if ((a | b | c) < 0 || (c & 3) !== 0) return undefined;
    out[o++] = (a << 2) | (b >> 4);
    out[o] = ((b & 15) << 4) | (c >> 2);
  }
  return out;
}
