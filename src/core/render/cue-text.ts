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
