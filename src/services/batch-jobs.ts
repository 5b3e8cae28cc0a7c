/**
 * Asynchronous batch jobs (`POST /v1/batch`, `GET` and `DELETE /v1/batch/{id}`): submission,
 * the job record, cancellation, and the queue handler that runs tasks on every instance.
 *
 * Pacing: a job of concurrency c runs in c lanes: tasks 0…c-1 are queued at submission, and
 * when task i finishes its worker queues task i + c. So at most c tasks of a job run at once
 * across all instances, with no shared counter, and queueing the successor is idempotent (the
 * queue dedupes keys), so a redelivered task never adds a second lane.
 *
 * Money, per task (never charged twice, also across crashes and instances): reserve the task's
 * price as `batch:<job>:<index>:<attempt>` when it starts (returning any hold an interrupted
 * earlier attempt left); on success the one worker
 * that wins `consumeOnce('batch-charge:<job>:<index>')` commits, any later re-run releases; on
 * failure release. The task document is written after the money moved, so a task whose worker
 * died is run again, and its second run cannot charge again. Each task also counts toward the
 * account's daily request cap (not its per-second limit: the job's concurrency paces it).
 * @module
 */
import { newId } from '../core/api-keys.ts';
import { isFinished, type TaskRecord, taskErrorFrom } from '../core/batch.ts';
import type { BatchJobRecord } from '../core/batch-record.ts';
import { CANCELLED_ERROR } from '../core/batch-record.ts';
import { taskPrice, taskReservationId } from '../core/batch-settings.ts';
import { sha256Hex } from '../core/digest.ts';
import { isDailyRule } from '../core/plans.ts';
import type { Pricing } from '../core/pricing.ts';
import { rateLimitApiError } from '../core/ratelimit.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { JobQueue, QueuePayload } from '../ports/jobs.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger, RateRule } from '../ports/ledger.ts';
import type { Logger } from '../ports/logger.ts';
import type { Random } from '../ports/random.ts';
import type { Principal } from './accounts.ts';
import {
  type BatchEnd,
  type BatchHeader,
  type BatchState,
  BatchStore,
  JOB_COUNTER_TTL_MS,
  jobCounterKey,
  queued,
  recordOf,
} from './batch-store.ts';
import { BatchWebhooks } from './batch-webhooks.ts';
import { type Batches, operationOf, type RunnableTask } from './batches.ts';
import type { Billing } from './billing.ts';
import { asApiError, deadlineSignal } from './context.ts';
import type { Metrics } from './metrics.ts';
import { checkWebhookUrl, newWebhookSecret, type WebhookPolicy, type WebhookSender } from './webhooks.ts';

/** Settings of asynchronous batches. */
export interface BatchJobSettings {
  /** How long a finished job is kept (after `completed_at`). Default 7 days. */
  retentionMs: number;
  /**
   * Batch tasks running at once on one instance, whatever the jobs (interactive traffic first).
   * 0: this instance runs no tasks and delivers no webhooks; it still accepts, answers and
   * cancels jobs, and other instances on the same shared queue do the work (`JobQueue.shared`).
   */
  instanceConcurrency: number;
  /** Deadline of each task's upstream work. */
  deadlineMs: number;
  /** Starts of one task before an interrupted task is failed. */
  maxAttempts: number;
  /** Delays before webhook retries (default: at least 5 retries over 10 minutes). */
  webhookRetryDelaysMs?: readonly number[];
}

/** Dependencies of {@link BatchJobs}. */
export interface BatchJobsDeps {
  kv: KeyValue;
  ledger: Ledger;
  queue: JobQueue;
  clock: Clock;
  random: Random;
  logger: Logger;
  pricing: Pricing;
  billing: Billing;
  batches: Batches;
  webhooks: WebhookSender;
  webhookPolicy: WebhookPolicy;
  settings: BatchJobSettings;
  /** Hears each task that reached a final state. */
  metrics?: Pick<Metrics, 'batchTask'>;
  /**
   * Resolves when the event loop may run another step of background work (the composition root
   * passes the process's slices, `drivers/background-turn.ts`); by default, the next timer turn.
   */
  backgroundTurn?: () => Promise<void>;
}

/** A submission, validated by the HTTP layer. */
export interface BatchSubmission {
  tasks: RunnableTask[];
  concurrency: number;
  webhookUrl?: string;
  idempotencyKey?: string;
}

/** The longest a job may take to run; storage keeps its documents this long plus the retention. */
const MAX_RUN_MS = 24 * 3_600_000;
const IDEMPOTENCY_MS = 24 * 3_600_000;
const CLAIM_MS = 60_000;

/** What an Idempotency-Key remembers: the job, and the body it was created from. */
interface IdempotentSubmission {
  id: string;
  fingerprint: string;
}

/** How many lanes a job runs in: its concurrency, or fewer when it has fewer tasks. */
function lanesOf(header: BatchHeader): number {
  return Math.min(header.concurrency, header.tasks.length);
}

/** The plan rules a batch task counts toward: the daily ones, at their own positions (the Ledger keys rules by position). */
function dailyRulesOf(rules: readonly RateRule[]): RateRule[] {
  // A non-daily rule is replaced by one that never refuses and counts in a window of its own.
  return rules.map((rule) => (isDailyRule(rule) ? rule : { limit: Number.MAX_SAFE_INTEGER, window: 86_399 }));
}

/** The service. */
export class BatchJobs {
  private readonly store: BatchStore;
  private readonly hooks: BatchWebhooks;
  /** Aborted by {@link BatchJobs.stop}: running tasks are handed back. */
  private readonly handBack = new AbortController();
  private readonly backgroundTurn: () => Promise<void>;

  constructor(private readonly deps: BatchJobsDeps) {
    this.backgroundTurn = deps.backgroundTurn ?? (() => new Promise((resolve) => setTimeout(resolve, 0)));
    this.store = new BatchStore(deps.kv, MAX_RUN_MS + deps.settings.retentionMs);
    this.hooks = new BatchWebhooks({
      store: this.store,
      queue: deps.queue,
      sender: deps.webhooks,
      logger: deps.logger,
      record: (state) => recordOf(state, deps.settings.retentionMs),
      ...(deps.settings.webhookRetryDelaysMs ? { retryDelaysMs: deps.settings.webhookRetryDelaysMs } : {}),
    });
  }

  /**
   * Starts taking work from the queue (unless `instanceConcurrency` is 0), and re-queues the open
   * jobs' next tasks: an in-process queue loses them in a restart, a durable one dedupes them.
   */
  async start(): Promise<void> {
    const concurrency = this.deps.settings.instanceConcurrency;
    if (concurrency > 0) this.deps.queue.work((payload) => this.handle(payload), { concurrency });
    for (const id of await this.store.openIds()) await this.resume(id);
  }

  /**
   * Graceful stop: takes no more units from the queue (each one delivered from now on is handed
   * straight back) and hands the running tasks back: their upstream work is aborted, their hold
   * released and their record set back to waiting (the attempt is not counted toward the limit, but
   * its reservation id is never reused, so the next run holds and charges afresh), and the handler rejects,
   * so the queue delivers the task again: on another instance (durable queues) or, after a restart,
   * from the stored jobs (`start()` re-queues them). Nothing is charged or failed for it.
   */
  stop(): void {
    if (!this.handBack.signal.aborted) this.handBack.abort(new Error('tubescribe is stopping'));
  }

  /** Accepts a job: 202 record, with the webhook secret shown once. */
  async submit(
    principal: Principal,
    submission: BatchSubmission,
  ): Promise<{ record: BatchJobRecord; fresh: boolean }> {
    const { clock, random, ledger } = this.deps;
    const fingerprint = await sha256Hex(
      JSON.stringify([submission.tasks, submission.concurrency, submission.webhookUrl ?? null]),
    );
    const idempotency =
      submission.idempotencyKey === undefined
        ? undefined
        : `batchidem:${principal.accountId}:${await sha256Hex(submission.idempotencyKey)}`;
    if (idempotency) {
      const earlier = await this.deps.kv.get<IdempotentSubmission>(idempotency);
      if (earlier) return this.replay(principal, earlier, fingerprint);
    }
    // Everything that can refuse the job comes before the idempotency claim.
    const tasks = submission.tasks.map((task) => ({ ...task, price: taskPrice(task, this.deps.pricing) }));
    const cheapest = Math.min(...tasks.map((t) => t.price).filter((p) => p > 0));
    if (Number.isFinite(cheapest)) {
      const { balance } = await ledger.credits(principal.accountId);
      if (balance < cheapest) {
        throw new ApiError(
          'insufficient_credits',
          `The balance (${balance}) does not cover one task (${cheapest}).`,
          {
            details: { required: cheapest, balance },
          },
        );
      }
    }
    const webhookUrl =
      submission.webhookUrl === undefined
        ? undefined
        : await checkWebhookUrl(submission.webhookUrl, this.deps.webhookPolicy);
    if (idempotency) {
      const earlier = await this.claimIdempotent(idempotency);
      if (earlier) return this.replay(principal, earlier, fingerprint);
    }
    const header: BatchHeader = {
      id: newId('batch', random),
      account: principal.accountId,
      created_at: clock.now(),
      concurrency: submission.concurrency,
      tasks,
      estimated_credits: tasks.reduce((sum, t) => sum + t.price, 0),
      dailyRules: dailyRulesOf(principal.plan.rules),
    };
    const secret = webhookUrl === undefined ? undefined : newWebhookSecret(random);
    if (webhookUrl !== undefined && secret !== undefined) header.webhook = { url: webhookUrl, secret };
    await this.store.create(
      header,
      await ledger.counter(jobCounterKey(principal.accountId), 1, JOB_COUNTER_TTL_MS),
    );
    if (idempotency) {
      const remembered: IdempotentSubmission = { id: header.id, fingerprint };
      await this.deps.kv.set(idempotency, remembered, { ttlMs: IDEMPOTENCY_MS });
    }
    for (let i = 0; i < lanesOf(header); i++) await this.enqueueTask(header.id, i);
    const record = recordOf({ header, tasks: tasks.map(queued) }, this.deps.settings.retentionMs);
    if (secret && record.webhook) record.webhook = { ...record.webhook, secret };
    return { record, fresh: true };
  }

  /** The job record; `batch_not_found` for another account's, an unknown or an expired job. */
  async get(principal: Principal, id: string): Promise<BatchJobRecord> {
    return recordOf(await this.own(principal, id, true), this.deps.settings.retentionMs);
  }

  /** Cancels: tasks not started never run (and cost nothing); running tasks finish. */
  async cancel(principal: Principal, id: string): Promise<BatchJobRecord> {
    const state = await this.own(principal, id, true);
    if (state.end === undefined && state.cancelledAt === undefined) {
      state.cancelledAt = this.deps.clock.now();
      await this.store.cancel(id, state.cancelledAt);
    }
    return recordOf(state, this.deps.settings.retentionMs);
  }

  private async own(principal: Principal, id: string, withResults: boolean): Promise<BatchState> {
    const state = /^batch_[A-Za-z0-9]{1,64}$/.test(id) ? await this.store.state(id, withResults) : undefined;
    const expired =
      state?.end !== undefined && state.end.at + this.deps.settings.retentionMs <= this.deps.clock.now();
    if (!state || state.header.account !== principal.accountId || expired) {
      throw new ApiError('batch_not_found', `No batch job with id ${id}.`);
    }
    return state;
  }

  /**
   * Claims an Idempotency-Key for this submission (undefined: go ahead), or waits for the job a
   * concurrent submission with the same key is creating. A claim lapses after a minute, so a
   * submission that died before creating its job does not block the key.
   */
  private async claimIdempotent(key: string): Promise<IdempotentSubmission | undefined> {
    if (await this.deps.ledger.consumeOnce(`${key}:claim`, CLAIM_MS)) return undefined;
    for (let i = 0; i < 100; i++) {
      const earlier = await this.deps.kv.get<IdempotentSubmission>(key);
      if (earlier) return earlier;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new ApiError('internal_error', 'A submission with the same Idempotency-Key did not finish; retry.');
  }

  private async replay(principal: Principal, earlier: IdempotentSubmission, fingerprint: string) {
    if (earlier.fingerprint !== fingerprint) {
      throw new ApiError('idempotency_conflict', 'This Idempotency-Key was used with another request body.');
    }
    return { record: await this.get(principal, earlier.id), fresh: false };
  }

  private enqueueTask(id: string, index: number): Promise<void> {
    return this.deps.queue.enqueue(`task.${id}.${index}`, { kind: 'task', job: id, index });
  }

  /** The queue handler: one task, or one webhook delivery. */
  async handle(payload: QueuePayload): Promise<void> {
    if (this.handBack.signal.aborted) throw new Error('stopping: unit handed back to the queue');
    if (payload.kind === 'webhook') return this.hooks.deliver(String(payload.job), Number(payload.attempt));
    if (payload.kind !== 'task') return;
    // Batch work comes second: waiting I/O (interactive requests) runs before this task's work.
    await this.backgroundTurn();
    const id = String(payload.job);
    const index = Number(payload.index);
    const header = await this.store.header(id);
    const spec = header?.tasks[index];
    if (!header || !spec) return; // expired or removed: nothing to do
    const task = (await this.store.task(id, index)) ?? queued(spec, index);
    if (!isFinished(task)) await this.runTask(header, task, await this.store.cancelledAt(id));
    const next = index + header.concurrency;
    if (next < header.tasks.length) await this.enqueueTask(id, next);
    else await this.finishIfDone(id);
  }

  private async runTask(
    header: BatchHeader,
    stored: TaskRecord,
    cancelledAt: number | undefined,
  ): Promise<void> {
    const { clock, billing } = this.deps;
    const spec = header.tasks[stored.index]!;
    const save = async (task: TaskRecord) => {
      await this.store.saveTask(header.id, task);
      if (isFinished(task)) this.deps.metrics?.batchTask(task.state);
    };
    const started = clock.now();
    const fail = (error: unknown, base: TaskRecord) =>
      save({
        ...base,
        state: 'failed',
        error: taskErrorFrom(asApiError(error)),
        charged: 0,
        finished_at: clock.now(),
        latency_ms: clock.now() - started,
      });
    if (cancelledAt !== undefined) {
      await save({
        ...stored,
        state: 'cancelled',
        error: CANCELLED_ERROR,
        charged: 0,
        finished_at: clock.now(),
        latency_ms: 0,
      });
      return;
    }
    const running: TaskRecord = {
      ...stored,
      state: 'running',
      attempts: stored.attempts + 1,
      started_at: started,
    };
    if (running.attempts - (stored.handedBack ?? 0) > this.deps.settings.maxAttempts) {
      return fail(
        new ApiError('internal_error', `The task was interrupted ${stored.attempts} times; giving up.`),
        running,
      );
    }
    await save(running);
    const decision = await this.deps.ledger.hit(`acct:${header.account}`, header.dailyRules);
    if (!decision.allowed) return fail(rateLimitApiError(decision, header.dailyRules), running);
    // One reservation per attempt: an earlier attempt cut off by a crash left its hold, which
    // goes back now (a hold that was committed is not touched: release is a no-op then).
    for (let attempt = 1; attempt < running.attempts; attempt++)
      await billing.release(taskReservationId(header.id, stored.index, attempt));
    const reservation = taskReservationId(header.id, stored.index, running.attempts);
    const op = operationOf(spec);
    try {
      if (spec.price > 0) await billing.hold(header.account, spec.price, reservation);
    } catch (error) {
      return fail(error, running);
    }
    try {
      const { data, cache } = await this.deps.batches.perform(
        spec,
        deadlineSignal(this.handBack.signal, this.deps.settings.deadlineMs),
      );
      await this.backgroundTurn();
      const price = Math.min(spec.price, billing.chargeOf(op, cache));
      let charged = 0;
      if (
        price > 0 &&
        (await this.deps.ledger.consumeOnce(`batch-charge:${header.id}:${stored.index}`, MAX_RUN_MS))
      ) {
        await billing.commit(reservation, { op, credits: price });
        charged = price;
      } else if (spec.price > 0) {
        await billing.release(reservation);
        // A re-run after a crash: the first run's commit already charged this task.
        if (price > 0) charged = price;
      }
      await save({
        ...running,
        state: 'succeeded',
        data,
        charged,
        finished_at: clock.now(),
        latency_ms: clock.now() - started,
      });
    } catch (error) {
      if (spec.price > 0) await billing.release(reservation);
      if (this.handBack.signal.aborted) {
        // Handed back: waiting again, this attempt not counted (its reservation id stays used).
        await save({ ...stored, attempts: running.attempts, handedBack: (stored.handedBack ?? 0) + 1 });
        this.deps.logger.log('info', 'batch task handed back', { job: header.id, task: stored.index });
        throw error;
      }
      await fail(error, running);
    }
  }

  /** Marks the job finished once every task is, exactly once, and starts its webhook. */
  private async finishIfDone(id: string): Promise<void> {
    const state = await this.store.state(id);
    if (!state || state.end || !state.tasks.every(isFinished)) return;
    if (!(await this.deps.ledger.consumeOnce(`batch-end:${id}`, MAX_RUN_MS))) return;
    const end: BatchEnd = { at: this.deps.clock.now() };
    if (state.header.webhook) end.webhook = 'pending';
    await this.store.end(id, end);
    if (state.header.webhook) await this.hooks.schedule(id, 1, 0);
  }

  /** Re-queues what an in-process queue lost: the first unfinished task of each lane, the end, the webhook. */
  private async resume(id: string): Promise<void> {
    const state = await this.store.state(id);
    if (!state) return;
    if (state.end) {
      if (state.end.webhook === 'pending') await this.hooks.schedule(id, 1, 0);
      return;
    }
    const { concurrency } = state.header;
    for (let lane = 0; lane < lanesOf(state.header); lane++) {
      for (let i = lane; i < state.tasks.length; i += concurrency) {
        if (isFinished(state.tasks[i]!)) continue;
        await this.enqueueTask(id, i);
        break;
      }
    }
    await this.finishIfDone(id);
  }
}
