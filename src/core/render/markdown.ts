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
 * together (see {@link joint}) and end at a segment boundary when the paragraph has reached
 * {@link PARAGRAPH_SOFT_CHARS} and the segment ends a sentence, or has reached
 * {@link PARAGRAPH_HARD_CHARS} (unpunctuated ASR), or before a pause of at least
 * {@link PARAGRAPH_PAUSE_MS} (measured from the previous segment's last word when words are
 * known, since ASR segments overlap). A chapter heading (`m:ss`, `h:mm:ss` from one hour) goes
 * before the first paragraph starting at or after the chapter start, which forces a paragraph
 * break there; chapters starting after the last segment are listed at the end.
 * Text is escaped just enough to stay prose: `\`, `` ` ``, `*` and `<` get a backslash, and so
 * does a block marker (`#`, `>`, `-`, `+`, `=`, `|`, `~`, `1.`, `1)`) at the start of a paragraph
 * or heading. `_`, `[` and `]` are left alone (`[Music]`, `[ __ ]` stay readable).
 * @module
 */

import type { Chapter } from '../../ports/upstream.ts';
import type { Segment, TranscriptDoc } from '../transcript.ts';
import { joint, oneLine } from './inline.ts';
import { hasRealWords } from './json.ts';
import { endsSentence } from './sentence-ends.ts';
import { humanTime, toMs } from './time.ts';

/** A paragraph this long (UTF-16 units) ends after the next segment that ends a sentence. */
export const PARAGRAPH_SOFT_CHARS = 500;
/** A paragraph this long ends at the next segment boundary. */
export const PARAGRAPH_HARD_CHARS = 1000;
/** A silence this long (ms) between two segments starts a new paragraph. */
export const PARAGRAPH_PAUSE_MS = 3000;

const INLINE_SPECIAL = /[\\`*<]/g;
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

/** When the speech of a segment starts and ends (ms): its words when known, else its times. */
function speechStart(segment: Segment, words: boolean): number {
  const first = words ? segment.words?.[0] : undefined;
  return toMs(first === undefined ? segment.start : first.start);
}

function speechEnd(segment: Segment, words: boolean): number {
  const list = words ? segment.words : undefined;
  const last = list === undefined ? undefined : list[list.length - 1];
  return toMs(last === undefined ? segment.end : last.end);
}

/** The document as Markdown. */
export function renderMarkdown(doc: TranscriptDoc): string {
  const title = doc.title !== undefined && doc.title.trim() !== '' ? oneLine(doc.title) : doc.videoId;
  const blocks: string[] = [`# ${escapeMarkdown(title)}`, metadataLine(doc)];
  const chapters = (doc.chapters ?? []).slice().sort((a, b) => a.startSeconds - b.startSeconds);
  const words = hasRealWords(doc);
  let chapter = 0;
  let paragraph = '';
  let previous: Segment | undefined;

  const flush = (): void => {
    if (paragraph !== '') blocks.push(escapeMarkdown(paragraph));
    paragraph = '';
  };

  for (const segment of doc.segments) {
    const text = oneLine(segment.text);
    if (text === '') continue;
    const startMs = speechStart(segment, words);
    if (chapter < chapters.length && startMs >= toMs(chapters[chapter]!.startSeconds)) {
      flush();
      while (chapter < chapters.length && startMs >= toMs(chapters[chapter]!.startSeconds)) {
        blocks.push(heading(chapters[chapter]!));
        chapter++;
      }
    } else if (paragraph !== '' && previous !== undefined) {
      const pause = startMs - speechEnd(previous, words) >= PARAGRAPH_PAUSE_MS;
      const length = paragraph.length;
      if (
        pause ||
        length >= PARAGRAPH_HARD_CHARS ||
        (length >= PARAGRAPH_SOFT_CHARS && endsSentence(paragraph))
      ) {
        flush();
      }
    }
    paragraph = paragraph === '' ? text : paragraph + joint(paragraph, text) + text;
    previous = segment;
  }
  flush();
  for (; chapter < chapters.length; chapter++) blocks.push(heading(chapters[chapter]!));
  return `${blocks.join('\n\n')}\n`;
}
