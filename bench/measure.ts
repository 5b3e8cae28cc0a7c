/** Timing helpers for the benchmarks. */

/** Timings of one measured function, in ms per call. */
export interface Timing {
  iterations: number;
  medianMs: number;
  meanMs: number;
  minMs: number;
}

/** Options: at least `minIterations` calls and at least `minTimeMs` of measuring, after `warmup` calls. */
export interface MeasureOptions {
  warmup?: number;
  minIterations?: number;
  minTimeMs?: number;
}

/** Consumes results so the optimiser cannot drop a call. */
let sink = 0;

/** The sink's value (read it once at the end so results stay observable). */
export function sinkValue(): number {
  return sink;
}

/**
 * The result's length, after reading its last character: that flattens a string built by
 * concatenation, so the time to make it usable (as a response body) is counted.
 */
function consume(result: string): number {
  return result.length + (result.length > 0 ? result.charCodeAt(result.length - 1) : 0);
}

/** Times `fn` (its result goes to a sink): median, mean and minimum ms per call. */
export function measure(fn: () => string, options: MeasureOptions = {}): Timing {
  const warmup = options.warmup ?? 20;
  const minIterations = options.minIterations ?? 50;
  const minTimeMs = options.minTimeMs ?? 1000;
  for (let i = 0; i < warmup; i++) sink += consume(fn());
  const samples: number[] = [];
  const began = performance.now();
  while (samples.length < minIterations || performance.now() - began < minTimeMs) {
    const t0 = performance.now();
    sink += consume(fn());
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  const total = samples.reduce((sum, x) => sum + x, 0);
  return {
    iterations: samples.length,
    medianMs: median(samples),
    meanMs: total / samples.length,
    minMs: samples[0]!,
  };
}

/**
 * `value` to `digits` decimals, or to as many more as it takes for the printed figure to stand on
 * the same side of its goal as the figure itself (0.49978 against "≥ 0.5" prints 0.4998, not
 * 0.500), so that a missed goal never reads as met, or the other way round.
 */
export function fixedAgainst(value: number, digits: number, meets: (x: number) => boolean): string {
  let text = value.toFixed(digits);
  while (digits < 6 && meets(Number(text)) !== meets(value)) text = value.toFixed(++digits);
  return text;
}

/** The median of `xs` (any order; the mean of the two middle values when their count is even). */
export function median(xs: readonly number[]): number {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** The value at quantile `q` (0–1) of ascending `sorted` (NaN when empty). */
export function quantile(sorted: ArrayLike<number>, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

/** Prints rows as an aligned text table (first row: header). */
export function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const line = (row: readonly string[]): string =>
    row.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows.slice(1)) console.log(line(row));
}
