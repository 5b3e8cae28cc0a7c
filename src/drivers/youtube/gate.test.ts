/**
 * The gate: slots, the bounded queue, waits that run out (fake timers, no timing asserts) and
 * aborts.
 * @module
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isApiError } from '../../errors.ts';
import { DEFAULT_GATE, Gate } from './gate.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('Gate', () => {
  it('defaults to 32 in flight and 64 waiting', () => {
    expect(DEFAULT_GATE).toMatchObject({ maxConcurrent: 32, maxQueued: 64 });
  });

  it('hands slots out, queues, refuses past the queue, passes a released slot to the first waiter', async () => {
    const gate = new Gate({ maxConcurrent: 2, maxQueued: 1, maxWaitMs: 600_000 });
    const a = await gate.acquire();
    await gate.acquire();
    const waiting = gate.acquire();
    const refused = await gate.acquire().catch((e: unknown) => e);
    expect(isApiError(refused, 'upstream_busy')).toBe(true);
    expect(refused).toMatchObject({ status: 503, retryable: true, retryAfter: 1 });
    expect([gate.inUse, gate.queued]).toEqual([2, 1]);
    a();
    a(); // idempotent
    const c = await waiting;
    expect([gate.inUse, gate.queued]).toEqual([2, 0]);
    c();
    expect(gate.inUse).toBe(1);
  });

  it('a wait that runs out is upstream_busy and leaves the queue', async () => {
    vi.useFakeTimers();
    const gate = new Gate({ maxConcurrent: 1, maxQueued: 4, maxWaitMs: 2000 });
    await gate.acquire();
    const waiting = gate.acquire().catch((e: unknown) => e);
    expect(gate.queued).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(isApiError(await waiting, 'upstream_busy')).toBe(true);
    expect(gate.queued).toBe(0);
  });

  it('an abort while waiting rejects with its reason; an aborted signal never takes a slot', async () => {
    const gate = new Gate({ maxConcurrent: 1, maxQueued: 4, maxWaitMs: 600_000 });
    const release = await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal).catch((e: unknown) => e);
    controller.abort(new Error('gone'));
    expect(await waiting).toMatchObject({ message: 'gone' });
    expect(gate.queued).toBe(0);
    await expect(gate.acquire(controller.signal)).rejects.toThrow('gone');
    release();
    expect(gate.inUse).toBe(0);
  });

  it('run releases its slot when the work throws', async () => {
    const gate = new Gate({ maxConcurrent: 1, maxQueued: 0 });
    await expect(gate.run(undefined, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(gate.inUse).toBe(0);
    expect(await gate.run(undefined, async () => 7)).toBe(7);
  });
});
