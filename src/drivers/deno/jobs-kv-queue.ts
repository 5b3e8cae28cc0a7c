/**
 * The JobQueue on Deno KV's queue (`kv.enqueue`, `kv.listenQueue`): shared by every isolate and
 * region on one Deno KV database (Deno Deploy), or every process on one local KV file.
 *
 * - Dedupe: each waiting or running key has a record `[...prefix, 'unit', key]` (its payload, a
 *   token and its attempt number), created in the same atomic commit as the queue message, only
 *   if absent (`check` with a null versionstamp), and deleted once a handler call resolved.
 *   A message whose token or attempt no longer matches the record is a stale copy and is dropped.
 * - Retries: a rejected call re-enqueues the unit with the engines' capped schedule (100 ms up to
 *   60 s, never giving up) in one commit with the record's new attempt number. Deno's own retries
 *   (`backoffSchedule`, at most 5) cover only a listener that threw or died; a message they give
 *   up on lands in `[...prefix, 'undelivered', key]`, which `work()` puts back in the queue.
 * - Dead instances: Deno KV hands a message whose listener died to another one. Locally that
 *   happens 5 s after the dead connection's last keepalive, once some connection to the file runs
 *   KV's queue cleanup (when it opens, and about every 60 s).
 * - Concurrency: an in-process semaphore; deliveries beyond it wait, held by this listener. Deno
 *   KV hands one connection up to 100 messages at once, so a busy instance may hold units that an
 *   idle one could run: work is not spread evenly over instances (every unit still runs).
 * - Deno KV has one queue per database: this queue acknowledges and drops every queue value it
 *   did not enqueue, so use one prefix per database. After `close()`, a value this connection
 *   still receives goes back to the queue with a 1 s delay, for an instance that is open; close
 *   the KV after the queue.
 *
 * The KV is typed structurally ({@link DenoKvQueue}), so this module needs no Deno types.
 * @module
 */
import type { JobQueue, QueuePayload } from '../../ports/jobs.ts';
import { assertQueueKey, defaultRetryDelaysMs, retryDelayMs } from '../jobs-memory.ts';
import type { DenoKvAtomicOperation, DenoKvEntryMaybe, DenoKvKey } from './ledger-kv.ts';

/** `Deno.AtomicOperation` with the queue's `enqueue`. */
export interface DenoKvQueueAtomicOperation extends DenoKvAtomicOperation {
  check(...checks: { key: DenoKvKey; versionstamp: string | null }[]): DenoKvQueueAtomicOperation;
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvQueueAtomicOperation;
  delete(key: DenoKvKey): DenoKvQueueAtomicOperation;
  enqueue(
    value: unknown,
    options?: { delay?: number; keysIfUndelivered?: DenoKvKey[] },
  ): DenoKvQueueAtomicOperation;
}

/** The part of `Deno.Kv` the queue uses; `await Deno.openKv()` is one. */
export interface DenoKvQueue {
  get<T>(key: DenoKvKey): Promise<DenoKvEntryMaybe<T>>;
  list<T>(selector: { prefix: DenoKvKey }): AsyncIterable<{ key: DenoKvKey; value: T; versionstamp: string }>;
  atomic(): DenoKvQueueAtomicOperation;
  listenQueue(handler: (value: unknown) => Promise<void> | void): Promise<void>;
}

/** Options of {@link createDenoKvJobQueue}. */
export interface DenoKvJobQueueOptions {
  kv: DenoKvQueue;
  /** Key prefix of the queue's records. Default `['tubescribe', 'jobs']`. */
  prefix?: readonly string[];
  /** Waits before each redelivery after a rejection. Default: the engines' schedule. */
  retryDelaysMs?: readonly number[];
}

interface Unit {
  payload: QueuePayload;
  token: string;
  attempt: number;
}
interface Message {
  tubescribeJobs: string;
  key: string;
  token: string;
  attempt: number;
}

/** How long a unit that reached a closed queue waits before it is offered again. */
const BOUNCE_MS = 1_000;
/** SQLite's answer when another connection holds the write lock of a local KV file. */
const BUSY = /database is locked|SQLITE_BUSY/i;
/** Commits tried against a busy local file before giving up. */
const BUSY_ATTEMPTS = 50;

/**
 * Builds and commits an atomic operation; a busy local file rejects it whole (nothing written),
 * so it is tried again after a short random wait. Resolves to the commit's `ok`.
 */
async function commit(build: () => DenoKvQueueAtomicOperation): Promise<boolean> {
  for (let n = 1; ; n++) {
    try {
      return (await build().commit()).ok;
    } catch (error) {
      if (n >= BUSY_ATTEMPTS || !BUSY.test(String((error as Error | undefined)?.message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** n, 25)));
    }
  }
}

/** Creates the Deno KV JobQueue over an open KV (`await Deno.openKv()`). */
export function createDenoKvJobQueue(options: DenoKvJobQueueOptions): JobQueue {
  const { kv } = options;
  const prefix = options.prefix ?? ['tubescribe', 'jobs'];
  const tag = JSON.stringify(prefix);
  const delays = options.retryDelaysMs ?? defaultRetryDelaysMs;
  const unitKey = (key: string): DenoKvKey => [...prefix, 'unit', key];
  const lostKey = (key: string): DenoKvKey => [...prefix, 'undelivered', key];
  const ours = (value: unknown): value is Message => (value as Message | null)?.tubescribeJobs === tag;
  let handler: ((payload: QueuePayload) => Promise<void>) | undefined;
  let free = 0;
  const waiting: (() => void)[] = [];
  let inside = 0;
  const idle: (() => void)[] = [];
  let closing: Promise<void> | undefined;

  /** Adds `message` to KV's queue (after `delay` ms) to the atomic operation `ops`. */
  const send = (ops: DenoKvQueueAtomicOperation, message: Message, delay: number) =>
    ops.enqueue(message, { delay, keysIfUndelivered: [lostKey(message.key)] });

  const acquire = async (): Promise<void> => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
  };
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };

  async function deliver(message: Message, handle: (payload: QueuePayload) => Promise<void>): Promise<void> {
    const entry = await kv.get<Unit>(unitKey(message.key));
    const unit = entry.value;
    if (!unit || unit.token !== message.token || unit.attempt !== message.attempt) return;
    await acquire();
    try {
      if (closing) {
        await commit(() => send(kv.atomic(), message, BOUNCE_MS));
        return;
      }
      try {
        await handle(unit.payload);
      } catch {
        const next = { ...message, attempt: message.attempt + 1 };
        const retry = { ...unit, attempt: next.attempt };
        await commit(() =>
          send(kv.atomic().check(entry).set(entry.key, retry), next, retryDelayMs(delays, next.attempt)),
        );
        return;
      }
      await commit(() => kv.atomic().check(entry).delete(entry.key));
    } finally {
      release();
    }
  }

  /** Puts back the messages Deno KV gave up on (their keys hold the message). */
  async function recover(): Promise<void> {
    for await (const lost of kv.list<Message>({ prefix: [...prefix, 'undelivered'] })) {
      const message = lost.value;
      if (ours(message)) await commit(() => send(kv.atomic().check(lost).delete(lost.key), message, 0));
    }
  }

  return {
    shared: true,
    async enqueue(key, payload, enqueueOptions = {}) {
      assertQueueKey(key);
      if (closing) throw new Error('The job queue is closed');
      const message: Message = { tubescribeJobs: tag, key, token: crypto.randomUUID(), attempt: 0 };
      const unit: Unit = { payload: { ...payload }, token: message.token, attempt: 0 };
      const delay = Math.max(0, Math.round(enqueueOptions.delayMs ?? 0));
      const absent = { key: unitKey(key), versionstamp: null };
      // Not ok: the key is already waiting or running (dedupe).
      await commit(() => send(kv.atomic().check(absent).set(unitKey(key), unit), message, delay));
    },

    work(handle, workOptions) {
      if (handler) throw new Error('work() was already called on this job queue');
      handler = handle;
      free = Math.max(1, Math.floor(workOptions.concurrency));
      void kv
        .listenQueue(async (value) => {
          if (!ours(value)) return;
          inside++;
          try {
            await deliver(value, handle);
          } finally {
            if (--inside === 0) for (const resolve of idle.splice(0)) resolve();
          }
        })
        .catch(() => {});
      void recover().catch(() => {});
    },

    close() {
      closing ??= (async () => {
        // Deliveries waiting for a slot go back to the queue.
        for (const wake of waiting.splice(0)) wake();
        if (inside > 0) await new Promise<void>((resolve) => idle.push(resolve));
      })();
      return closing;
    },
  };
}
