/**
 * YouTube's XML timed text (srv1, srv2, srv3) turned into the equivalent json3 events, so that one
 * pipeline (`timedtext.ts`) makes segments of every format.
 *
 * - srv1 `<transcript><text start="s" dur="s">…</text>`: times in seconds; one seg per cue.
 * - srv2 `<timedtext><text t="ms" d="ms">…</text>`: a `<text>` with `t` and no `start` is in ms.
 * - srv3 `<timedtext format="3"><body><p t="ms" d="ms" a="1"?>` with `<s t="offsetMs">word</s>`
 *   children (ASR words; `t` becomes `tOffsetMs`) or plain text; `a="1"` becomes `aAppend: 1`.
 *
 * Cue text: markup inside it (`<i>`, `<font color>`) is dropped and `<br>` becomes a line
 * break; then character references are decoded **twice** and markup that this produced
 * (`&lt;i&gt;` → `<i>`) is dropped too. YouTube escapes caption text twice in srv1 (the text
 * `it's` arrives as `it&amp;#39;s`, the reason youtube-transcript-api unescapes after parsing
 * the XML); srv3 is handled the same way, as no recording proves otherwise and the only casualty
 * of a second pass is a caption that literally spells out a reference such as `&amp;`.
 * Missing or unreadable times count as 0 (`dur` defaults to 0); empty cues are left to the
 * pipeline, which drops them.
 * @module
 */
import type { Json3Document, Json3Event, Json3Seg } from '../ports/upstream.ts';
import { decodeEntities } from './entities.ts';
import { scanXml, type XmlToken } from './xml-scan.ts';

/** A tag that the second decoding pass produced (`<` followed by a letter or `/letter`). */
const TAG = /<\/?[A-Za-z][^<>]*>/g;
const BREAK = /<br\s*\/?>/gi;

/** Raw (escaped) cue text → plain text, as described in the module comment. */
function cueText(raw: string): string {
  const once = decodeEntities(raw).replace(BREAK, '\n').replace(TAG, '');
  return decodeEntities(once).replace(BREAK, '\n').replace(TAG, '');
}

/** A number attribute, or undefined when absent or not a finite number. */
function num(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const n = Number(value.trim());
  return Number.isFinite(n) ? n : undefined;
}

/** Raw text of one seg; `loose` when it is text outside any `<s>`. */
interface RawSeg {
  raw: string;
  tOffsetMs?: number;
  loose: boolean;
}

/** A cue being read: its timing and the raw text of its segs. */
interface Cue {
  event: Json3Event;
  segs: RawSeg[];
  /** True while inside an `<s>` of the cue. */
  inSeg: boolean;
}

/** Starts a cue for an opening `<text>` (srv1/srv2) or `<p>` (srv3). */
function openCue(name: string, attrs: Readonly<Record<string, string>>): Cue {
  const srv1 = name === 'text' && attrs.start !== undefined;
  const start = srv1 ? (num(attrs.start) ?? 0) * 1000 : (num(attrs.t) ?? 0);
  const dur = srv1 ? (num(attrs.dur) ?? 0) * 1000 : (num(attrs.d) ?? num(attrs.dur) ?? 0);
  const event: Json3Event = { tStartMs: Math.round(start), dDurationMs: Math.round(dur) };
  if (attrs.a !== undefined && attrs.a !== '0') event.aAppend = 1;
  return { event, segs: [], inSeg: false };
}

/** Adds raw text to the open `<s>`, or to the loose seg at the end (one is started if needed). */
function append(cue: Cue, raw: string): void {
  const last = cue.segs[cue.segs.length - 1];
  if (last !== undefined && (cue.inSeg || last.loose)) last.raw += raw;
  else cue.segs.push({ raw, loose: true });
}

/** Reads one token inside a cue (everything but the cue's own tags). */
function readInCue(cue: Cue, token: XmlToken): void {
  if (token.type === 'text') append(cue, token.raw);
  else if (token.name === 'br' && token.type === 'open') append(cue, '<br>');
  else if (token.name !== 's') return;
  else if (token.type === 'close') cue.inSeg = false;
  else if (!token.selfClosing) {
    const offset = num(token.attrs.t);
    const seg: RawSeg = { raw: '', loose: false };
    if (offset !== undefined) seg.tOffsetMs = Math.round(offset);
    cue.segs.push(seg);
    cue.inSeg = true;
  }
}

/** The finished event of a cue: segs decoded, empty ones dropped. */
function closeCue(cue: Cue): Json3Event {
  const segs: Json3Seg[] = [];
  for (const seg of cue.segs) {
    const utf8 = cueText(seg.raw);
    if (utf8 === '') continue;
    segs.push(seg.tOffsetMs === undefined ? { utf8 } : { utf8, tOffsetMs: seg.tOffsetMs });
  }
  return { ...cue.event, segs };
}

/**
 * Reads srv1, srv2 or srv3 XML into json3 events (see the module comment). Never throws: text
 * that is not inside a `<text>` or `<p>` is ignored, an unclosed cue ends at the next cue or at
 * the end of the input.
 */
export function xmlToJson3(xml: string): Json3Document {
  const events: Json3Event[] = [];
  let cue: Cue | undefined;
  for (const token of scanXml(typeof xml === 'string' ? xml : '')) {
    const cueTag = token.type !== 'text' && (token.name === 'text' || token.name === 'p');
    if (cueTag && token.type === 'open') {
      if (cue !== undefined) events.push(closeCue(cue));
      cue = token.selfClosing ? undefined : openCue(token.name, token.attrs);
    } else if (cueTag) {
      if (cue !== undefined) events.push(closeCue(cue));
      cue = undefined;
    } else if (cue !== undefined) {
      readInCue(cue, token);
    }
  }
  if (cue !== undefined) events.push(closeCue(cue));
  return { events };
}
