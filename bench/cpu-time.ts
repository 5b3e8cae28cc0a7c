/**
 * CPU time per call, for comparisons that must hold on a busy machine.
 *
 * Wall-clock medians are biased when other processes compete for the cores: a call that takes
 * 0.1 ms is rarely preempted (its median stays clean), a call that takes 30 ms is preempted
 * nearly every time, so its wall time grows with the load. A ratio of the two (10 h against
 * 1 h, or ours against another library) then says more about the load than about the code; on
 * this 2-core machine shared by several engineers, a load of 8 turned a 12× growth into 40×.
 * The process's CPU time (user + system, every thread: GC helpers included) counts only the
 * work done. Calls run in batches of at least {@link BATCH_MS} so the clock's granularity
 * does not matter.
 * @module
 */

import { median } from './measure.ts';

/** A batch of calls lasts at least this long (CPU ms). */
const BATCH_MS = 20;

/** CPU time per call: the median over batches, and the smallest batch; wall time beside it. */
export interface CpuTiming {
  medianMs: number;
  minMs: number;
  /** Wall-clock ms per call, median over the same batches (for comparison only). */
  wallMedianMs: number;
  calls: number;
}

/** Consumes results so the optimiser cannot drop a call. */
let sink = 0;

/** The sink's value (read it once so results stay observable). */
export function cpuSinkValue(): number {
  return sink;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Runs `fn` `calls` times; CPU and wall ms per call. */
function batch(fn: () => string, calls: number): [cpu: number, wall: number] {
  const began = cpuMs();
  const wallBegan = performance.now();
  for (let i = 0; i < calls; i++) {
    const result = fn();
    // Reading the last character flattens a concatenated string (see measure.ts).
    sink += result.length + (result.length > 0 ? result.charCodeAt(result.length - 1) : 0);
  }
  return [(cpuMs() - began) / calls, (performance.now() - wallBegan) / calls];
}

/**
 * CPU time per call of `fn`: a few warm-up calls, then batches of at least {@link BATCH_MS}
 * until at least `minMs` of CPU time and `minBatches` batches.
 */
export function cpuTime(fn: () => string, minMs = 200, minBatches = 5): CpuTiming {
  const [single] = batch(fn, 3);
  const calls = Math.max(1, Math.ceil(BATCH_MS / Math.max(single, 0.001)));
  const cpu: number[] = [];
  const wall: number[] = [];
  let spent = 0;
  while (cpu.length < minBatches || spent < minMs) {
    const [ms, wallMs] = batch(fn, calls);
    cpu.push(ms);
    wall.push(wallMs);
    spent += ms * calls;
  }
  cpu.sort((a, b) => a - b);
  wall.sort((a, b) => a - b);
  return { medianMs: median(cpu), minMs: cpu[0]!, wallMedianMs: median(wall), calls: calls * cpu.length };
}

/** CPU ms per call of two functions timed in alternating batches, and the ratio of each pair. */
export interface PairedTiming {
  /** CPU ms per call of `a` and of `b`: the medians over their batches. */
  aMs: number;
  bMs: number;
  /** Wall-clock ms per call, medians over the same batches (for comparison only). */
  aWallMs: number;
  bWallMs: number;
  /** `b ÷ a` of each adjacent pair of batches, sorted ascending. */
  ratios: number[];
}

/** More than this machine's caches keep for one core (2 MiB of L2 per core). */
const EVICT_BYTES = 64 * 1024 * 1024;
let evictBuffer: Uint8Array | undefined;

/**
 * Reads one byte of every cache line of a buffer larger than the caches. The first call makes
 * the buffer (64 MiB of new memory), and what is timed in the seconds after it can come out
 * slower than the same work timed later (see `render-growth.ts`): a caller that times afterwards
 * calls this once first and lets that pass.
 */
export function emptyCaches(): void {
  evictBuffer ??= new Uint8Array(EVICT_BYTES).fill(1);
  let sum = 0;
  for (let i = 0; i < evictBuffer.length; i += 64) sum += evictBuffer[i]!;
  sink += sum;
}

/** Options of {@link pairedCpuTime}. */
export interface PairOptions {
  /**
   * Time single calls, each right after the CPU caches were emptied (untimed): what a call costs
   * when its data comes from memory, as for a server that renders a document once per format.
   */
  fromMemory?: boolean;
}

/**
 * `b`'s CPU time against `a`'s, measured in `pairs` adjacent pairs of batches (each batch at
 * least {@link BATCH_MS}, or one call with `fromMemory`), in alternating order (a b, b a, …);
 * each pair gives one ratio.
 *
 * Why pairs: on this shared machine the same render runs up to twice as slow from one 20 ms
 * batch or one second to the next (measured: 1.4 against 2.7 ms in adjacent batches). Timing all
 * of `a` and then all of `b` lets such a phase fall on one side only, and a ratio of the two
 * medians then moves by as much; a pair's two batches run back to back, so a phase falls on
 * both, and the median of the pairs' ratios is what the code's own cost decides.
 */
export function pairedCpuTime(
  a: () => string,
  b: () => string,
  pairs: number,
  options: PairOptions = {},
): PairedTiming {
  const [oneA] = batch(a, 3);
  const [oneB] = batch(b, 3);
  const cold = options.fromMemory === true;
  const callsA = cold ? 1 : Math.max(1, Math.ceil(BATCH_MS / Math.max(oneA, 0.001)));
  const callsB = cold ? 1 : Math.max(1, Math.ceil(BATCH_MS / Math.max(oneB, 0.001)));
  const timed = (fn: () => string, calls: number): [number, number] => {
    if (cold) emptyCaches();
    return batch(fn, calls);
  };
  const cpuA: number[] = [];
  const cpuB: number[] = [];
  const wallA: number[] = [];
  const wallB: number[] = [];
  const ratios: number[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    let x: [number, number];
    let y: [number, number];
    if (pair % 2 === 0) {
      x = timed(a, callsA);
      y = timed(b, callsB);
    } else {
      y = timed(b, callsB);
      x = timed(a, callsA);
    }
    cpuA.push(x[0]);
    wallA.push(x[1]);
    cpuB.push(y[0]);
    wallB.push(y[1]);
    ratios.push(y[0] / x[0]);
  }
  ratios.sort((p, q) => p - q);
  return {
    aMs: median(cpuA),
    bMs: median(cpuB),
    aWallMs: median(wallA),
    bWallMs: median(wallB),
    ratios,
  };
}
