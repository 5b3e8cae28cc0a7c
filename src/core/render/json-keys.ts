/**
 * JSON keys of the hot loops (once per word or json3 seg), written 4 bytes at a time through a
 * `DataView` over the buffer's bytes: two or three unaligned 32-bit stores instead of 7–13 byte
 * stores (each store into a typed array carries its own bounds check). Each writes at `p` (no
 * bounds checks of its own: room must have been made) and returns the new position.
 * @module
 */

/** Four ASCII characters as one little-endian 32-bit word (what `setUint32(p, w, true)` stores). */
function word(text: string): number {
  return (
    (text.charCodeAt(0) |
      (text.charCodeAt(1) << 8) |
      (text.charCodeAt(2) << 16) |
      (text.charCodeAt(3) << 24)) >>>
    0
  );
}

const COMMA_BRACE_QUOTE_W = word(',{"w'); // ,{"w
const BRACE_QUOTE_WO = word('{"wo'); // {"wo
const ORD_QUOTE = word('ord"'); // ord"
const RD_QUOTE_COLON = word('rd":'); // rd":
const COMMA_QUOTE_ST = word(',"st'); // ,"st
const ART_QUOTE = word('art"'); // art"
const COMMA_QUOTE_EN = word(',"en'); // ,"en
const ND_QUOTE_COLON = word('nd":'); // nd":
const COMMA_BRACE_QUOTE_U = word(',{"u'); // ,{"u
const BRACE_QUOTE_UT = word('{"ut'); // {"ut
const TF8_QUOTE = word('tf8"'); // tf8"
const F8_QUOTE_COLON = word('f8":'); // f8":
const COMMA_QUOTE_TO = word(',"tO'); // ,"tO
const FFSE = word('ffse'); // ffse
const TMS_QUOTE = word('tMs"'); // tMs"
const COMMA_QUOTE_AC = word(',"ac'); // ,"ac
const ASRC = word('AsrC'); // AsrC
const ONF_QUOTE = word('onf"'); // onf"

const COLON = 0x3a;

/** Writes `{"word":` (after a `,` unless first): this runs once per word. */
export function putWordKey(v: DataView, p: number, first: boolean): number {
  if (first) {
    v.setUint32(p, BRACE_QUOTE_WO, true);
    v.setUint32(p + 4, RD_QUOTE_COLON, true);
    return p + 8;
  }
  v.setUint32(p, COMMA_BRACE_QUOTE_W, true);
  v.setUint32(p + 4, ORD_QUOTE, true);
  v.setUint8(p + 8, COLON);
  return p + 9;
}

/** Writes `,"start":`. */
export function putStartKey(v: DataView, p: number): number {
  v.setUint32(p, COMMA_QUOTE_ST, true);
  v.setUint32(p + 4, ART_QUOTE, true);
  v.setUint8(p + 8, COLON);
  return p + 9;
}

/** Writes `,"end":` (two overlapping stores). */
export function putEndKey(v: DataView, p: number): number {
  v.setUint32(p, COMMA_QUOTE_EN, true);
  v.setUint32(p + 3, ND_QUOTE_COLON, true);
  return p + 7;
}

/** Writes `{"utf8":` (after a `,` unless first): this runs once per json3 seg. */
export function putUtf8Key(v: DataView, p: number, first: boolean): number {
  if (first) {
    v.setUint32(p, BRACE_QUOTE_UT, true);
    v.setUint32(p + 4, F8_QUOTE_COLON, true);
    return p + 8;
  }
  v.setUint32(p, COMMA_BRACE_QUOTE_U, true);
  v.setUint32(p + 4, TF8_QUOTE, true);
  v.setUint8(p + 8, COLON);
  return p + 9;
}

/** Writes `,"tOffsetMs":`: this runs once per json3 seg. */
export function putOffsetKey(v: DataView, p: number): number {
  v.setUint32(p, COMMA_QUOTE_TO, true);
  v.setUint32(p + 4, FFSE, true);
  v.setUint32(p + 8, TMS_QUOTE, true);
  v.setUint8(p + 12, COLON);
  return p + 13;
}

/** Writes `,"acAsrConf":`: this runs once per json3 seg. */
export function putConfidenceKey(v: DataView, p: number): number {
  v.setUint32(p, COMMA_QUOTE_AC, true);
  v.setUint32(p + 4, ASRC, true);
  v.setUint32(p + 8, ONF_QUOTE, true);
  v.setUint8(p + 12, COLON);
  return p + 13;
}

/** An ASCII fragment pre-encoded as little-endian 32-bit words, the last one padded. */
export interface Fragment {
  /** The words, `ceil(length / 4)` of them. */
  readonly words: Uint32Array;
  /** The fragment's length in bytes. */
  readonly length: number;
}

/** Pre-encodes an ASCII `text` for {@link putFragment}. */
export function fragment(text: string): Fragment {
  const words = new Uint32Array(Math.ceil(text.length / 4));
  for (let i = 0; i < words.length; i++) words[i] = word(text.slice(i * 4, i * 4 + 4).padEnd(4, ' '));
  return { words, length: text.length };
}

/**
 * Writes a fragment at `p` 4 bytes at a time and returns `p + f.length`. Up to 3 bytes of
 * scratch land after it, which the next write overwrites: the room made must cover them (a
 * `DataView` store past the end throws).
 */
export function putFragment(v: DataView, p: number, f: Fragment): number {
  const words = f.words;
  const n = words.length;
  // Unrolled for the usual lengths (up to 16 bytes), a loop past them.
  v.setUint32(p, words[0]!, true);
  if (n > 1) v.setUint32(p + 4, words[1]!, true);
  if (n > 2) v.setUint32(p + 8, words[2]!, true);
  if (n > 3) v.setUint32(p + 12, words[3]!, true);
  for (let i = 4; i < n; i++) v.setUint32(p + i * 4, words[i]!, true);
  return p + f.length;
}
