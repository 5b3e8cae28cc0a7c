/**
 * Render benchmark: every transcript format on a 3-hour ASR transcript (strings, and the UTF-8
 * bytes of {@link renderTranscriptBytes}); linear growth (each format on 1 h and 10 h of the
 * same kind of transcript); our SRT/WebVTT writers against the `subtitle` package's
 * `stringifySync` on the same cues, in several interleaved runs (the goal holds for the worst).
 */

import { type NodeList, stringifySync } from 'subtitle';
import {
  renderTranscript,
  renderTranscriptBytes,
  TRANSCRIPT_FORMATS,
  type TranscriptFormat,
} from '../src/core/render/index.ts';
import { subtitleCues } from '../src/core/render/subtitles.ts';
import type { TranscriptDoc } from '../src/core/transcript.ts';
import { cpuTime, pairedCpuTime } from './cpu-time.ts';
import { fixedAgainst, measure, median, printTable } from './measure.ts';
import { benchGrowth } from './render-growth.ts';
import { makeAsrTranscript, withSpeechTimes } from './transcript-fixture.ts';

/** The per-format goal: a 3-hour ASR transcript renders in less than this. */
const GOAL_MS = 10;
/** Our SRT/WebVTT writers must be at least this many times faster than `subtitle`, in every run. */
const GOAL_RATIO = 2;
/** Runs of the `subtitle` comparison; the goal holds for the worst. */
const VERSUS_RUNS = 5;
/** Adjacent pairs of batches (ours, theirs) in one run; a run's ratio is their median. */
const VERSUS_PAIRS = 7;

/** Formats where `wordLevel` changes the output (both variants are timed). */
const WORD_LEVEL_FORMATS: ReadonlySet<TranscriptFormat> = new Set(['segments', 'sentences', 'json3']);

/** Every timed variant: each format, and the word-level one where it differs. */
const VARIANTS: readonly (readonly [TranscriptFormat, boolean])[] = TRANSCRIPT_FORMATS.flatMap((format) =>
  WORD_LEVEL_FORMATS.has(format)
    ? [[format, false] as const, [format, true] as const]
    : [[format, false] as const],
);

const fmt = (ms: number): string => ms.toFixed(3);
/** A byte body as `measure` consumes results: its last byte read, as a one-character string. */
const lastByte = (bytes: Uint8Array): string =>
  bytes.length === 0 ? '' : String.fromCharCode(bytes[bytes.length - 1]!);
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
const bytesOf = (text: string): number => new TextEncoder().encode(text).length;

function subtitleNodes(doc: TranscriptDoc, vtt: boolean): NodeList {
  return subtitleCues(doc.segments, vtt).map((cue) => ({
    type: 'cue' as const,
    data: { start: cue.startMs, end: cue.endMs, text: cue.text },
  }));
}

/**
 * The 3-hour table: wall-clock time of the string body (the goal: median under {@link GOAL_MS}),
 * and CPU time per render of the string and of the bytes ({@link renderTranscriptBytes}).
 */
function benchFormats(doc: TranscriptDoc): boolean {
  let ok = true;
  const rows: string[][] = [
    [
      'format',
      'wordLevel',
      'median ms',
      'mean ms',
      'min ms',
      'runs',
      'size',
      'cpu ms',
      'bytes cpu ms',
      'goal',
    ],
  ];
  for (const [format, wordLevel] of VARIANTS) {
    const options = { wordLevel };
    const size = bytesOf(renderTranscript(doc, format, options).body);
    const t = measure(() => renderTranscript(doc, format, options).body);
    const cpu = cpuTime(() => renderTranscript(doc, format, options).body, 150);
    const bytes = cpuTime(() => lastByte(renderTranscriptBytes(doc, format, options).body), 150);
    const met = t.medianMs < GOAL_MS;
    ok &&= met;
    rows.push([
      format,
      String(wordLevel),
      fmt(t.medianMs),
      fmt(t.meanMs),
      fmt(t.minMs),
      String(t.iterations),
      kb(size),
      fmt(cpu.medianMs),
      fmt(bytes.medianMs),
      met ? `< ${GOAL_MS} ms` : 'MISSED',
    ]);
  }
  printTable(rows);
  console.log('(cpu ms: CPU time per render, median of batches; bytes: the body as a UTF-8 Uint8Array)');
  return ok;
}

/**
 * Ours against `subtitle`, by CPU time per call (a wall-clock ratio of a 1 ms and a 4 ms call
 * grows with the machine's load), in {@link VERSUS_RUNS} runs of {@link VERSUS_PAIRS} adjacent
 * pairs of batches each (see {@link pairedCpuTime}: a slow phase of the machine falls on both
 * sides of a pair); a run's ratio is the median of its pairs', and the goal holds for the
 * smallest run.
 */
function benchVersus(doc: TranscriptDoc): boolean {
  console.log(
    `\n### SRT / WebVTT writers vs subtitle@4 stringifySync (same cues; CPU ms per call; ${VERSUS_RUNS} runs ` +
      `of ${VERSUS_PAIRS} adjacent pairs of batches)\n`,
  );
  let ok = true;
  const rows: string[][] = [['format', 'ours ms', 'subtitle ms', 'min ratio', 'median', 'max', 'goal']];
  for (const [format, vtt] of [
    ['srt', false],
    ['vtt', true],
  ] as const) {
    const nodes = subtitleNodes(doc, vtt);
    const options = { format: vtt ? ('WebVTT' as const) : ('SRT' as const) };
    const ours: number[] = [];
    const theirs: number[] = [];
    const ratios: number[] = [];
    for (let run = 0; run < VERSUS_RUNS; run++) {
      const t = pairedCpuTime(
        () => renderTranscript(doc, format, { wordLevel: false }).body,
        () => stringifySync(nodes, options),
        VERSUS_PAIRS,
      );
      ours.push(t.aMs);
      theirs.push(t.bMs);
      ratios.push(median(t.ratios));
    }
    const worst = Math.min(...ratios);
    const meets = (x: number) => x >= GOAL_RATIO;
    const met = meets(worst);
    ok &&= met;
    rows.push([
      format,
      fmt(median(ours)),
      fmt(median(theirs)),
      `${fixedAgainst(worst, 1, meets)}×`,
      `${median(ratios).toFixed(1)}×`,
      `${Math.max(...ratios).toFixed(1)}×`,
      met ? `≥ ${GOAL_RATIO}×` : 'MISSED',
    ]);
  }
  printTable(rows);
  return ok;
}

/** Runs the render benchmark and prints its tables; returns false when a goal is missed. */
export async function benchRender(): Promise<boolean> {
  const doc = withSpeechTimes(makeAsrTranscript());
  const words = doc.segments.reduce((sum, s) => sum + (s.words?.length ?? 0), 0);
  console.log(
    `\n## Render: ${doc.segments.length} segments, ${words} words, ${doc.events.length} json3 events, ` +
      `${doc.chapters?.length ?? 0} chapters, ${doc.durationSeconds} s\n`,
  );
  const formats = benchFormats(doc);
  const versus = benchVersus(doc);
  const growth = benchGrowth(VARIANTS);
  return formats && versus && growth;
}
