/**
 * Transcript renderers: one entry point for every `format` of the transcript endpoint.
 *
 * JSON formats (`segments`, `word_timestamps`, `sentences`, `json3`): {@link transcriptObject}
 * builds the contract's Transcript object; {@link renderTranscript} writes exactly
 * `JSON.stringify` of that object, but straight from the document ({@link writeTranscriptJson},
 * several times faster). The other formats write text directly.
 *
 * Word rule: words appear only when the document has real word timings (an ASR track, see
 * {@link hasRealWords}); `segments`, `sentences` and `json3` include them only when asked
 * (`wordLevel`), `word_timestamps` always. `json3` is the Transcript envelope with `segments`
 * (the contract requires them; built as for `segments`) and, beside them, `events`: the
 * document's normalised json3 events (in the object, shared with the document, not copied).
 *
 * {@link renderTranscriptBytes} gives the same body as UTF-8 bytes (what a response sends and
 * a cache of rendered bodies keeps), written straight into bytes for every format.
 * @module
 */

import type { TranscriptDoc } from '../transcript.ts';
import { hasRealWords, segmentsJson, type TranscriptJson, transcriptJson } from './json.ts';
import { writeTranscriptJson } from './json-writer.ts';
import { renderMarkdown, writeMarkdown } from './markdown.ts';
import { eachSentence, sentencesJson } from './sentences.ts';
import { writeSubtitles } from './subtitles.ts';
import { renderText, writeText } from './text.ts';
import type { Utf8Buffer } from './utf8-buffer.ts';

export type { TranscriptJson } from './json.ts';

/** Every output format of the transcript endpoint. */
export type TranscriptFormat =
  | 'segments'
  | 'word_timestamps'
  | 'sentences'
  | 'markdown'
  | 'text'
  | 'srt'
  | 'vtt'
  | 'json3';

/** The formats whose body is the JSON Transcript object. */
export type JsonTranscriptFormat = 'segments' | 'word_timestamps' | 'sentences' | 'json3';

/** All formats, the default (`segments`) first. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = [
  'segments',
  'word_timestamps',
  'sentences',
  'markdown',
  'text',
  'srt',
  'vtt',
  'json3',
];

/** Rendering options. */
export interface RenderOptions {
  /** Include per-word timings where the format makes them optional (`word_level`). */
  wordLevel: boolean;
}

/** A rendered response body and its `Content-Type`. */
export interface RenderedTranscript {
  contentType: string;
  body: string;
}

/** A rendered response body as UTF-8 bytes, and its `Content-Type`. */
export interface RenderedTranscriptBytes {
  contentType: string;
  body: Uint8Array;
}

const JSON_TYPE = 'application/json; charset=utf-8';
const TEXT_TYPE = 'text/plain; charset=utf-8';
const VTT_TYPE = 'text/vtt; charset=utf-8';
const MARKDOWN_TYPE = 'text/markdown; charset=utf-8';

/** True for the formats answered with the JSON Transcript object. */
export function isJsonFormat(format: TranscriptFormat): format is JsonTranscriptFormat {
  return (
    format === 'segments' || format === 'word_timestamps' || format === 'sentences' || format === 'json3'
  );
}

/** The Transcript object of a JSON format, for callers that embed it (for example MCP tools). */
export function transcriptObject(
  doc: TranscriptDoc,
  format: JsonTranscriptFormat,
  options: RenderOptions,
): TranscriptJson {
  const words = hasRealWords(doc);
  switch (format) {
    case 'segments':
      return transcriptJson(doc, segmentsJson(doc.segments, options.wordLevel && words));
    case 'word_timestamps':
      return transcriptJson(doc, segmentsJson(doc.segments, words));
    case 'sentences':
      return transcriptJson(doc, sentencesJson(doc, options.wordLevel));
    case 'json3':
      return {
        ...transcriptJson(doc, segmentsJson(doc.segments, options.wordLevel && words)),
        events: doc.events,
      };
  }
}

/** `JSON.stringify(transcriptObject(doc, format, options))`, written directly (faster). */
function jsonBody(doc: TranscriptDoc, format: JsonTranscriptFormat, options: RenderOptions): Utf8Buffer {
  const words = hasRealWords(doc);
  switch (format) {
    case 'segments':
      return writeTranscriptJson(doc, doc.segments, options.wordLevel && words);
    case 'word_timestamps':
      return writeTranscriptJson(doc, doc.segments, words);
    case 'sentences':
      return writeTranscriptJson(
        doc,
        (visit) => eachSentence(doc, options.wordLevel, visit),
        options.wordLevel && words,
      );
    case 'json3':
      return writeTranscriptJson(doc, doc.segments, options.wordLevel && words, doc.events);
  }
}

/** The `Content-Type` of a format's body. */
export function contentTypeOf(format: TranscriptFormat): string {
  switch (format) {
    case 'markdown':
      return MARKDOWN_TYPE;
    case 'text':
    case 'srt':
      return TEXT_TYPE;
    case 'vtt':
      return VTT_TYPE;
    default:
      return JSON_TYPE;
  }
}

/** Renders a document in a format: the response body and its content type. */
export function renderTranscript(
  doc: TranscriptDoc,
  format: TranscriptFormat,
  options: RenderOptions,
): RenderedTranscript {
  const contentType = contentTypeOf(format);
  switch (format) {
    case 'markdown':
      return { contentType, body: renderMarkdown(doc) };
    case 'text':
      return { contentType, body: renderText(doc.segments) };
    case 'srt':
      return { contentType, body: writeSubtitles(doc.segments, false).done() };
    case 'vtt':
      return { contentType, body: writeSubtitles(doc.segments, true).done() };
    default:
      return { contentType, body: jsonBody(doc, format, options).done() };
  }
}

/**
 * Renders a document in a format as UTF-8 bytes: exactly `TextEncoder.encode` of
 * {@link renderTranscript}'s body (a lone surrogate becomes U+FFFD), ready to send or to keep.
 * Cheaper than the string when bytes are what the caller needs: every format's writer produces
 * bytes, so this skips decoding them into a string (and, for text and Markdown, building a
 * large string only to encode it again).
 * The array is the caller's own.
 */
export function renderTranscriptBytes(
  doc: TranscriptDoc,
  format: TranscriptFormat,
  options: RenderOptions,
): RenderedTranscriptBytes {
  const contentType = contentTypeOf(format);
  switch (format) {
    case 'markdown':
      return { contentType, body: writeMarkdown(doc).doneBytes() };
    case 'text':
      return { contentType, body: writeText(doc.segments).doneBytes() };
    case 'srt':
      return { contentType, body: writeSubtitles(doc.segments, false).doneBytes() };
    case 'vtt':
      return { contentType, body: writeSubtitles(doc.segments, true).doneBytes() };
    default:
      return { contentType, body: jsonBody(doc, format, options).doneBytes() };
  }
}
