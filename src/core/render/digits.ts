/**
 * Integer-only number printing into byte arrays (see `Utf8Buffer`): table lookups instead
 * of `Number.prototype.toString`, which is most of what `JSON.stringify` spends on transcripts.
 * Every function writes at `at` without bounds checks and returns the new position.
 * @module
 */

/** `000` … `999` as ASCII digits, 3 bytes per number. */
const PAD3: Uint8Array = (() => {
  const table = new Uint8Array(3000);
  for (let n = 0; n < 1000; n++) {
    table[n * 3] = 0x30 + ((n / 100) | 0);
    table[n * 3 + 1] = 0x30 + (((n / 10) | 0) % 10);
    table[n * 3 + 2] = 0x30 + (n % 10);
  }
  return table;
})();

/** `.001` … `.999` without trailing zeros (`.5`, `.25`), as ASCII, 4 bytes per number. */
const FRACTION: Uint8Array = (() => {
  const table = new Uint8Array(4000);
  for (let n = 1; n < 1000; n++) {
    const text = `.${String(n).padStart(3, '0')}`.replace(/0+$/, '');
    for (let i = 0; i < text.length; i++) table[n * 4 + i] = text.charCodeAt(i);
  }
  return table;
})();

/** The length of each {@link FRACTION} entry (0 for 0). */
const FRACTION_LENGTH: Uint8Array = (() => {
  const table = new Uint8Array(1000);
  for (let n = 1; n < 1000; n++) table[n] = n % 100 === 0 ? 2 : n % 10 === 0 ? 3 : 4;
  return table;
})();

/** Writes 0 ≤ value < 1000 (an int32) without leading zeros; returns the new position. */
function putSmall(bytes: Uint8Array, at: number, value: number): number {
  const i = value * 3;
  if (value >= 100) {
    bytes[at] = PAD3[i]!;
    bytes[at + 1] = PAD3[i + 1]!;
    bytes[at + 2] = PAD3[i + 2]!;
    return at + 3;
  }
  if (value >= 10) {
    bytes[at] = PAD3[i + 1]!;
    bytes[at + 1] = PAD3[i + 2]!;
    return at + 2;
  }
  bytes[at] = PAD3[i + 2]!;
  return at + 1;
}

/** Writes 0 ≤ value < 100 (an int32) as 2 digits; returns the new position. */
export function putPadded2(bytes: Uint8Array, at: number, value: number): number {
  const i = value * 3;
  bytes[at] = PAD3[i + 1]!;
  bytes[at + 1] = PAD3[i + 2]!;
  return at + 2;
}

/** Writes 0 ≤ value < 1000 (an int32) as 3 digits; returns the new position. */
export function putPadded(bytes: Uint8Array, at: number, value: number): number {
  const i = value * 3;
  bytes[at] = PAD3[i]!;
  bytes[at + 1] = PAD3[i + 1]!;
  bytes[at + 2] = PAD3[i + 2]!;
  return at + 3;
}

/** Writes a non-negative integer below 10^15 (at most 15 bytes); returns the new position. */
export function putInteger(bytes: Uint8Array, at: number, value: number): number {
  if (value < 1000) return putSmall(bytes, at, value | 0);
  if (value < 1_000_000) {
    const high = (value / 1000) | 0;
    return putPadded(bytes, putSmall(bytes, at, high), value - high * 1000);
  }
  if (value < 1_000_000_000) {
    // Times in ms past 16 minutes (json3 `tStartMs`): three groups of three digits.
    const high = (value / 1_000_000) | 0;
    const rest = value - high * 1_000_000;
    const mid = (rest / 1000) | 0;
    return putPadded(bytes, putPadded(bytes, putSmall(bytes, at, high), mid), rest - mid * 1000);
  }
  // Rare (at least 10^9): plain digit loop, then reverse.
  let p = at;
  let v = value;
  while (v > 0) {
    const q = Math.floor(v / 10);
    bytes[p++] = 0x30 + (v - q * 10);
    v = q;
  }
  for (let i = at, j = p - 1; i < j; i++, j--) {
    const t = bytes[i]!;
    bytes[i] = bytes[j]!;
    bytes[j] = t;
  }
  return p;
}

/**
 * Writes whole milliseconds (0 ≤ ms < 10^15) as seconds, exactly as `JSON.stringify(ms / 1000)`
 * prints them (`1.5`, `0.25`, `3`; at most 20 bytes, and it may store up to 3 more bytes after
 * them, so leave 23 bytes of room); returns the new position.
 */
export function putSeconds(bytes: Uint8Array, at: number, ms: number): number {
  let whole: number;
  let fraction: number;
  if (ms < 0x7fffffff) {
    // Small integers take V8's int32 path (much faster typed-array indexing).
    const small = ms | 0;
    whole = (small / 1000) | 0;
    fraction = small - whole * 1000;
  } else {
    whole = Math.floor(ms / 1000);
    fraction = ms - whole * 1000;
  }
  const p = putInteger(bytes, at, whole);
  // All 4 bytes of the entry, then advance by its length: no loop with a varying trip count
  // (the bytes past the number are free room that the next write overwrites; a write past the
  // end of the array is dropped).
  const base = fraction * 4;
  bytes[p] = FRACTION[base]!;
  bytes[p + 1] = FRACTION[base + 1]!;
  bytes[p + 2] = FRACTION[base + 2]!;
  bytes[p + 3] = FRACTION[base + 3]!;
  return p + FRACTION_LENGTH[fraction]!;
}

/**
 * Writes any number as `JSON.stringify` prints it (`null` when not finite; at most 24 bytes).
 * Kept small so that it inlines into the json3 loops: the usual small integers go straight
 * to {@link putInteger}, anything else to {@link putOtherNumber}.
 */
export function putJsonNumber(bytes: Uint8Array, at: number, value: number): number {
  // Most numbers are small non-negative int32s (`-0` prints `0` like JSON.stringify's).
  if ((value | 0) === value && value >= 0) return putInteger(bytes, at, value);
  if (value >= 0 && value < 1e15 && value === Math.floor(value)) return putInteger(bytes, at, value);
  return putOtherNumber(bytes, at, value);
}

/** The rare numbers of {@link putJsonNumber}: fractions, negatives, huge and non-finite ones. */
function putOtherNumber(bytes: Uint8Array, at: number, value: number): number {
  const text = Number.isFinite(value) ? `${value}` : 'null';
  let p = at;
  for (let i = 0; i < text.length; i++) bytes[p++] = text.charCodeAt(i);
  return p;
}
