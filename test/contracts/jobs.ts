/**
 * The JobQueue contract: every engine (in memory, BullMQ, Deno KV) runs this suite unchanged. It
 * proves the promises written as MUSTs in src/ports/jobs.ts with real time: short delays, lower
 * bounds only, and every wait bounded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { JobQueue, QueuePayload } from '../../src/ports/jobs.ts';

/** What a factory hands the suite: a fresh backend (its own key prefix, its own file). */
export interface JobQueueBackend {
  /** Opens one more queue instance on the backend. */
  open(): Promise<JobQueue>;
  /** True when instances opened here share their units (the durable engines). */
  shared: boolean;
  /**
   * Makes `queue` die as a killed process would, with its handler calls in flight (no close),
   * and resolves once its units may go to an instance opened after it. Absent: no crash test.
   * The factory's `cleanup` disposes of crashed instances.
   */
  crash?(queue: JobQueue): Promise<void>;
  cleanup?(): Promise<void>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once `check()` holds; fails after `timeoutMs`. */
async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

const byNumber = (a: number, b: number): number => a - b;
const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

/** Runs the contract against the backends `create` makes (one per test). */
export function jobQueueContract(name: string, create: () => Promise<JobQueueBackend>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let backend: JobQueueBackend;
    let opened: JobQueue[];
    let crashed: Set<JobQueue>;
    /** Handler calls a test holds open; released before the queues close. */
    let held: (() => void)[];
    const open = async (): Promise<JobQueue> => {
      const queue = await backend.open();
      opened.push(queue);
      return queue;
    };
    const hold = (): Promise<void> => new Promise((resolve) => held.push(resolve));

    beforeEach(async () => {
      backend = await create();
      opened = [];
      crashed = new Set();
      held = [];
    });
    afterEach(async () => {
      for (const release of held) release();
      for (const queue of opened) if (!crashed.has(queue)) await queue.close();
      await backend.cleanup?.();
    });

    it('delivers every unit to one handler call, with its payload intact', async () => {
      const queue = await open();
      const got: QueuePayload[] = [];
      queue.work(async (payload) => void got.push(payload), { concurrency: 4 });
      const sent = range(20).map((i) => ({ i, text: `unit ${i}: ünï 😀`, negative: -1.5, zero: 0 }));
      await Promise.all(sent.map((payload) => queue.enqueue(`unit:${payload.i}`, payload)));
      await until(() => got.length >= sent.length, 'every unit');
      await sleep(100);
      expect([...got].sort((a, b) => byNumber(a.i as number, b.i as number))).toEqual(sent);
    });

    it('redelivers a unit whose handler rejected until a call resolves, holding up no other unit', async () => {
      const queue = await open();
      let flaky = 0;
      const others: number[] = [];
      queue.work(
        async (payload) => {
          if (payload.kind !== 'flaky') return void others.push(payload.i as number);
          flaky++;
          if (flaky === 1) throw new Error('first call fails');
          if (flaky === 2) return Promise.reject('second call fails, not with an Error');
        },
        { concurrency: 1 },
      );
      await queue.enqueue('flaky', { kind: 'flaky' });
      for (const i of range(3)) await queue.enqueue(`other.${i}`, { kind: 'other', i });
      await until(() => flaky === 3 && others.length === 3, 'the third call of the flaky unit', 10_000);
      await sleep(200);
      expect(flaky).toBe(3);
      expect(others.sort(byNumber)).toEqual([0, 1, 2]);
    });

    it('keeps one copy of a key that is waiting or delayed (the first payload wins)', async () => {
      const queue = await open();
      await queue.enqueue('same', { k: 'same', v: 1 });
      await queue.enqueue('same', { k: 'same', v: 2 });
      await queue.enqueue('later', { k: 'later', v: 1 }, { delayMs: 200 });
      await queue.enqueue('later', { k: 'later', v: 2 });
      const got: QueuePayload[] = [];
      queue.work(async (payload) => void got.push(payload), { concurrency: 2 });
      await until(() => got.length >= 2, 'both keys');
      await sleep(300);
      expect([...got].sort((a, b) => String(a.k).localeCompare(String(b.k)))).toEqual([
        { k: 'later', v: 1 },
        { k: 'same', v: 1 },
      ]);
    });

    it('keeps one copy of a key in flight, and takes the key again once it was handled', async () => {
      const queue = await open();
      const calls: number[] = [];
      const release = hold();
      queue.work(
        async (payload) => {
          calls.push(payload.v as number);
          if (payload.v === 1) await release;
        },
        { concurrency: 2 },
      );
      await queue.enqueue('busy', { v: 1 });
      await until(() => calls.length === 1, 'the first call');
      await queue.enqueue('busy', { v: 2 });
      for (const resolve of held) resolve();
      await sleep(300);
      expect(calls).toEqual([1]);
      await queue.enqueue('busy', { v: 3 });
      await until(() => calls.length === 2, 'the key enqueued again');
      expect(calls).toEqual([1, 3]);
    });

    it('never runs more than `concurrency` handler calls at once', async () => {
      const queue = await open();
      let now = 0;
      let most = 0;
      let done = 0;
      queue.work(
        async () => {
          most = Math.max(most, ++now);
          await sleep(40);
          now--;
          done++;
        },
        { concurrency: 3 },
      );
      await Promise.all(range(12).map((i) => queue.enqueue(`c.${i}`, { i })));
      await until(() => done === 12, 'every unit');
      expect(most).toBeLessThanOrEqual(3);
      expect(most).toBeGreaterThan(1);
    });

    it('delivers a delayed unit no earlier than its delay, after units enqueued later without one', async () => {
      const queue = await open();
      const got: { k: string; at: number }[] = [];
      queue.work(async (payload) => void got.push({ k: String(payload.k), at: Date.now() }), {
        concurrency: 2,
      });
      const start = Date.now();
      await queue.enqueue('late', { k: 'late' }, { delayMs: 150 });
      await queue.enqueue('soon', { k: 'soon' });
      await until(() => got.length === 2, 'both units');
      expect(got.map((g) => g.k)).toEqual(['soon', 'late']);
      // A 10 ms margin for clock granularity between the engine and this test.
      expect(got[1]!.at - start).toBeGreaterThanOrEqual(140);
    });

    it('close() waits for the handler calls in flight', async () => {
      const queue = await open();
      let started = false;
      let finished = false;
      queue.work(
        async () => {
          started = true;
          await sleep(200);
          finished = true;
        },
        { concurrency: 1 },
      );
      await queue.enqueue('slow', { v: 1 });
      await until(() => started, 'the call');
      await queue.close();
      expect(finished).toBe(true);
      await expect(queue.enqueue('after', { v: 1 })).rejects.toThrow();
      await queue.close();
    });

    it('rejects keys outside the key rule', async () => {
      const queue = await open();
      for (const key of ['', 'has space', 'slash/y', 'ü', 'x'.repeat(201)]) {
        await expect(queue.enqueue(key, { v: 1 })).rejects.toThrow();
      }
      await queue.enqueue(`ok:A-z_0.9:${'x'.repeat(188)}`, { v: 1 });
    });

    it('hands units one instance enqueued to another, also after the first one closed', async (ctx) => {
      if (!backend.shared) return ctx.skip();
      const first = await open();
      for (const i of range(5)) await first.enqueue(`durable.${i}`, { i });
      await first.close();
      const second = await open();
      const got: number[] = [];
      second.work(async (payload) => void got.push(payload.i as number), { concurrency: 2 });
      await until(() => got.length >= 5, 'the units of the closed instance');
      await sleep(100);
      expect(got.sort(byNumber)).toEqual(range(5));
    });

    // Which instance gets which unit is the backend's choice (Deno KV may hand one connection
    // all of them), so only the union is checked.
    it('lets two instances work on one backend, each unit handled once', async (ctx) => {
      if (!backend.shared) return ctx.skip();
      const [a, b] = [await open(), await open()];
      const byA: number[] = [];
      const byB: number[] = [];
      const worker = (into: number[]) => async (payload: QueuePayload) => {
        into.push(payload.i as number);
        await sleep(30);
      };
      a.work(worker(byA), { concurrency: 1 });
      b.work(worker(byB), { concurrency: 1 });
      for (const i of range(20)) await a.enqueue(`shared.${i}`, { i });
      await until(() => byA.length + byB.length >= 20, 'every unit', 10_000);
      await sleep(100);
      expect([...byA, ...byB].sort(byNumber)).toEqual(range(20));
    });

    it('hands a unit in flight on an instance that died to another instance', async (ctx) => {
      if (!backend.shared || !backend.crash) return ctx.skip();
      const dying = await open();
      let calls = 0;
      const never = hold();
      dying.work(
        async () => {
          calls++;
          await never;
        },
        { concurrency: 1 },
      );
      await dying.enqueue('orphan', { v: 7 });
      await until(() => calls === 1, 'the call on the dying instance');
      crashed.add(dying);
      await backend.crash(dying);
      const survivor = await open();
      const got: QueuePayload[] = [];
      survivor.work(async (payload) => void got.push(payload), { concurrency: 1 });
      await until(() => got.length >= 1, 'the orphan on the survivor', 15_000);
      expect(got).toEqual([{ v: 7 }]);
    });
  });
}
