/**
 * What held the event loop during a measured phase, to explain a latency figure: the times it
 * was held for {@link LONG_TURN_MS} or more (a timer due every millisecond, and how late it
 * ran: a timer runs late by what held the loop when it fell due, give or take a millisecond),
 * and the garbage collector's pauses. A request that arrives meanwhile waits for the rest of it.
 * A timer, not a callback queued with `setImmediate` again and again: that one never lets the
 * loop sleep, so the watch itself kept a core busy (and the allocations of its callbacks made
 * about 40 young-generation collections a second).
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
  let due = performance.now() + 1;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - due >= LONG_TURN_MS) turns.push(now - due);
    due = now + 1;
  }, 1);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push(entry.duration);
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      clearInterval(timer);
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
