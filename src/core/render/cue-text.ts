/**
 * Cue payloads for SRT and WebVTT: segment text made safe for the cue grammar.
 *
 * Both formats end a cue at the first blank line and treat a line holding `-->` as a timing
 * line, so the payload is normalised first:
 * - CRLF and CR become LF; every line is trimmed; blank (empty or whitespace-only) lines are
 *   dropped. An all-blank text gives an empty payload: the cue is still written, with its timing
 *   line followed directly by the blank separator line (both `subtitle` and `webvtt-parser` read
 *   that as a cue with empty text).
 * - U+0000 becomes U+FFFD (what a WebVTT parser does to it anyway).
 * - SRT has no escape mechanism: every run of two or more `-` followed by `>` becomes `->`, so no
 *   line contains `-->`. Everything else (including `<i>`-style tags) is written as is.
 * - WebVTT: `&`, `<` and `>` are written as `&amp;`, `&lt;` and `&gt;` (WebVTT cue text is
 *   markup; this also neutralises `-->`). A WebVTT reader decodes them back.
 * The writers emit UTF-8 bytes (`putUtf8`): a lone surrogate (invalid UTF-16) becomes
 * U+FFFD.
 * @module
 */

import { noteNonAscii, putCodePoint } from './utf8-buffer.ts';

const SRT_HAZARD = /[\r\n\0]|-->/;
const VTT_HAZARD = /[\r\n\0&<>]/;
const NEWLINES = /\r\n|\r|\n/;
const ARROWS = /-{2,}>/g;
const VTT_SPECIAL = /[&<>]/g;
const NUL = /\0/g;

const VTT_ENTITY: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function vttEntity(char: string): string {
  return VTT_ENTITY[char] ?? char;
}

/**
 * The common normalisation of both formats: split on any line break (CRLF, CR, LF), trim each
 * line, drop blank lines, join with LF, replace U+0000 with U+FFFD.
 */
export function cleanCueText(text: string): string {
  let out = '';
  for (const raw of text.split(NEWLINES)) {
    const line = raw.trim();
    if (line === '') continue;
    out = out === '' ? line : `${out}\n${line}`;
  }
  return out.includes('\0') ? out.replace(NUL, '\uFFFD') : out;
}

/** The SRT payload of a segment text (see the module comment for the rules). */
export function srtCueText(text: string): string {
  const trimmed = text.trim();
  if (!SRT_HAZARD.test(trimmed)) return trimmed;
  const clean = cleanCueText(trimmed);
  return clean.includes('-->') ? clean.replace(ARROWS, '->') : clean;
}

/** The WebVTT payload of a segment text (see the module comment for the rules). */
export function vttCueText(text: string): string {
  const trimmed = text.trim();
  if (!VTT_HAZARD.test(trimmed)) return trimmed;
  const clean = cleanCueText(trimmed);
  return clean.replace(VTT_SPECIAL, vttEntity);
}

/** ASCII characters after which a text needs {@link srtCueText}: line breaks, NUL, and `>` (of `-->`). */
const SRT_STOPS = asciiSet('\r\n\0>');
/** ASCII characters after which a text needs {@link vttCueText}: line breaks, NUL, `&`, `<`, `>`. */
const VTT_STOPS = asciiSet('\r\n\0&<>');

function asciiSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}

/** Whether `trim()` removes the character `c` (ECMAScript WhiteSpace and LineTerminator). */
function trimmable(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Writes the SRT (`vtt` false) or WebVTT payload of a segment text as UTF-8 at `at` when the text
 * is already a payload: no padding, nothing to normalise or escape, no surrogates. Returns the
 * new position, or -1 (having written scratch bytes) when the text needs {@link srtCueText} or
 * {@link vttCueText}. One pass over the text instead of a hazard search, a trim and a copy (most
 * caption texts are plain). Needs room for 3 bytes per code unit.
 */
export function putPlainCueText(bytes: Uint8Array, at: number, text: string, vtt: boolean): number {
  const n = text.length;
  if (n === 0) return at;
  if (trimmable(text.charCodeAt(0)) || trimmable(text.charCodeAt(n - 1))) return -1;
  const stops = vtt ? VTT_STOPS : SRT_STOPS;
  let p = at;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (stops[c] === 1) return -1;
      bytes[p++] = c;
    } else if (c < 0xd800 || c > 0xdfff) {
      p = putCodePoint(bytes, p, c);
    } else {
      return -1;
    }
  }
  if (p - at !== n) noteNonAscii();
  return p;
}
