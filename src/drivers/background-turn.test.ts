/**
 * Background slices: a step goes on at once while the turn's slice lasts; past it, what is
 * waiting on the loop (an interactive request's I/O, stood in for by `setImmediate`) runs first.
 * @module
 */
import { describe, expect, it } from 'vitest';
import { backgroundTurn } from './background-turn.ts';

/** Keeps the thread busy for `ms` (background work that does not await). */
function work(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy
  }
}

/** Waits until the loop has turned once more (so every test starts with a fresh slice). */
const freshTurn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

describe('backgroundTurn', () => {
  it('lets short steps go on in the same turn', async () => {
    await freshTurn();
    const order: string[] = [];
    setImmediate(() => order.push('waiting I/O'));
    for (let step = 0; step < 5; step++) {
      await backgroundTurn();
      order.push(`step ${step}`);
    }
    order.push('done');
    expect(order).toEqual(['step 0', 'step 1', 'step 2', 'step 3', 'step 4', 'done']);
    await freshTurn();
    expect(order.at(-1)).toBe('waiting I/O');
  });

  it('lets what waits on the loop run before a step past the slice', async () => {
    await freshTurn();
    const order: string[] = [];
    await backgroundTurn();
    setImmediate(() => order.push('waiting I/O'));
    work(3);
    await backgroundTurn();
    order.push('next step');
    expect(order).toEqual(['waiting I/O', 'next step']);
  });

  it('spreads steps that are due together over several turns, in the order they asked', async () => {
    await freshTurn();
    const steps: number[] = [];
    const turnsSeen = new Set<number>();
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    // Six answers arriving together: each one's callback runs in the same turn, one after another.
    await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          new Promise<void>((done) =>
            setImmediate(async () => {
              await backgroundTurn();
              steps.push(i);
              turnsSeen.add(turn);
              work(2); // each step is longer than a slice
              done();
            }),
          ),
      ),
    );
    counting = false;
    expect(steps).toEqual([0, 1, 2, 3, 4, 5]);
    // One step per turn: none of them shared a turn with another.
    expect(turnsSeen.size).toBe(6);
  });
});
