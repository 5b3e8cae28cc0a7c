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

function median(sorted: readonly number[]): number {
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
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
