/**
 * Linear growth of the renderers: every format on 1 hour and on 10 hours of the same kind of
 * ASR transcript ({@link makeAsrTranscriptOfHours}); 10 h may take at most {@link GOAL_GROWTH}
 * times the 1 h time. It times the bytes the API answers with ({@link renderTranscriptBytes}'s
 * body, what the server sends and caches), not the string bodies. Compared in CPU time per
 * render (see `cpu-time.ts`: wall-clock ratios of a 0.1 ms and a 30 ms call mostly measure the
 * machine's load), in {@link PAIRS} adjacent pairs of batches ({@link pairedCpuTime}): a
 * process's figure is the median of the pairs' ratios; the wall-clock medians are printed beside
 * them, and (no goal) the same ratio with the CPU caches emptied before each render
 * (`pairedCpuTime`'s `fromMemory`).
 *
 * Each of {@link PROCESSES} fresh processes builds the documents, renders everything for a few
 * seconds untimed ({@link settle}) and times every format (`render-growth-process.ts`), and the
 * figure is the median of the processes' figures, printed with their spread. Where the 10-hour
 * document's objects land in the heap decides its renders' speed, and one process sees one
 * landing: on an idle machine, with the same code and data, the 10 h markdown render took
 * 2.15 ms in one process and 3.87 ms in another, and word-level segments grew 8.2×, 10.4× and
 * 13.7× in three runs of the bench.
 * @module
 */

import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { renderTranscriptBytes, type TranscriptFormat } from '../src/core/render/index.ts';
import type { TranscriptDoc } from '../src/core/transcript.ts';
import { emptyCaches, pairedCpuTime } from './cpu-time.ts';
import { fixedAgainst, median, printTable } from './measure.ts';
import { makeAsrTranscriptOfHours, withSpeechTimes } from './transcript-fixture.ts';

/** Rendering 10 hours may take at most this many times the 1-hour time. */
const GOAL_GROWTH = 12;
/** Pairs of batches (1 h, 10 h; 10 h, 1 h; …) per format; odd, so the median is one pair's. */
const PAIRS = 21;
/** Fresh processes that each time every format; odd, so the median is one process's. */
const PROCESSES = 3;
/** Each process renders everything for this long before timing (see {@link settle}). */
const WARM_UP_MS = 3000;

/** A format to time: the format and whether word-level output is asked for. */
export type GrowthVariant = readonly [TranscriptFormat, boolean];

/** One process's timing of one variant (CPU ms per render unless said). */
export interface GrowthTiming {
  shortMs: number;
  longMs: number;
  /** 10 h / 1 h: the median of the pairs' ratios. */
  ratio: number;
  shortWallMs: number;
  longWallMs: number;
  /** The same ratio with the CPU caches emptied before each render (no goal). */
  fromMemory: number;
}

const fmt = (ms: number): string => ms.toFixed(3);
/** A byte body as `pairedCpuTime` consumes results: its last byte, as a one-character string. */
const lastByte = (bytes: Uint8Array): string =>
  bytes.length === 0 ? '' : String.fromCharCode(bytes[bytes.length - 1]!);

/** The smallest and largest of sorted ratios, as `8.1–13.0×`. */
const spread = (sorted: readonly number[]): string =>
  `${sorted[0]!.toFixed(1)}–${sorted[sorted.length - 1]!.toFixed(1)}×`;

/**
 * Makes the buffer that empties the caches ({@link emptyCaches}), then renders every variant of
 * both documents, round after round, for {@link WARM_UP_MS} before anything is timed. The
 * buffer used to be made in the middle of the timing, when the first variant's "from memory"
 * figure needed it, and the renders of the next seconds were slower, the 1-hour ones most: the
 * variant timed next (word-level segments) grew 10.8–11.5× and the one after it (word
 * timestamps: the same code on the same documents) 12.7–13.9× in the same four runs.
 */
function settle(variants: readonly GrowthVariant[], docs: readonly TranscriptDoc[]): void {
  emptyCaches();
  const began = performance.now();
  let bytes = 0;
  while (performance.now() - began < WARM_UP_MS)
    for (const [format, wordLevel] of variants)
      for (const doc of docs) bytes += renderTranscriptBytes(doc, format, { wordLevel }).body.length;
  if (bytes === 0) throw new Error('the warm-up rendered nothing');
}

/** Times every variant on 1 h and 10 h in this process (after {@link settle}). */
export function measureGrowth(variants: readonly GrowthVariant[]): GrowthTiming[] {
  const short = withSpeechTimes(makeAsrTranscriptOfHours(1));
  const long = withSpeechTimes(makeAsrTranscriptOfHours(10));
  settle(variants, [short, long]);
  return variants.map(([format, wordLevel]) => {
    const options = { wordLevel };
    const renderShort = () => lastByte(renderTranscriptBytes(short, format, options).body);
    const renderLong = () => lastByte(renderTranscriptBytes(long, format, options).body);
    const t = pairedCpuTime(renderShort, renderLong, PAIRS);
    const cold = pairedCpuTime(renderShort, renderLong, PAIRS, { fromMemory: true });
    return {
      shortMs: t.aMs,
      longMs: t.bMs,
      ratio: median(t.ratios),
      shortWallMs: t.aWallMs,
      longWallMs: t.bWallMs,
      fromMemory: median(cold.ratios),
    };
  });
}

/** {@link measureGrowth} in a fresh process (`render-growth-process.ts`). */
function measureInProcess(variants: readonly GrowthVariant[]): GrowthTiming[] {
  const script = fileURLToPath(new URL('./render-growth-process.ts', import.meta.url));
  const out = execFileSync(process.execPath, ['--import', 'tsx', script, JSON.stringify(variants)], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(out) as GrowthTiming[];
}

/**
 * Times every variant on 1 h and 10 h in {@link PROCESSES} fresh processes and prints the table;
 * returns false when the median growth of a format is more than {@link GOAL_GROWTH}×.
 */
export function benchGrowth(variants: readonly GrowthVariant[]): boolean {
  const docs = { short: makeAsrTranscriptOfHours(1), long: makeAsrTranscriptOfHours(10) };
  console.log(
    `\n### Linear growth: 1 h (${docs.short.segments.length} segments) vs 10 h (${docs.long.segments.length} segments), ` +
      `CPU ms per render of the UTF-8 body; 10 h / 1 h: in each of ${PROCESSES} fresh processes the median of ` +
      `${PAIRS} adjacent pairs of batches; the figure is the median of the ${PROCESSES} (ms: medians too)\n`,
  );
  const runs = Array.from({ length: PROCESSES }, () => measureInProcess(variants));
  let ok = true;
  const rows: string[][] = [
    [
      'format',
      'wordLevel',
      '1 h ms',
      '10 h ms',
      '10 h / 1 h',
      'each process',
      'wall 1 h',
      'wall 10 h',
      'from memory',
      'goal',
    ],
  ];
  for (const [i, [format, wordLevel]] of variants.entries()) {
    const of = (field: keyof GrowthTiming) => median(runs.map((run) => run[i]![field]));
    const growth = of('ratio');
    const meets = (x: number) => x <= GOAL_GROWTH;
    const met = meets(growth);
    ok &&= met;
    rows.push([
      format,
      String(wordLevel),
      fmt(of('shortMs')),
      fmt(of('longMs')),
      `${fixedAgainst(growth, 1, meets)}×`,
      runs.map((run) => run[i]!.ratio.toFixed(1)).join(', '),
      fmt(of('shortWallMs')),
      fmt(of('longWallMs')),
      `${of('fromMemory').toFixed(1)}×`,
      met ? `≤ ${GOAL_GROWTH}×` : 'MISSED',
    ]);
  }
  printTable(rows);
  console.log(
    `(from memory: 10 h / 1 h with the CPU caches emptied before each render, median of ${PAIRS} pairs of ` +
      'single renders in each process; no goal)',
  );
  printReference(docs.short, docs.long);
  return ok;
}

/**
 * What the machine itself gives for 1 h against 10 h, no goal: creating the result string of
 * a `text` body (51 KiB against 513 KiB: past 128 KiB V8 allocates a large object, about ten
 * times dearer per byte), merely reading every word's times (10 h no longer fits in the CPU
 * caches), the same times packed in one `Float64Array` (read in order, they grow as they
 * should: the excess above is the objects' layout), and the word-level segments body of the
 * 1 h document's own segments ten times over
 * (the renderer's work for 10 h on a document that stays in the caches: where that is about
 * 10× and the real 10 h is more, the difference is the memory a larger document occupies).
 */
function printReference(short: TranscriptDoc, long: TranscriptDoc): void {
  const decoder = new TextDecoder();
  const small = new Uint8Array(51 * 1024).fill(0x61);
  const large = new Uint8Array(513 * 1024).fill(0x61);
  const readTimes = (doc: TranscriptDoc): string => {
    let sum = 0;
    for (const segment of doc.segments) for (const word of segment.words ?? []) sum += word.start + word.end;
    return String(sum);
  };
  const packTimes = (doc: TranscriptDoc): Float64Array => {
    const times: number[] = [];
    for (const segment of doc.segments)
      for (const word of segment.words ?? []) times.push(word.start, word.end);
    return Float64Array.from(times);
  };
  const readPacked = (times: Float64Array): string => {
    let sum = 0;
    for (let i = 0; i < times.length; i++) sum += times[i]!;
    return String(sum);
  };
  const [shortTimes, longTimes] = [packTimes(short), packTimes(long)];
  const repeated: TranscriptDoc = {
    ...short,
    segments: Array.from({ length: 10 }, () => short.segments).flat(),
  };
  const wordLevel = (doc: TranscriptDoc) => () =>
    lastByte(renderTranscriptBytes(doc, 'segments', { wordLevel: true }).body);
  const rows: string[][] = [['reference (no goal)', '1 h ms', '10 h ms', '10 h / 1 h', 'min–max']];
  for (const [name, a, b] of [
    ['one string from 51 / 513 KiB', () => decoder.decode(small), () => decoder.decode(large)],
    ["read every word's times", () => readTimes(short), () => readTimes(long)],
    ['the same times packed in an array', () => readPacked(shortTimes), () => readPacked(longTimes)],
    ['segments wordLevel, 1 h doc ×10', wordLevel(short), wordLevel(repeated)],
  ] as const) {
    const t = pairedCpuTime(a, b, PAIRS);
    rows.push([name, fmt(t.aMs), fmt(t.bMs), `${median(t.ratios).toFixed(1)}×`, spread(t.ratios)]);
  }
  console.log('');
  printTable(rows);
}
