/**
 * Text helpers for renderers that flow segment texts into running prose (text, sentences,
 * markdown): one-line normalisation and a join that knows CJK text has no spaces between words.
 * @module
 */

const LINE_BREAK = /[\r\n]/;
const LINE_BREAKS = /[ \t]*(?:\r\n|\r|\n)+[ \t]*/g;

/**
 * The text on one line: every run of line breaks (CRLF, CR, LF, with the blanks around them)
 * becomes one space, and the result is trimmed.
 */
export function oneLine(text: string): string {
  return LINE_BREAK.test(text) ? text.replace(LINE_BREAKS, ' ').trim() : text.trim();
}

/**
 * True for code units of scripts written without spaces between words: CJK symbols and
 * punctuation, kana, CJK ideographs (BMP), compatibility ideographs, full-width forms.
 * Hangul is not included: Korean separates words with spaces.
 */
function isCjk(code: number): boolean {
  return (
    (code >= 0x3000 && code <= 0x30ff) ||
    (code >= 0x3400 && code <= 0x4dbf) ||
    (code >= 0x4e00 && code <= 0x9fff) ||
    (code >= 0xf900 && code <= 0xfaff) ||
    (code >= 0xff00 && code <= 0xffef)
  );
}

/**
 * The separator to put between two non-empty text pieces that follow each other: nothing when
 * both sides of the joint are CJK, otherwise one space.
 */
export function joint(before: string, after: string): string {
  return jointAt(before.charCodeAt(before.length - 1), after);
}

/**
 * {@link joint} from the last code unit of the text before: renderers that build a long text
 * by concatenation keep it, so they never read the end of the growing string (reading a
 * character of a concatenated string flattens it, a copy of everything so far).
 */
export function jointAt(lastBefore: number, after: string): string {
  return isCjk(lastBefore) && isCjk(after.charCodeAt(0)) ? '' : ' ';
}
