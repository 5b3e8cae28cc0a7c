/**
 * The JobQueue on BullMQ: units are BullMQ jobs in one queue on the deployment's Redis, shared by
 * every instance that opens it.
 *
 * - Dedupe: a unit's job id is derived from its key ({@link bullmqJobId}); BullMQ ignores an add
 *   whose id exists, and `removeOnComplete` deletes a handled job, so its key can come back.
 * - Retries: a rejected handler call fails the attempt; `attempts` is practically unlimited and
 *   the waits follow the engines' capped schedule (a custom backoff, 100 ms up to 60 s), so a unit
 *   is never failed for good. `removeOnFail` only matters if that ever happens.
 * - Dead instances: BullMQ's stall detection. A worker holds a lock on each job it runs and renews
 *   it every `lockDurationMs / 2`; once a dead worker's lock lapses, the next stall check (every
 *   `stalledIntervalMs`, by any live worker) puts the job back, so it runs again within about
 *   `lockDurationMs + 2 × stalledIntervalMs` (defaults 15 s and 5 s: at most ~25 s). A worker
 *   whose event loop stalls longer than `lockDurationMs` may see its job run twice (at least once).
 *   `maxStalledCount` is practically unlimited too.
 * - Keys: the URL's `?prefix=` (or `prefix`, default `tubescribe:`) as for `openRedisStorage`;
 *   BullMQ's keys are `<prefix>bullmq:<queueName>:…`, beside tubescribe's own.
 * - Connections: BullMQ's own, made from the URL (a worker's with `maxRetriesPerRequest: null`,
 *   so it waits out a Redis restart instead of failing).
 * - `close()` first waits (up to 5 s) for the worker's connections to be live: BullMQ's close
 *   never returns when it starts while a connection is reconnecting (it cancels the reconnection
 *   and then waits for the connection to end). Closing while Redis stays away can still hang.
 * - `bullmq` (an optional peer dependency) is loaded on first use, so `tubescribe/redis` imports
 *   without it (and `deno check` of that entry does not resolve BullMQ's npm graph); without it,
 *   `enqueue` rejects with an error that says so. The part of its API used here is typed below.
 * @module
 */
import type { JobQueue, QueuePayload } from '../../ports/jobs.ts';
import { assertQueueKey, defaultRetryDelaysMs, retryDelayMs } from '../jobs-memory.ts';
import { splitRedisUrl } from './storage.ts';
import { fillTracingChannelGap } from './tracing-channel.ts';

/** Options of {@link createBullmqJobQueue}. */
export interface BullmqJobQueueOptions {
  /** `redis://…`, optionally with `?prefix=`. */
  url: string;
  /** Key prefix of the deployment. Default: the URL's `prefix`, else `tubescribe:`. */
  prefix?: string;
  /** BullMQ's queue name (no `:`). Default `jobs`. */
  queueName?: string;
  /** How long a job's lock lasts without renewal. Default 15,000. */
  lockDurationMs?: number;
  /** How often a worker looks for jobs whose lock lapsed. Default 5,000. */
  stalledIntervalMs?: number;
  /** Waits before each redelivery after a rejection. Default: the engines' schedule. */
  retryDelaysMs?: readonly number[];
}

interface Closable {
  on(event: 'error', listener: (error: Error) => void): unknown;
  close(): Promise<void>;
}
interface BullQueue extends Closable {
  add(name: string, data: QueuePayload, options: Record<string, unknown>): Promise<unknown>;
}
interface BullWorker extends Closable {
  getBackend(): { client: Promise<{ status: string }>; blockingClient?: Promise<{ status: string }> };
}
interface Bullmq {
  Queue: new (name: string, options: Record<string, unknown>) => BullQueue;
  Worker: new (
    name: string,
    run: (job: { data: QueuePayload }) => Promise<void>,
    options: Record<string, unknown>,
  ) => BullWorker;
}

/** A variable, so that type checkers and bundlers leave the optional package alone. */
const BULLMQ = 'bullmq';
/** "Practically unlimited" attempts and stalls: a unit is never failed for good. */
const UNLIMITED = 1_000_000_000;
const BACKOFF = 'tubescribe';
/** How long `close()` waits for the worker's connections to come back before closing anyway. */
const LIVE_WAIT_MS = 5_000;
const ignore = (): void => {};

/**
 * The BullMQ job id of a queue key: BullMQ refuses ids with `:` and all-digit ids, so every `:`
 * becomes `|` and a `#` leads (neither occurs in keys, so distinct keys keep distinct ids).
 */
export function bullmqJobId(key: string): string {
  return `#${key.replaceAll(':', '|')}`;
}

/** Resolves once the worker's connections are ready, or after `ms`. */
async function whenLive(worker: BullWorker, ms: number): Promise<void> {
  const backend = worker.getBackend();
  const clients = [await backend.client, await backend.blockingClient];
  const end = Date.now() + ms;
  while (clients.some((client) => client && client.status !== 'ready') && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Loads the bullmq package (an optional peer dependency); rejects with the install hint when it is missing. */
function loadBullmq(): Promise<Bullmq> {
  return (import(/* @vite-ignore */ BULLMQ) as Promise<Bullmq>).catch((error: unknown) => {
    throw new Error('The BullMQ job queue needs the bullmq package (npm install bullmq)', { cause: error });
  });
}

/** Resolves when the bullmq package is installed; rejects with the install hint otherwise (check it at start-up). */
export async function requireBullmq(): Promise<void> {
  await loadBullmq();
}

/** Creates the BullMQ JobQueue; BullMQ loads and connects in the background. */
export function createBullmqJobQueue(options: BullmqJobQueueOptions): JobQueue {
  fillTracingChannelGap();
  const { url, prefix: fromUrl } = splitRedisUrl(options.url);
  const queueName = options.queueName ?? 'jobs';
  if (queueName.includes(':')) throw new Error(`The BullMQ queue name "${queueName}" must not contain ':'`);
  const prefix = `${options.prefix ?? fromUrl ?? 'tubescribe:'}bullmq`;
  const delays = options.retryDelaysMs ?? defaultRetryDelaysMs;
  const bullmq = loadBullmq();
  const queue = bullmq.then(({ Queue }) => {
    // A producer fails an add soon while Redis is away rather than retrying it for long.
    const created = new Queue(queueName, { prefix, connection: { url, maxRetriesPerRequest: 1 } });
    // Connection errors reach callers as rejected adds; BullMQ would otherwise throw them.
    created.on('error', ignore);
    return created;
  });
  queue.catch(ignore);
  let worker: Promise<BullWorker | undefined> | undefined;
  let closing: Promise<void> | undefined;

  return {
    shared: true,
    async enqueue(key, payload, enqueueOptions = {}) {
      assertQueueKey(key);
      if (closing) throw new Error('The job queue is closed');
      const delay = Math.max(0, Math.round(enqueueOptions.delayMs ?? 0));
      await (await queue).add(
        'unit',
        { ...payload },
        {
          jobId: bullmqJobId(key),
          attempts: UNLIMITED,
          backoff: { type: BACKOFF },
          removeOnComplete: true,
          removeOnFail: true,
          stackTraceLimit: 1,
          ...(delay > 0 ? { delay } : {}),
        },
      );
    },

    work(handler, workOptions) {
      if (worker) throw new Error('work() was already called on this job queue');
      const run = async (job: { data: QueuePayload }): Promise<void> => {
        try {
          await handler(job.data);
        } catch (error) {
          // BullMQ needs an Error to record a failed attempt.
          throw error instanceof Error ? error : new Error(String(error));
        }
      };
      worker = bullmq.then(({ Worker }) => {
        if (closing) return undefined;
        const created = new Worker(queueName, run, {
          prefix,
          connection: { url },
          concurrency: Math.max(1, Math.floor(workOptions.concurrency)),
          lockDuration: options.lockDurationMs ?? 15_000,
          stalledInterval: options.stalledIntervalMs ?? 5_000,
          maxStalledCount: UNLIMITED,
          settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(delays, attemptsMade) },
        });
        // Lost connections and lapsed locks: BullMQ retries and recovers by itself.
        created.on('error', ignore);
        return created;
      });
      worker.catch(ignore);
    },

    close() {
      closing ??= (async () => {
        const running = await worker?.catch(() => undefined);
        if (running) {
          await whenLive(running, LIVE_WAIT_MS);
          await running.close();
        }
        await (await queue.catch(() => undefined))?.close();
      })();
      return closing;
    },
  };
}
