/**
 * Background work in slices: each turn of the event loop runs at most about {@link SLICE_MS} of
 * it, and what is left waits for a later turn, so that I/O arriving meanwhile (an interactive
 * request) is served between two slices. Work that may wait awaits {@link backgroundTurn}
 * before each step: an upstream answer before it is parsed (any caller's: a cold request waits
 * only while other upstream work has used the turn's slice), a batch task before it starts and
 * before its result is stored. Waiters go on in the order they asked, about a slice per turn.
 *
 * Why: work that becomes due together otherwise runs back to back in one turn. A job's tasks
 * wait on the same upstream latency, so their answers arrive together; 5 jobs of 10 lanes held
 * the loop for up to 30 ms at a time in `npm run bench`, and a cached request arriving then
 * waited for all of it.
 *
 * One slice per process (the event loop is the process's), not per app. When nothing else waits,
 * a step goes on at once (the loop turns again immediately), so throughput is unchanged.
 * @module
 */

/** Background work one turn of the loop may run before the rest waits for the next turn. */
const SLICE_MS = 1;

// The scheduling functions as this module loads them: fake timers installed later (a test's)
// leave this scheduling alone, so code under them never waits for a fake turn nobody advances.
const immediate = typeof setImmediate === 'function' ? setImmediate : undefined;
const timeout = setTimeout;

/** Runs `fn` after the I/O that is ready (setTimeout where there is no setImmediate). */
export function nextTurn(fn: () => void): void {
  if (immediate) immediate(fn);
  else timeout(fn, 0);
}

/** Whether a slice is open (it closes on the loop's next check phase), and when it opened. */
let open = false;
let openedAt = 0;
const close = (): void => {
  open = false;
};

/** Resolves once this turn may run another step of background work (at once when it may). */
export async function backgroundTurn(): Promise<void> {
  for (;;) {
    const now = performance.now();
    if (!open) {
      open = true;
      openedAt = now;
      nextTurn(close);
      return;
    }
    if (now - openedAt < SLICE_MS) return;
    await new Promise<void>((resolve) => nextTurn(resolve));
  }
}
