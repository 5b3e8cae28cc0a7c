/**
 * The JobQueue port: durable, at-least-once delivery of small work units (batch tasks, webhook
 * deliveries) to the instances that work on them. Engines: in memory (`jobs-memory.ts`), BullMQ
 * on Redis (`redis/jobs-bullmq.ts`) and the Deno KV queue (`deno/jobs-kv-queue.ts`); every one
 * runs the contract suite in test/contracts/jobs.ts.
 * @module
 */

/** What a queued unit carries: a small JSON object of strings and numbers. */
export type QueuePayload = Readonly<Record<string, string | number>>;

/** Options of {@link JobQueue.enqueue}. */
export interface EnqueueOptions {
  /** Deliver no earlier than this many milliseconds from now. Default 0. */
  delayMs?: number;
}

/** What `work` takes. */
export interface WorkOptions {
  /** At most this many handler calls run at once on this instance. */
  concurrency: number;
}

/**
 * A durable work queue for batch tasks and webhook deliveries, at least once.
 * - `enqueue(key, payload)` MUST deliver `payload` to a handler (on this or another instance of
 *   the same backend) until one handler call for it resolves: a handler that rejects, or whose
 *   instance dies mid-call, gets it again later (with a backoff; never lost).
 * - While a unit with the same `key` is waiting, delayed or in flight, enqueuing that key again
 *   MUST NOT add a second copy (dedupe); once it has been handled, the key may be enqueued again.
 * - Durable engines (Redis, Deno KV) keep waiting units across restarts; the in-process engine
 *   keeps them only in memory (the batch service re-enqueues unfinished work at start-up).
 * - At least once, not exactly once: a unit may run again after a call that did its work (its
 *   instance died before recording the outcome), so handlers MUST be idempotent. Order is not
 *   promised (roughly first due, first served), nor which instance gets a unit.
 */
export interface JobQueue {
  /**
   * Queues `payload` under `key`, or does nothing while `key` is already waiting, delayed or in
   * flight. `key` MUST be 1–200 characters of `A-Z a-z 0-9 _ : . -` (engines reject others).
   * Resolves once the unit is stored (durable engines: in the backend); rejects after `close()`.
   */
  enqueue(key: string, payload: QueuePayload, options?: EnqueueOptions): Promise<void>;
  /**
   * Starts consuming on this instance (call once; a second call throws). At most
   * `options.concurrency` calls of `handler` MUST run at once on this instance.
   */
  work(handler: (payload: QueuePayload) => Promise<void>, options: WorkOptions): void;
  /**
   * Stops taking units, waits for the handler calls in flight, releases timers and connections.
   * MUST NOT resolve before those calls settled; idempotent (a repeat returns the same promise).
   */
  close(): Promise<void>;
  /**
   * True when other instances take units from the same backend (Redis, Deno KV), so that an
   * instance may leave all the work to them (`batch.instanceConcurrency: 0`) and still see every
   * unit handled. Absent or false: an in-process queue, worked only by the instance that holds it.
   */
  readonly shared?: boolean;
}
