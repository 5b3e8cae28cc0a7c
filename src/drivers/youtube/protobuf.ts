/**
 * A tiny protobuf writer and reader, and the base64 flavours YouTube uses, for the opaque
 * strings InnerTube takes and returns: search `params` (`sp`), channel sort and tab continuations.
 * No `Buffer`: runs on Node, Bun and Deno alike.
 *
 * Scope: wire types 0 (varint), 2 (length-delimited) for writing; 0, 1, 2 and 5 for reading.
 * Varints are JavaScript numbers, exact up to 2^53 (field numbers and every value YouTube uses
 * in these messages fit).
 * @module
 */

/** One field to write: `[fieldNumber, value]`; an array value is a nested message. */
export type ProtoField = readonly [number, ProtoInput];

/** A value to write: varint (number), UTF-8 string, raw bytes, or a nested message. */
export type ProtoInput = number | boolean | string | Uint8Array | readonly ProtoField[];

/** One field as read: varints and fixed ints as numbers, length-delimited fields as bytes. */
export interface ProtoEntry {
  field: number;
  wire: 0 | 1 | 2 | 5;
  value: number | Uint8Array;
}

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function pushVarint(out: number[], value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new RangeError(`not a varint: ${value}`);
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

function pushField(out: number[], field: number, input: ProtoInput): void {
  if (typeof input === 'number' || typeof input === 'boolean') {
    pushVarint(out, field * 8);
    pushVarint(out, Number(input));
    return;
  }
  const bytes =
    typeof input === 'string'
      ? utf8Encoder.encode(input)
      : input instanceof Uint8Array
        ? input
        : encodeMessage(input);
  pushVarint(out, field * 8 + 2);
  pushVarint(out, bytes.length);
  for (const b of bytes) out.push(b);
}

/** Encodes fields in the order given (protobuf readers accept any order; YouTube's own use ascending). */
export function encodeMessage(fields: readonly ProtoField[]): Uint8Array {
  const out: number[] = [];
  for (const [field, value] of fields) pushField(out, field, value);
  return Uint8Array.from(out);
}

/** Decodes one message level; undefined (never throws) when the bytes are not a well-formed message. */
export function decodeMessage(bytes: Uint8Array): ProtoEntry[] | undefined {
  const entries: ProtoEntry[] = [];
  let pos = 0;
  const varint = (): number | undefined => {
    let result = 0;
    let scale = 1;
    for (let i = 0; i < 10 && pos < bytes.length; i++) {
      const b = bytes[pos++]!;
      result += (b & 0x7f) * scale;
      if (b < 0x80) return result;
      scale *= 0x80;
    }
    return undefined;
  };
  while (pos < bytes.length) {
    const key = varint();
    if (key === undefined || key < 8) return undefined;
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) {
      const value = varint();
      if (value === undefined) return undefined;
      entries.push({ field, wire, value });
    } else if (wire === 2) {
      const length = varint();
      if (length === undefined || pos + length > bytes.length) return undefined;
      entries.push({ field, wire, value: bytes.subarray(pos, pos + length) });
      pos += length;
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      if (pos + size > bytes.length) return undefined;
      let value = 0;
      for (let i = size - 1; i >= 0; i--) value = value * 256 + bytes[pos + i]!;
      entries.push({ field, wire, value });
      pos += size;
    } else {
      return undefined;
    }
  }
  return entries;
}

/** The first entry of `field` in a decoded message. */
export function protoField(
  entries: readonly ProtoEntry[] | undefined,
  field: number,
): ProtoEntry | undefined {
  return entries?.find((e) => e.field === field);
}

/** The nested message stored in `field`, decoded; undefined when absent or not a message. */
export function protoMessage(
  entries: readonly ProtoEntry[] | undefined,
  field: number,
): ProtoEntry[] | undefined {
  const value = protoField(entries, field)?.value;
  return value instanceof Uint8Array ? decodeMessage(value) : undefined;
}

/** The UTF-8 string stored in `field`; undefined when absent or not valid UTF-8. */
export function protoString(entries: readonly ProtoEntry[] | undefined, field: number): string | undefined {
  const value = protoField(entries, field)?.value;
  if (!(value instanceof Uint8Array)) return undefined;
  try {
    return utf8Decoder.decode(value);
  } catch {
    return undefined;
  }
}

const STANDARD = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Character code → 6-bit value for both alphabets (`+`/`-` = 62, `/`/`_` = 63), else -1. */
const LOOKUP: Int8Array = (() => {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < 64; i++) {
    table[STANDARD.charCodeAt(i)] = i;
    table[URL_SAFE.charCodeAt(i)] = i;
  }
  return table;
})();

function encodeWith(alphabet: string, bytes: Uint8Array, pad: boolean): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += alphabet[(n >> (18 - 6 * c)) & 63]!;
    if (pad) out += '='.repeat(4 - chars);
  }
  return out;
}

/** Standard base64 (RFC 4648 §4) with `=` padding. */
export function encodeBase64(bytes: Uint8Array): string {
  return encodeWith(STANDARD, bytes, true);
}

/** URL-safe base64 (RFC 4648 §5), padded with `=` unless `pad` is false. */
export function encodeBase64UrlSafe(bytes: Uint8Array, pad = true): string {
  return encodeWith(URL_SAFE, bytes, pad);
}

/**
 * Lenient base64 decoding as YouTube's tokens need: either alphabet, padding optional, and
 * percent-encoded padding (`%3D`) accepted. Undefined for anything else.
 */
export function decodeBase64(text: string): Uint8Array | undefined {
  const clean = text.replace(/%3D/gi, '=').replace(/=+$/, '');
  if (clean.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((clean.length * 6) / 8));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < clean.length; i++) {
    const code = clean.charCodeAt(i);
    const v = code < 128 ? LOOKUP[code]! : -1;
    if (v < 0) return undefined;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
    }
  }
  return out;
}

/** Decodes a base64 (either alphabet, maybe percent-encoded) protobuf token one level deep. */
export function decodeToken(token: string): ProtoEntry[] | undefined {
  let text = token;
  try {
    text = decodeURIComponent(token);
  } catch {
    // keep the token as given
  }
  const bytes = decodeBase64(text);
  return bytes ? decodeMessage(bytes) : undefined;
}
