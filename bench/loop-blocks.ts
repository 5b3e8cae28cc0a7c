/**
 * What held the event loop during a measured phase, to explain a latency figure: the loop's
 * turns longer than {@link LONG_TURN_MS} (timed from a callback queued with `setImmediate` to
 * its run: one whole turn, whatever ran in it), and the garbage collector's pauses. A request
 * that arrives during a long turn waits for the rest of it.
 * @module
 */
import { PerformanceObserver } from 'node:perf_hooks';

/** Turns at least this long are counted. */
const LONG_TURN_MS = 1.5;

/** Counts, total and longest of a set of durations (ms). */
export interface Durations {
  count: number;
  totalMs: number;
  longestMs: readonly number[];
}

/** What held the loop between {@link watchLoop} and `stop()`. */
export interface LoopBlocks {
  longTurns: Durations;
  gcPauses: Durations;
}

function summary(durations: number[], longest: number): Durations {
  const sorted = durations.sort((a, b) => b - a);
  return {
    count: sorted.length,
    totalMs: sorted.reduce((sum, d) => sum + d, 0),
    longestMs: sorted.slice(0, longest),
  };
}

/** Starts watching; `stop()` ends it and gives what was seen (the `longest` durations of each kind). */
export function watchLoop(longest = 5): { stop(): LoopBlocks } {
  const turns: number[] = [];
  const pauses: number[] = [];
  let watching = true;
  const tick = (queuedAt: number) => {
    if (!watching) return;
    const now = performance.now();
    if (now - queuedAt >= LONG_TURN_MS) turns.push(now - queuedAt);
    setImmediate(tick, now);
  };
  setImmediate(tick, performance.now());
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      watching = false;
      for (const entry of observer.takeRecords()) pauses.push(entry.duration);
      observer.disconnect();
      return { longTurns: summary(turns, longest), gcPauses: summary(pauses, longest) };
    },
  };
}

/** One line of a {@link Durations}: `n (total T ms; longest a, b, c ms)`. */
export function describeDurations(d: Durations): string {
  if (d.count === 0) return '0';
  const longest = d.longestMs.map((ms) => ms.toFixed(1)).join(', ');
  return `${d.count} (total ${d.totalMs.toFixed(0)} ms; longest ${longest} ms)`;
}
