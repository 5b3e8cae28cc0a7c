/**
 * Where asynchronous batch jobs live, in the KeyValue, so that every instance sees every job:
 * - `batch:<id>` the header, written once at submission (account, tasks with their prices,
 *   concurrency, webhook);
 * - `batch:<id>:t:<index>` one small document per task that has started (its state and charge),
 *   written only by the worker that holds that task, so no two writers ever race on a document,
 *   and `batch:<id>:r:<index>` the result of a succeeded task, kept apart so that running a task
 *   or checking whether a job is done never reads the other tasks' results;
 * - `batch:<id>:cancel` and `batch:<id>:end` the moments the job was cancelled and finished;
 * - `batch-of:<account>:<n>` the id of the account's n-th job, numbered by a Ledger counter
 *   (atomic across instances), so an account's recent jobs are read by number: listing the store
 *   would read every account's jobs (and on Redis, scan its whole keyspace).
 * Every document carries a storage lifetime of the longest a job may run plus its retention.
 * @module
 */
import type { TaskRecord } from '../core/batch.ts';
import { type BatchJobRecord, batchJobRecord } from '../core/batch-record.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { RateRule } from '../ports/ledger.ts';
import type { RunnableTask } from './batches.ts';

/** The Ledger counter that numbers an account's jobs (see `batch-of:` above). */
export const jobCounterKey = (account: string): string => `batch-seq:${account}`;
/** The counter's lifetime: it must outlive every job it numbered (a fixed window from the first job). */
export const JOB_COUNTER_TTL_MS: number = 10 * 365 * 86_400_000;

/** A task as submitted, with its price fixed at submission. */
export interface StoredTask extends RunnableTask {
  price: number;
}

/** The header of a job. Times are epoch ms. */
export interface BatchHeader {
  id: string;
  account: string;
  created_at: number;
  concurrency: number;
  tasks: StoredTask[];
  estimated_credits: number;
  /** The plan rules of a UTC day or longer, which every task counts toward. */
  dailyRules: RateRule[];
  webhook?: { url: string; secret: string };
}

/** The end of a job, and how far its webhook got. */
export interface BatchEnd {
  at: number;
  webhook?: 'pending' | 'delivered' | 'failed';
}

/** Everything stored about one job. */
export interface BatchState {
  header: BatchHeader;
  tasks: TaskRecord[];
  cancelledAt?: number;
  end?: BatchEnd;
}

/** Reads and writes job documents. */
export class BatchStore {
  constructor(
    private readonly kv: KeyValue,
    /** Storage lifetime of every document: the longest a job may run plus its retention. */
    private readonly lifetimeMs: number,
  ) {}

  private set<T>(key: string, value: T): Promise<void> {
    return this.kv.set(key, value, { ttlMs: this.lifetimeMs });
  }

  /** Writes a new job's header, lists it as open, and as its account's job number `n`. */
  async create(header: BatchHeader, n: number): Promise<void> {
    await this.set(`batch-open:${header.id}`, 1);
    await this.set(`batch:${header.id}`, header);
    await this.set(`batch-of:${header.account}:${n}`, header.id);
  }

  /** The ids of the account's jobs numbered `top` down to `top - count + 1` that are still kept, newest first. */
  async accountJobIds(account: string, top: number, count: number): Promise<string[]> {
    const numbers: number[] = [];
    for (let n = top; n > 0 && n > top - count; n--) numbers.push(n);
    const ids = await Promise.all(numbers.map((n) => this.kv.get<string>(`batch-of:${account}:${n}`)));
    return ids.filter((id): id is string => typeof id === 'string');
  }

  /** A job's header, or undefined. */
  header(id: string): Promise<BatchHeader | undefined> {
    return this.kv.get<BatchHeader>(`batch:${id}`);
  }

  /** The stored document of one task (without its result), or undefined when it has not started. */
  task(id: string, index: number): Promise<TaskRecord | undefined> {
    return this.kv.get<TaskRecord>(`batch:${id}:t:${index}`);
  }

  /** When the job was cancelled, or undefined. */
  async cancelledAt(id: string): Promise<number | undefined> {
    return (await this.kv.get<{ at: number }>(`batch:${id}:cancel`))?.at;
  }

  /** Writes one task's document; a result is written first, so a succeeded task always has one. */
  async saveTask(id: string, task: TaskRecord): Promise<void> {
    const { data, ...doc } = task;
    if (data !== undefined) await this.set(`batch:${id}:r:${task.index}`, data);
    await this.set(`batch:${id}:t:${task.index}`, doc);
  }

  /** Records the cancellation. */
  cancel(id: string, at: number): Promise<void> {
    return this.set(`batch:${id}:cancel`, { at });
  }

  /** Records the end of the job (and its webhook's progress); a job whose webhook is done is no longer open. */
  async end(id: string, end: BatchEnd): Promise<void> {
    await this.set(`batch:${id}:end`, end);
    if (end.webhook !== 'pending') await this.kv.delete(`batch-open:${id}`);
  }

  /** Everything about a job (the results too with `withResults`), or undefined when there is no such job. */
  async state(id: string, withResults = false): Promise<BatchState | undefined> {
    const header = await this.header(id);
    if (!header) return undefined;
    const load = async (spec: StoredTask, index: number): Promise<TaskRecord> => {
      const task = (await this.task(id, index)) ?? queued(spec, index);
      if (!withResults || task.state !== 'succeeded') return task;
      return { ...task, data: (await this.kv.get<unknown>(`batch:${id}:r:${index}`)) ?? null };
    };
    const [tasks, cancel, end] = await Promise.all([
      Promise.all(header.tasks.map(load)),
      this.kv.get<{ at: number }>(`batch:${id}:cancel`),
      this.kv.get<BatchEnd>(`batch:${id}:end`),
    ]);
    const state: BatchState = { header, tasks };
    if (cancel) state.cancelledAt = cancel.at;
    if (end) state.end = end;
    return state;
  }

  /** The ids of the jobs not finished yet, or whose webhook is still pending (work to resume after a restart). */
  async openIds(): Promise<string[]> {
    return (await this.kv.list('batch-open:')).map((key) => key.slice('batch-open:'.length));
  }
}

/** The document of a task that has not started. */
export function queued(spec: StoredTask, index: number): TaskRecord {
  const task: TaskRecord = {
    index,
    type: spec.type,
    video_id: spec.video_id,
    state: 'queued',
    price: spec.price,
    attempts: 0,
    charged: 0,
  };
  if (spec.id !== undefined) task.id = spec.id;
  if (spec.format !== undefined) task.format = spec.format;
  if (spec.mode !== undefined) task.mode = spec.mode;
  return task;
}

/** The job record of a stored state. */
export function recordOf(state: BatchState, retentionMs: number): BatchJobRecord {
  const { header } = state;
  return batchJobRecord({
    id: header.id,
    created_at: header.created_at,
    concurrency: header.concurrency,
    estimated_credits: header.estimated_credits,
    ...(header.webhook ? { webhookUrl: header.webhook.url } : {}),
    tasks: state.tasks,
    ...(state.cancelledAt === undefined ? {} : { cancelled_at: state.cancelledAt }),
    ...(state.end === undefined ? {} : { completed_at: state.end.at }),
    retentionMs,
  });
}
