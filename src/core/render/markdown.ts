/**
 * The `markdown` format: a readable document.
 *
 * ```
 * # {title, or the video id}
 *
 * Channel: {author} · Language: {code} · Track: auto-generated|manual · Duration: {h:mm:ss} · <https://www.youtube.com/watch?v=ID>
 *
 * ## 0:00 {chapter title}
 *
 * {paragraph}
 * ```
 * The metadata line leaves out what is unknown (channel, duration). Paragraphs flow segment texts
 * together (see {@link jointAt}) and end at a segment boundary when the paragraph has reached
 * {@link PARAGRAPH_SOFT_CHARS} and the segment ends a sentence, or has reached
 * {@link PARAGRAPH_HARD_CHARS} (unpunctuated ASR), or before a pause of at least
 * {@link PARAGRAPH_PAUSE_MS} (measured from the previous segment's last word when words are
 * known, since ASR segments overlap). A chapter heading (`m:ss`, `h:mm:ss` from one hour) goes
 * before the first paragraph starting at or after the chapter start, which forces a paragraph
 * break there; chapters starting after the last segment are listed at the end.
 * Text is escaped just enough to stay prose: `\`, `` ` ``, `*` and `<` get a backslash, and so
 * does a block marker (`#`, `>`, `-`, `+`, `=`, `|`, `~`, `1.`, `1)`) at the start of a paragraph
 * or heading. `_`, `[` and `]` are left alone (`[Music]`, `[ __ ]` stay readable).
 *
 * One writer makes both outputs: a string ({@link renderMarkdown}) and UTF-8 bytes
 * ({@link writeMarkdown}, what a response sends, with no string of the whole body in between:
 * see {@link ChunkedUtf8Writer}).
 * @module
 */

import type { Chapter } from '../../ports/upstream.ts';
import { documentSpeechTimesMs } from '../speech-times.ts';
import type { TranscriptDoc } from '../transcript.ts';
import { jointAt, oneLine } from './inline.ts';
import { hasRealWords } from './json.ts';
import { endsSentence, SENTENCE_END_WINDOW } from './sentence-ends.ts';
import { EXPECTED_BYTES_PER_SEGMENT } from './text.ts';
import { humanTime, toMs } from './time.ts';
import { Utf8Buffer } from './utf8-buffer.ts';
import { ChunkedUtf8Writer } from './utf8-chunks.ts';

/** A paragraph this long (UTF-16 units) ends after the next segment that ends a sentence. */
export const PARAGRAPH_SOFT_CHARS = 500;
/** A paragraph this long ends at the next segment boundary. */
export const PARAGRAPH_HARD_CHARS = 1000;
/** A silence this long (ms) between two segments starts a new paragraph. */
export const PARAGRAPH_PAUSE_MS = 3000;

const INLINE_SPECIAL = /[\\`*<]/g;
const INLINE_TEST = /[\\`*<]/;
const BLOCK_START = /^(?:[#>+=|~-]|\d{1,9}[.)])/;

/** Markdown-escapes one line of prose (see the module comment). */
export function escapeMarkdown(text: string): string {
  const out = text.replace(INLINE_SPECIAL, '\\$&');
  const block = BLOCK_START.exec(out);
  if (block === null) return out;
  const at = block[0].length - 1;
  return `${out.slice(0, at)}\\${out.slice(at)}`;
}

function metadataLine(doc: TranscriptDoc): string {
  const parts: string[] = [];
  if (doc.author !== undefined && doc.author !== '') parts.push(`Channel: ${escapeMarkdown(doc.author)}`);
  parts.push(`Language: ${escapeMarkdown(doc.language)}`);
  parts.push(`Track: ${doc.trackKind === 'asr' ? 'auto-generated' : 'manual'}`);
  if (doc.durationSeconds !== undefined) parts.push(`Duration: ${humanTime(doc.durationSeconds)}`);
  parts.push(`<https://www.youtube.com/watch?v=${encodeURIComponent(doc.videoId)}>`);
  return parts.join(' · ');
}

function heading(chapter: Chapter): string {
  return `## ${humanTime(chapter.startSeconds)} ${escapeMarkdown(oneLine(chapter.title))}`;
}

/** {@link escapeMarkdown} without the block-marker rule: for text inside a paragraph. */
function escapeInline(text: string): string {
  return INLINE_TEST.test(text) ? text.replace(INLINE_SPECIAL, '\\$&') : text;
}

/** Where the Markdown writer puts the document, piece by piece, in order. */
interface MarkdownSink {
  write(piece: string): void;
}

/** Collects the pieces into one string (a concatenation, flattened once when read). */
class StringSink implements MarkdownSink {
  text = '';

  write(piece: string): void {
    this.text += piece;
  }
}

/** The document as Markdown. */
export function renderMarkdown(doc: TranscriptDoc): string {
  const sink = new StringSink();
  writeMarkdownTo(doc, sink);
  return sink.text;
}

/**
 * The document as Markdown, written into a new buffer: `doneBytes()` gives exactly
 * `TextEncoder.encode(renderMarkdown(doc))`. Encoding piece by piece gives the bytes of the
 * whole string because the pieces never split a surrogate pair: they meet at ASCII (blank
 * lines, spaces, the heading's `## m:ss `), and a CJK joint adds nothing only between two CJK
 * characters, which are never surrogates.
 */
export function writeMarkdown(doc: TranscriptDoc): Utf8Buffer {
  const buffer = new Utf8Buffer(doc.segments.length * EXPECTED_BYTES_PER_SEGMENT + 1024);
  const writer = new ChunkedUtf8Writer(buffer);
  writeMarkdownTo(doc, writer);
  writer.flush();
  return buffer;
}

/** Writes the document as Markdown into `out`, piece by piece. */
function writeMarkdownTo(doc: TranscriptDoc, out: MarkdownSink): void {
  const title = doc.title !== undefined && doc.title.trim() !== '' ? oneLine(doc.title) : doc.videoId;
  // The body is written as a sequence of pieces: blocks, the blank lines between them and each
  // segment's text escaped on its own (escaping is per character, and a block marker can only
  // sit in a paragraph's first text). A paragraph is never built as a string of its own: its
  // length, last code unit and last characters (`tail`: all of it, or at least
  // SENTENCE_END_WINDOW of them) are what the paragraph rules read.
  out.write(`# ${escapeMarkdown(title)}\n\n${metadataLine(doc)}`);
  const chapters = (doc.chapters ?? []).slice().sort((a, b) => a.startSeconds - b.startSeconds);
  const words = hasRealWords(doc);
  let chapter = 0;
  let length = 0; // of the open paragraph; 0: none open
  let tail = '';
  let last = 0;
  const segments = doc.segments;
  // Each segment's speech start and end (ms), packed (see `speech-times.ts`).
  const speech = documentSpeechTimesMs(doc, words);
  let previousEnd = 0; // of the last segment written

  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const text = oneLine(segment.text);
    if (text === '') continue;
    const startMs = speech[2 * i]!;
    if (chapter < chapters.length && startMs >= toMs(chapters[chapter]!.startSeconds)) {
      length = 0;
      while (chapter < chapters.length && startMs >= toMs(chapters[chapter]!.startSeconds)) {
        out.write(`\n\n${heading(chapters[chapter]!)}`);
        chapter++;
      }
    } else if (length > 0) {
      const pause = startMs - previousEnd >= PARAGRAPH_PAUSE_MS;
      if (pause || length >= PARAGRAPH_HARD_CHARS || (length >= PARAGRAPH_SOFT_CHARS && endsSentence(tail))) {
        length = 0;
      }
    }
    if (length === 0) {
      out.write(`\n\n${escapeMarkdown(text)}`);
      length = text.length;
      tail = text;
    } else {
      const space = jointAt(last, text);
      if (space !== '') out.write(space);
      out.write(escapeInline(text));
      length += space.length + text.length;
      tail = text.length >= SENTENCE_END_WINDOW ? text : tail + space + text;
      if (tail.length > 2 * SENTENCE_END_WINDOW) tail = tail.slice(-SENTENCE_END_WINDOW);
    }
    last = text.charCodeAt(text.length - 1);
    previousEnd = speech[2 * i + 1]!;
  }
  for (; chapter < chapters.length; chapter++) out.write(`\n\n${heading(chapters[chapter]!)}`);
  out.write('\n');
}
