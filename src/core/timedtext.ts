/**
 * Caption timed text (json3, or srv1/srv2/srv3 XML) parsed into a transcript's segments and, for ASR
 * tracks with real word timings, its words. Tolerant of malformed input: it never throws.
 * @module
 */
import type { Json3Document, Json3Event, Json3Seg, TimedText, TrackKind } from '../ports/upstream.ts';
import { speechTimesMs } from './speech-times.ts';
import { xmlToJson3 } from './timedtext-xml.ts';
import type { ParsedTimedText, Word } from './transcript.ts';

/** Largest time accepted, in ms (~31 years); larger or unreadable values are clamped. */
const MAX_MS = 1e12;

/** A number from untrusted JSON as whole, non-negative, finite milliseconds (else `fallback`). */
function ms(value: unknown, fallback: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) return fallback;
  return Math.min(MAX_MS, Math.max(0, Math.round(value)));
}

/** Milliseconds → seconds, rounded to the millisecond. */
const seconds = (value: number): number => Math.round(value) / 1000;

/**
 * Caption text as shown: `\r\n` read as `\n`, each line's whitespace runs collapsed to one space
 * and trimmed, empty lines dropped, lines joined with `\n`.
 */
export function normaliseText(raw: string): string {
  return raw
    .split(/\r\n?|\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** A character that `normaliseText` keeps (anything but whitespace). */
const NOT_BLANK = /\S/;

/** A json3 event cleaned of noise: whole-ms times, non-empty segs with `utf8` and `tOffsetMs`. */
export interface Clean {
  start: number;
  dur: number;
  segs: Json3Seg[];
}

/**
 * The events that carry caption text, sorted by start (stable): window definitions (no `segs`)
 * and events whose text is blank (the `aAppend` line breaks) are dropped, styling fields too.
 * Tolerates anything in place of the document (missing fields, wrong types).
 */
function clean(doc: Json3Document): Clean[] {
  const list: unknown = (doc as { events?: unknown } | null | undefined)?.events;
  const out: Clean[] = [];
  for (const event of Array.isArray(list) ? (list as unknown[]) : []) {
    const raw = (event as Json3Event | null)?.segs;
    if (!Array.isArray(raw)) continue;
    const segs: Json3Seg[] = [];
    for (const s of raw as unknown[]) {
      const seg = s as Partial<Json3Seg> | null;
      const utf8 = typeof seg?.utf8 === 'string' ? seg.utf8 : '';
      if (utf8 === '') continue;
      const offset = seg?.tOffsetMs;
      segs.push(typeof offset === 'number' ? { utf8, tOffsetMs: ms(offset, 0) } : { utf8 });
    }
    if (!segs.some((seg) => NOT_BLANK.test(seg.utf8))) continue; // all blank: no text
    const e = event as Json3Event;
    out.push({ start: ms(e.tStartMs, 0), dur: ms(e.dDurationMs, 0), segs });
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The normalised json3 event of a kept line (its segs are `clean`'s own objects, used once). */
function toEvent(start: number, end: number, segs: Json3Seg[]): Json3Event {
  return { tStartMs: start, dDurationMs: end - start, segs };
}

/** Lines without word timings: one segment per event; an event repeating one (same start, same text) is dropped. */
function plain(events: readonly Clean[]): ParsedTimedText {
  const seen = new Set<string>();
  const result: ParsedTimedText = { segments: [], hasWordLevel: false, events: [] };
  for (const e of events) {
    const text = normaliseText(e.segs.map((s) => s.utf8).join(''));
    const key = `${e.start}\u0000${text}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.segments.push({ text, start: seconds(e.start), end: seconds(e.start + e.dur) });
    result.events.push(toEvent(e.start, e.start + e.dur, e.segs));
  }
  return result;
}

/** An ASR line after de-duplication: the segs kept and its words with their raw start. */
export interface Line {
  event: Clean;
  segs: Json3Seg[];
  words: { word: string; at: number }[];
  text: string;
}

/**
 * Drops words already emitted (same text at the same ms) and the lines left empty. Events come
 * sorted by start and a word is never earlier than its event's start, so a word at `at` can only
 * be repeated by an event that starts by `at`: the words remembered are only those not yet
 * passed (a few lines' worth), keyed by their ms, instead of every word of the track.
 * @internal exported for its test
 */
export function dedupe(events: readonly Clean[]): Line[] {
  const ahead = new Map<number, string[]>(); // ms → the words emitted at it
  const out: Line[] = [];
  for (const event of events) {
    for (const at of ahead.keys()) if (at < event.start) ahead.delete(at);
    const segs: Json3Seg[] = [];
    const words: Line['words'] = [];
    for (const seg of event.segs) {
      const word = seg.utf8.replace(/\s+/g, ' ').trim();
      if (word !== '') {
        const at = Math.min(MAX_MS, event.start + (seg.tOffsetMs ?? 0));
        const emitted = ahead.get(at);
        if (emitted === undefined) ahead.set(at, [word]);
        else if (emitted.includes(word)) continue;
        else emitted.push(word);
        words.push({ word, at });
      }
      segs.push(seg);
    }
    const text = normaliseText(segs.map((s) => s.utf8).join(''));
    if (text !== '') out.push({ event, segs, words, text });
  }
  return out;
}

/** ASR lines with word timings; see {@link parseJson3} for the rules. */
function wordLines(events: readonly Clean[]): ParsedTimedText {
  const kept = dedupe(events);
  const result: ParsedTimedText = { segments: [], hasWordLevel: true, events: [] };
  let previous = 0;
  const startsOf = (line: Line): number[] =>
    line.words.map((w) => {
      previous = Math.max(previous, w.at);
      return previous;
    });
  let starts = kept[0] === undefined ? [] : startsOf(kept[0]);
  for (const [i, line] of kept.entries()) {
    const next = kept[i + 1];
    const nextStarts = next === undefined ? [] : startsOf(next);
    const start = line.event.start;
    const last = starts[starts.length - 1] ?? start;
    const end = Math.max(start + line.event.dur, last);
    const words: Word[] = line.words.map((w, k) => {
      const from = starts[k] ?? last;
      const to = starts[k + 1] ?? Math.max(from, Math.min(end, nextStarts[0] ?? end));
      return { word: w.word, start: seconds(from), end: seconds(to) };
    });
    result.segments.push({ text: line.text, start: seconds(start), end: seconds(end), words });
    result.events.push(toEvent(start, end, line.segs));
    starts = nextStarts;
  }
  result.speechMs = speechTimesMs(result.segments, true);
  return result;
}

/**
 * Parses a json3 document into segments (and, for ASR tracks, words).
 *
 * - Window definitions (no `segs`), blank events (the `aAppend` `"\n"` line breaks) and empty
 *   segs are dropped; events are sorted by `tStartMs`. Segment text = the event's segs joined,
 *   per line whitespace-collapsed and trimmed, line breaks kept as `\n`. start = `tStartMs`,
 *   end = `tStartMs + dDurationMs` (missing duration = 0), in seconds rounded to the ms.
 * - Words only for `asr` tracks whose events carry real word timings (some seg has a
 *   `tOffsetMs`; translated or srv1 ASR lines do not); never for manual tracks. Each non-blank
 *   seg is one word (trimmed, never split further): start = event start + `tOffsetMs` (0 when
 *   absent); end = the next word's start in the event; the last word's end =
 *   min(event end, next line's first word start), never before its own start.
 * - ASR overlap: real ASR lines overlap in time only (a line stays until the next-next line
 *   appears; each event carries new words), so end times come from the next words, not from the
 *   overlapping duration. Should an event repeat words already emitted (same trimmed text at
 *   the same absolute ms), the repeats are dropped from words, text and `events`; a line left
 *   empty is dropped. Without word timings, an event with the same start and text as an earlier
 *   one is dropped.
 * - Robustness for malformed input: times are clamped to whole non-negative ms; word starts are
 *   made non-decreasing (a word never starts before the one read before it) and a segment's end
 *   is stretched to its last word's start, so every word lies within its segment.
 * - `events` = one normalised event per segment (`tStartMs`, `dDurationMs` = end − start, `segs`
 *   with `utf8` and `tOffsetMs`). Never throws; an unreadable document gives no segments.
 */
export function parseJson3(doc: Json3Document, kind: TrackKind): ParsedTimedText {
  const events = clean(doc);
  const timed = kind === 'asr' && events.some((e) => e.segs.some((s) => s.tOffsetMs !== undefined));
  return timed ? wordLines(events) : plain(events);
}

/**
 * Parses srv1 (`<transcript><text start dur>`, seconds), srv2 or srv3 (`<timedtext format="3">`,
 * `<p t d>` with `<s t>` words, ms) XML: read into json3 events by a tolerant hand-written
 * parser (see `timedtext-xml.ts` for entity decoding and markup), then as {@link parseJson3}.
 * Never throws, whatever the string.
 */
export function parseTimedTextXml(xml: string, kind: TrackKind): ParsedTimedText {
  return parseJson3(xmlToJson3(xml), kind);
}

/** Parses timed text in whichever format it was fetched. */
export function parseTimedText(tt: TimedText, kind: TrackKind): ParsedTimedText {
  return tt.format === 'json3' ? parseJson3(tt.document, kind) : parseTimedTextXml(tt.xml, kind);
}
