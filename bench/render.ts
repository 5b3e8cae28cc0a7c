/**
 * Render benchmark: every transcript format on a 3-hour ASR transcript, and our SRT/WebVTT
 * writers against the `subtitle` package's `stringifySync` on the same cues.
 */

import { type NodeList, stringifySync } from 'subtitle';
import { renderTranscript, TRANSCRIPT_FORMATS, type TranscriptFormat } from '../src/core/render/index.ts';
import { subtitleCues } from '../src/core/render/subtitles.ts';
import type { TranscriptDoc } from '../src/core/transcript.ts';
import { measure, printTable, type Timing } from './measure.ts';
import { makeAsrTranscript } from './transcript-fixture.ts';

/** The per-format goal: a 3-hour ASR transcript renders in less than this. */
const GOAL_MS = 10;
/** Our SRT/WebVTT writers must be at least this many times faster than `subtitle`. */
const GOAL_RATIO = 2;

/** Formats where `wordLevel` changes the output (both variants are timed). */
const WORD_LEVEL_FORMATS: ReadonlySet<TranscriptFormat> = new Set(['segments', 'sentences', 'json3']);

const fmt = (ms: number): string => ms.toFixed(3);
const kb = (text: string): string => `${(Buffer.byteLength(text, 'utf8') / 1024).toFixed(1)} KiB`;

function subtitleNodes(doc: TranscriptDoc, vtt: boolean): NodeList {
  return subtitleCues(doc.segments, vtt).map((cue) => ({
    type: 'cue' as const,
    data: { start: cue.startMs, end: cue.endMs, text: cue.text },
  }));
}

/** Runs the render benchmark and prints its tables; returns false when a goal is missed. */
export async function benchRender(): Promise<boolean> {
  const doc = makeAsrTranscript();
  const words = doc.segments.reduce((sum, s) => sum + (s.words?.length ?? 0), 0);
  console.log(
    `\n## Render: ${doc.segments.length} segments, ${words} words, ${doc.events.length} json3 events, ` +
      `${doc.chapters?.length ?? 0} chapters, ${doc.durationSeconds} s\n`,
  );
  let ok = true;
  const rows: string[][] = [
    ['format', 'wordLevel', 'median ms', 'mean ms', 'min ms', 'runs', 'size', 'goal'],
  ];
  const timings = new Map<TranscriptFormat, Timing>();
  for (const format of TRANSCRIPT_FORMATS) {
    for (const wordLevel of WORD_LEVEL_FORMATS.has(format) ? [false, true] : [false]) {
      const options = { wordLevel };
      const body = renderTranscript(doc, format, options).body;
      const t = measure(() => renderTranscript(doc, format, options).body);
      if (!wordLevel) timings.set(format, t);
      const met = t.medianMs < GOAL_MS;
      ok &&= met;
      rows.push([
        format,
        String(wordLevel),
        fmt(t.medianMs),
        fmt(t.meanMs),
        fmt(t.minMs),
        String(t.iterations),
        kb(body),
        met ? `< ${GOAL_MS} ms` : 'MISSED',
      ]);
    }
  }
  printTable(rows);

  console.log('\n### SRT / WebVTT writers vs subtitle@4 stringifySync (same cues)\n');
  const versus: string[][] = [['format', 'ours ms', 'subtitle ms', 'ratio', 'goal']];
  for (const [format, vtt] of [
    ['srt', false],
    ['vtt', true],
  ] as const) {
    const nodes = subtitleNodes(doc, vtt);
    const options = { format: vtt ? ('WebVTT' as const) : ('SRT' as const) };
    const theirs = measure(() => stringifySync(nodes, options));
    const ours = timings.get(format)!;
    const ratio = theirs.medianMs / ours.medianMs;
    const met = ratio >= GOAL_RATIO;
    ok &&= met;
    versus.push([
      format,
      fmt(ours.medianMs),
      fmt(theirs.medianMs),
      `${ratio.toFixed(1)}×`,
      met ? `≥ ${GOAL_RATIO}×` : 'MISSED',
    ]);
  }
  printTable(versus);
  return ok;
}
