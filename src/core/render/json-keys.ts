/**
 * JSON keys of the hot loops (once per word or json3 seg), written byte by byte: unrolled
 * stores are several times faster than a loop over the key's characters. Each writes at `p`
 * (no bounds checks) and returns the new position.
 * @module
 */

/** Writes `{"word":` (after a `,` unless first); unrolled: this runs once per word. */
export function putWordKey(u: Uint8Array, at: number, first: boolean): number {
  let p = at;
  if (!first) u[p++] = 0x2c; // ,
  u[p] = 0x7b; // {
  u[p + 1] = 0x22; // "
  u[p + 2] = 0x77; // w
  u[p + 3] = 0x6f; // o
  u[p + 4] = 0x72; // r
  u[p + 5] = 0x64; // d
  u[p + 6] = 0x22; // "
  u[p + 7] = 0x3a; // :
  return p + 8;
}

/** Writes `,"start":`, unrolled. */
export function putStartKey(u: Uint8Array, p: number): number {
  u[p] = 0x2c; // ,
  u[p + 1] = 0x22; // "
  u[p + 2] = 0x73; // s
  u[p + 3] = 0x74; // t
  u[p + 4] = 0x61; // a
  u[p + 5] = 0x72; // r
  u[p + 6] = 0x74; // t
  u[p + 7] = 0x22; // "
  u[p + 8] = 0x3a; // :
  return p + 9;
}

/** Writes `,"end":`, unrolled. */
export function putEndKey(u: Uint8Array, p: number): number {
  u[p] = 0x2c; // ,
  u[p + 1] = 0x22; // "
  u[p + 2] = 0x65; // e
  u[p + 3] = 0x6e; // n
  u[p + 4] = 0x64; // d
  u[p + 5] = 0x22; // "
  u[p + 6] = 0x3a; // :
  return p + 7;
}

/** Writes `{"utf8":` (after a `,` unless first), unrolled: this runs once per json3 seg. */
export function putUtf8Key(u: Uint8Array, at: number, first: boolean): number {
  let p = at;
  if (!first) u[p++] = 0x2c; // ,
  u[p] = 0x7b; // {
  u[p + 1] = 0x22; // "
  u[p + 2] = 0x75; // u
  u[p + 3] = 0x74; // t
  u[p + 4] = 0x66; // f
  u[p + 5] = 0x38; // 8
  u[p + 6] = 0x22; // "
  u[p + 7] = 0x3a; // :
  return p + 8;
}

/** Writes `,"tOffsetMs":`, unrolled: this runs once per json3 seg. */
export function putOffsetKey(u: Uint8Array, p: number): number {
  u[p] = 0x2c; // ,
  u[p + 1] = 0x22; // "
  u[p + 2] = 0x74; // t
  u[p + 3] = 0x4f; // O
  u[p + 4] = 0x66; // f
  u[p + 5] = 0x66; // f
  u[p + 6] = 0x73; // s
  u[p + 7] = 0x65; // e
  u[p + 8] = 0x74; // t
  u[p + 9] = 0x4d; // M
  u[p + 10] = 0x73; // s
  u[p + 11] = 0x22; // "
  u[p + 12] = 0x3a; // :
  return p + 13;
}

/** Writes `,"acAsrConf":`, unrolled: this runs once per json3 seg. */
export function putConfidenceKey(u: Uint8Array, p: number): number {
  u[p] = 0x2c; // ,
  u[p + 1] = 0x22; // "
  u[p + 2] = 0x61; // a
  u[p + 3] = 0x63; // c
  u[p + 4] = 0x41; // A
  u[p + 5] = 0x73; // s
  u[p + 6] = 0x72; // r
  u[p + 7] = 0x43; // C
  u[p + 8] = 0x6f; // o
  u[p + 9] = 0x6e; // n
  u[p + 10] = 0x66; // f
  u[p + 11] = 0x22; // "
  u[p + 12] = 0x3a; // :
  return p + 13;
}
