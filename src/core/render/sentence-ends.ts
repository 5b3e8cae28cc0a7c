/**
 * Where sentences end inside a text.
 *
 * A sentence ends after a run of `.` `?` `!` `…` (and the CJK / full-width `。` `？` `！` `．` `｡`),
 * plus any closing quotes or brackets right after it, when:
 * - the run holds a CJK terminator as its last character (CJK needs no space after it), or
 * - the run is followed by whitespace or the end of the text. So `3.14`, `youtube.com` and
 *   `what?!no` do not end a sentence, and a terminator at the end of a segment does.
 * A single `.` after a common abbreviation (`Mr.`, `Dr.`, `e.g.`, `i.e.`, `vs.`, …) does not end
 * a sentence. `etc.`, `No.` and `a.m.`/`p.m.` are treated as ends: in speech they end sentences
 * more often than not.
 * @module
 */

const TERMINATOR_RUN = /[.?!…。？！．｡]+/g;
const CLOSERS = '"\'”’»)]}」』）】》〉';

/** Lower-cased abbreviations (without their final dot) after which `.` is not an end. */
const ABBREVIATIONS: ReadonlySet<string> = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'prof',
  'sr',
  'jr',
  'st',
  'mt',
  'vs',
  'e.g',
  'i.e',
  'cf',
  'fig',
  'approx',
  'vol',
]);

function isCjkTerminator(code: number): boolean {
  return code === 0x3002 || code === 0xff1f || code === 0xff01 || code === 0xff0e || code === 0xff61;
}

function isSpace(code: number): boolean {
  return code <= 0x20 || code === 0xa0 || code === 0x3000 || code === 0x2028 || code === 0x2029;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
}

/** True when the `.` at `dot` closes a known abbreviation. */
function isAbbreviation(text: string, dot: number): boolean {
  let from = dot;
  while (from > 0) {
    const code = text.charCodeAt(from - 1);
    if (!isAsciiLetter(code) && code !== 0x2e) break;
    from--;
  }
  if (from === dot || dot - from > 6) return false;
  return ABBREVIATIONS.has(text.slice(from, dot).toLowerCase());
}

/**
 * The offsets (exclusive, ascending) at which sentences end in `text`: each is just past a
 * terminator run and its closing punctuation. A text with no sentence end gives `[]`.
 */
export function sentenceEnds(text: string): number[] {
  const ends: number[] = [];
  TERMINATOR_RUN.lastIndex = 0;
  for (;;) {
    const match = TERMINATOR_RUN.exec(text);
    if (match === null) break;
    const run = match[0];
    let end = match.index + run.length;
    while (end < text.length && CLOSERS.includes(text[end]!)) end++;
    if (!isCjkTerminator(run.charCodeAt(run.length - 1))) {
      if (end < text.length && !isSpace(text.charCodeAt(end))) continue;
      if (run === '.' && isAbbreviation(text, match.index)) continue;
    }
    ends.push(end);
  }
  return ends;
}

/** How many characters at the end of a text {@link endsSentence} looks at. */
export const SENTENCE_END_WINDOW = 24;

/**
 * True when `text` (trimmed) ends with a sentence end. Only looks at the last
 * {@link SENTENCE_END_WINDOW} characters.
 */
export function endsSentence(text: string): boolean {
  const tail = text.length > SENTENCE_END_WINDOW ? text.slice(-SENTENCE_END_WINDOW) : text;
  const ends = sentenceEnds(tail);
  return ends.length > 0 && ends[ends.length - 1] === tail.length;
}
