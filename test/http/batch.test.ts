/**
 * Asynchronous batch jobs over the in-process queue: the routes and the job record of
 * decisions.md, charging per succeeded task, cancel, Idempotency-Key, retention, the daily cap,
 * `?wait=true`, and another account's job.
 */
import { describe, expect, it } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { expectError, expectJson, type Fixture, fixture, settle } from '../helpers/http.ts';

interface TaskResult {
  id: string;
  video_id: string;
  type: string;
  status: string;
  success: boolean;
  latency_ms: number | null;
  data?: Record<string, unknown>;
  error?: { code: string; retryable: boolean };
}

interface JobRecord {
  id: string;
  status: string;
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  expires_at: string | null;
  concurrency: number;
  total_tasks: number;
  completed_tasks: number;
  successful_tasks: number;
  failed_tasks: number;
  total_latency_ms: number;
  estimated_credits: number;
  charged_credits: number;
  webhook?: { url: string; secret?: string };
  results: TaskResult[];
}

const OTHER = 'bbbbbbbbbbb';

/** Waits until the job has finished (bounded), reading it through the service (polls over HTTP would count as requests). */
async function finished(f: Fixture, id: string): Promise<JobRecord> {
  const principal = await f.ts.services.accounts.authenticate(f.apiKey);
  for (let i = 0; i < 400; i++) {
    const job = (await f.ts.services.batchJobs.get(principal, id)) as JobRecord;
    if (job.completed_at !== null) return JSON.parse(JSON.stringify(job)) as JobRecord;
    await settle(5);
  }
  throw new Error(`job ${id} did not finish`);
}

describe('POST /v1/batch → GET /v1/batch/{id}', () => {
  it('accepts a job (202, Location), runs every task type, and charges each succeeded task once', async () => {
    const f = await fixture({}, 10);
    f.upstream.missing.add(OTHER);
    const res = await f.post('/v1/batch', {
      tasks: [
        { id: 'tr', type: 'transcript', video_id: VIDEO, format: 'text', languages: ['de'] },
        { type: 'basic_info', video_id: VIDEO },
        { type: 'video_info', video_id: VIDEO, mode: 'full' },
        { type: 'transcript', video_id: OTHER },
      ],
      concurrency: 2,
    });
    const accepted = await expectJson<JobRecord>(res, 202);
    expect(res.headers.get('location')).toBe(`/v1/batch/${accepted.id}`);
    expect(res.headers.get('x-credits-to-deduct')).toBe('0');
    expect(accepted).toMatchObject({
      status: 'queued',
      concurrency: 2,
      total_tasks: 4,
      completed_tasks: 0,
      estimated_credits: 4,
      charged_credits: 0,
      started_at: null,
      completed_at: null,
      expires_at: null,
    });
    expect(accepted.id).toMatch(/^batch_[A-Za-z0-9]+$/);
    // decisions.md: the 202 is the record without `results`; the poll has them, queued at first.
    expect(accepted).not.toHaveProperty('results');
    const polled = await expectJson<JobRecord>(await f.call(`/v1/batch/${accepted.id}`, { key: f.apiKey }));
    expect(polled.results.map((r) => r.id)).toEqual(['tr', '1', '2', '3']);

    const job = await finished(f, accepted.id);
    expect(job).toMatchObject({
      status: 'completed',
      completed_tasks: 4,
      successful_tasks: 3,
      failed_tasks: 1,
      charged_credits: 3,
    });
    expect(Date.parse(job.expires_at!) - Date.parse(job.completed_at!)).toBe(7 * 24 * 3_600_000);
    expect(job.started_at).not.toBeNull();
    expect(job.results.map((r) => [r.status, r.success, r.error?.code ?? null])).toEqual([
      ['succeeded', true, null],
      ['succeeded', true, null],
      ['succeeded', true, null],
      ['failed', false, 'video_unavailable'],
    ]);
    expect(job.results[0]!.data).toMatchObject({ format: 'text', language: 'de', content: 'Hallo Welt.\n' });
    expect(job.results[1]!.data).toMatchObject({ video_id: VIDEO });
    expect(await f.balance(f.accountId)).toBe(7);

    const again = await f.get(`/v1/batch/${accepted.id}`);
    expect(again.headers.get('retry-after')).toBeNull();
    expect(again.headers.get('x-credits-to-deduct')).toBe('0');
  });

  it('polls of an unfinished job carry Retry-After: 1', async () => {
    const f = await fixture({}, 10);
    let open = () => {};
    f.upstream.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', { tasks: [{ type: 'transcript', video_id: VIDEO }] }),
      202,
    );
    await settle(20);
    const running = await f.get(`/v1/batch/${id}`);
    expect(running.headers.get('retry-after')).toBe('1');
    expect(((await running.json()) as JobRecord).results[0]!.status).toBe('running');
    open();
    expect((await finished(f, id)).charged_credits).toBe(1);
  });

  it("is 404 batch_not_found for another account's job, every method, and for unknown ids", async () => {
    const f = await fixture({}, 10);
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', { tasks: [{ type: 'basic_info', video_id: VIDEO }] }),
      202,
    );
    const other = await f.key(10);
    for (const method of ['GET', 'DELETE'])
      await expectError(
        await f.call(`/v1/batch/${id}`, { method, key: other.api_key }),
        404,
        'batch_not_found',
      );
    await expectError(await f.get('/v1/batch/batch_unknown'), 404, 'batch_not_found');
    await expectError(await f.get('/v1/batch/not-an-id'), 404, 'batch_not_found');
  });
});

describe('money', () => {
  it('refuses a job the balance cannot start (402), and fails the tasks it cannot pay, free', async () => {
    const broke = await fixture({}, 0);
    await expectError(
      await broke.post('/v1/batch', { tasks: [{ type: 'transcript', video_id: VIDEO }] }),
      402,
      'insufficient_credits',
    );
    // basic_info is free: accepted at any balance.
    expect((await broke.post('/v1/batch', { tasks: [{ type: 'basic_info', video_id: VIDEO }] })).status).toBe(
      202,
    );

    const f = await fixture({}, 1);
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', {
        tasks: [0, 1, 2].map(() => ({ type: 'transcript', video_id: VIDEO })),
        concurrency: 1,
      }),
      202,
    );
    const job = await finished(f, id);
    expect(job.results.map((r) => r.error?.code ?? 'ok')).toEqual([
      'ok',
      'insufficient_credits',
      'insufficient_credits',
    ]);
    expect(job.charged_credits).toBe(1);
    expect(await f.balance(f.accountId)).toBe(0);
  });

  it('counts each task toward the daily cap, not toward the per-second limit', async () => {
    const capped = {
      capped: [
        { limit: 1, window: 1 },
        { limit: 4, window: 'utc-day' as const },
      ],
    };
    const f = await fixture({ plans: capped }, 100, { plan: 'capped' });
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', {
        tasks: [0, 1, 2, 3, 4].map(() => ({ type: 'transcript', video_id: VIDEO })),
        concurrency: 5,
      }),
      202,
    );
    const job = await finished(f, id);
    // The submission was request 1 of 4 today: three tasks pass, two meet the cap; none met the 1/s rule.
    expect(job.results.filter((r) => r.success)).toHaveLength(3);
    expect(job.results.filter((r) => r.error?.code === 'daily_limit_exceeded')).toHaveLength(2);
    expect(await f.balance(f.accountId)).toBe(97);
  });
});

describe('DELETE /v1/batch/{id}', () => {
  it('cancels: the running task finishes (and is charged), tasks not started never run and are free', async () => {
    const f = await fixture({}, 10);
    let open = () => {};
    f.upstream.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', {
        tasks: [VIDEO, VIDEO, VIDEO].map((video_id) => ({ type: 'transcript', video_id })),
        concurrency: 1,
      }),
      202,
    );
    await settle(20);
    const cancelled = await expectJson<JobRecord>(
      await f.call(`/v1/batch/${id}`, { method: 'DELETE', key: f.apiKey }),
    );
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.results.map((r) => r.status)).toEqual(['running', 'cancelled', 'cancelled']);
    expect(cancelled.results[1]!.error).toMatchObject({ code: 'cancelled', retryable: false });
    open();
    const job = await finished(f, id);
    expect(job.status).toBe('cancelled');
    expect(job.results.map((r) => r.status)).toEqual(['succeeded', 'cancelled', 'cancelled']);
    expect(job.charged_credits).toBe(1);
    expect(await f.balance(f.accountId)).toBe(9);
    expect(f.upstream.calls.captions).toBe(1);
  });

  it('answers a finished job as completed', async () => {
    const f = await fixture({}, 10);
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', { tasks: [{ type: 'basic_info', video_id: VIDEO }] }),
      202,
    );
    await finished(f, id);
    const res = await expectJson<JobRecord>(
      await f.call(`/v1/batch/${id}`, { method: 'DELETE', key: f.apiKey }),
    );
    expect(res.status).toBe('completed');
  });
});

describe('Idempotency-Key, retention, validation, ?wait=true', () => {
  it('returns the same job for the same key and body; 409 for another body', async () => {
    const f = await fixture({}, 10);
    const body = { tasks: [{ type: 'transcript', video_id: VIDEO }] };
    const headers = { 'idempotency-key': 'order-42' };
    const first = await expectJson<JobRecord>(await f.post('/v1/batch', body, { headers }), 202);
    await finished(f, first.id);
    const second = await expectJson<JobRecord>(await f.post('/v1/batch', body, { headers }), 202);
    expect(second.id).toBe(first.id);
    expect(await f.balance(f.accountId)).toBe(9);
    await expectError(
      await f.post('/v1/batch', { tasks: [{ type: 'basic_info', video_id: VIDEO }] }, { headers }),
      409,
      'idempotency_conflict',
    );
  });

  it('keeps a finished job 7 days, then forgets it', async () => {
    const f = await fixture({}, 10);
    const { id } = await expectJson<JobRecord>(
      await f.post('/v1/batch', { tasks: [{ type: 'basic_info', video_id: VIDEO }] }),
      202,
    );
    await finished(f, id);
    f.clock.advance(7 * 24 * 3_600_000 - 1000);
    expect((await f.get(`/v1/batch/${id}`)).status).toBe(200);
    f.clock.advance(2000);
    await expectError(await f.get(`/v1/batch/${id}`), 404, 'batch_not_found');
  });

  it.each([
    ['no tasks', { tasks: [] }],
    ['101 tasks', { tasks: Array.from({ length: 101 }, () => ({ type: 'basic_info', video_id: VIDEO })) }],
    ['concurrency 21', { tasks: [{ type: 'basic_info', video_id: VIDEO }], concurrency: 21 }],
    ['concurrency 0', { tasks: [{ type: 'basic_info', video_id: VIDEO }], concurrency: 0 }],
    ['an unknown type', { tasks: [{ type: 'comments', video_id: VIDEO }] }],
    ['a bad mode', { tasks: [{ type: 'video_info', video_id: VIDEO, mode: 'slow' }] }],
  ])('refuses %s with 400, free', async (_name, body) => {
    const f = await fixture({}, 10);
    await expectError(await f.post('/v1/batch', body), 400, 'invalid_parameter');
    expect(await f.balance(f.accountId)).toBe(10);
  });

  it('refuses a webhook to a private address by default (400 invalid_webhook_url)', async () => {
    const f = await fixture({}, 10);
    const body = {
      tasks: [{ type: 'basic_info', video_id: VIDEO }],
      webhook: { url: 'http://127.0.0.1:9/hook' },
    };
    await expectError(await f.post('/v1/batch', body), 400, 'invalid_webhook_url');
  });

  it('?wait=true answers ≤ 10 tasks synchronously (200), charged per succeeded task', async () => {
    const f = await fixture({}, 10);
    f.upstream.missing.add(OTHER);
    const res = await f.post('/v1/batch?wait=true', {
      tasks: [
        { type: 'transcript', video_id: VIDEO },
        { type: 'transcript', video_id: OTHER },
      ],
    });
    const body = await expectJson<{ total_tasks: number; successful_tasks: number; results: unknown[] }>(res);
    expect(body).toMatchObject({ total_tasks: 2, successful_tasks: 1 });
    expect(res.headers.get('x-credits-to-deduct')).toBe('1');
    expect(await f.balance(f.accountId)).toBe(9);
    const tooMany = { tasks: Array.from({ length: 11 }, () => ({ type: 'basic_info', video_id: VIDEO })) };
    await expectError(await f.post('/v1/batch?wait=true', tooMany), 400, 'invalid_parameter');
  });
});
