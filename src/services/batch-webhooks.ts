/**
 * The webhook of a finished batch job: one signed delivery of the job record per attempt, each
 * attempt a unit on the job queue (so a receiver that is down for a while still gets the event,
 * also across restarts), retried with backoff until a 2xx or the last attempt. The event id is
 * the same on every attempt.
 * @module
 */
import type { BatchJobRecord } from '../core/batch-record.ts';
import type { JobQueue } from '../ports/jobs.ts';
import type { Logger } from '../ports/logger.ts';
import type { BatchState, BatchStore } from './batch-store.ts';
import { nextWebhookDelay, type WebhookSender } from './webhooks.ts';

/** Dependencies of {@link BatchWebhooks}. */
export interface BatchWebhooksDeps {
  store: BatchStore;
  queue: JobQueue;
  sender: WebhookSender;
  logger: Logger;
  /** The job record, as `GET /v1/batch/{id}` returns it. */
  record(state: BatchState): BatchJobRecord;
  /** Delays before the retries (default the schedule of webhooks.ts). */
  retryDelaysMs?: readonly number[];
}

/** Webhook deliveries of batch jobs. */
export class BatchWebhooks {
  constructor(private readonly deps: BatchWebhooksDeps) {}

  /** Queues delivery attempt `attempt` of job `id`, `delayMs` from now. */
  schedule(id: string, attempt: number, delayMs: number): Promise<void> {
    return this.deps.queue.enqueue(
      `webhook.${id}.${attempt}`,
      { kind: 'webhook', job: id, attempt },
      delayMs > 0 ? { delayMs } : {},
    );
  }

  /** Runs delivery attempt `attempt`: on failure schedules the next one, or gives up after the last. */
  async deliver(id: string, attempt: number): Promise<void> {
    const { store, sender, logger } = this.deps;
    const state = await store.state(id, true);
    const webhook = state?.header.webhook;
    if (!state?.end || !webhook || state.end.webhook !== 'pending') return;
    const body = JSON.stringify(this.deps.record(state));
    const result = await sender.deliver(webhook, { id: `evt_${id}`, type: 'batch.completed', body });
    if (result.ok) {
      await store.end(id, { ...state.end, webhook: 'delivered' });
      return;
    }
    const delay = nextWebhookDelay(attempt, this.deps.retryDelaysMs);
    if (delay === undefined) {
      logger.log('warn', 'batch webhook given up', { job: id, attempts: attempt });
      await store.end(id, { ...state.end, webhook: 'failed' });
      return;
    }
    await this.schedule(id, attempt + 1, delay);
  }
}
