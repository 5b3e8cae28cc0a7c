/**
 * What `GET /metrics` shows after real calls: requests by route pattern (never the raw path),
 * method and status with their latency, credits by operation (REST and batch), cache lookups by
 * tier and result, batch tasks by final state, sign-up and verify outcomes, ledger failures; and
 * Prometheus's own `promtool check metrics` finds no problem in the scrape.
 * @module
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tubescribe } from '../../src/app.ts';
import { ApiError } from '../../src/errors.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { type SignupHarness, signupHarness } from '../signup/support.ts';
import { parseMetrics, sample } from './parse.ts';
import { HAS_PROMTOOL, METRICS_TOKEN, PROMTOOL_TITLE, promtoolCheck, scrape } from './support.ts';

/** A video the fake upstream does not know: its batch task fails. */
const UNKNOWN_VIDEO = 'bbbbbbbbbbb';

/** Waits (bounded) until the batch job `id` of the key `apiKey` has finished. */
async function batchFinished(ts: Tubescribe, apiKey: string, id: string): Promise<void> {
  const principal = await ts.services.accounts.authenticate(apiKey);
  for (let i = 0; i < 400; i++) {
    if ((await ts.services.batchJobs.get(principal, id)).completed_at !== null) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`batch ${id} did not finish`);
}

describe('GET /metrics: what a workload leaves', () => {
  let h: SignupHarness;
  let text: string;
  beforeAll(async () => {
    h = await signupHarness({ metricsToken: METRICS_TOKEN });
    const { api_key: key } = await h.key(100);
    const transcript = `/v1/transcripts?video_id=${VIDEO}`;
    expect((await h.call(transcript, { key })).status).toBe(200); // upstream: charged
    expect((await h.call(transcript, { key })).status).toBe(200); // L1 hit
    expect((await h.call('/v1/transcripts?video_id=bad', { key })).status).toBe(400);
    h.upstream.failures.captions = new ApiError('upstream_error', 'YouTube is down (test).');
    expect((await h.call(`${transcript}&languages=de`, { key })).status).toBe(502); // not charged
    delete h.upstream.failures.captions;
    expect((await h.call(`/v1/videos/${VIDEO}/basic-info`, { key: 'tsk_wrong' })).status).toBe(401);
    expect((await h.call('/no/such/path/123')).status).toBe(404);
    await h.complete('ada@example.com');
    expect((await h.verify('x'.repeat(43), '123456')).status).toBeGreaterThanOrEqual(400);
    const batch = await h.call('/v1/batch', {
      key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tasks: [
          { type: 'transcript', video_id: VIDEO, format: 'text', languages: ['de'] },
          { type: 'transcript', video_id: UNKNOWN_VIDEO },
        ],
      }),
    });
    expect(batch.status).toBe(202);
    await batchFinished(h.ts, key, ((await batch.json()) as { id: string }).id);
    text = await scrape(h.ts.app, METRICS_TOKEN);
  });

  it('counts requests by route pattern, method and status, never by raw path', () => {
    const samples = parseMetrics(text);
    expect(
      sample(samples, 'tubescribe_http_requests_total', { route: '/v1/transcripts', status: '200' }),
    ).toBe(2);
    expect(
      sample(samples, 'tubescribe_http_requests_total', { route: '/v1/transcripts', status: '400' }),
    ).toBe(1);
    expect(
      sample(samples, 'tubescribe_http_requests_total', {
        route: '/v1/videos/:id/basic-info',
        method: 'GET',
        status: '401',
      }),
    ).toBe(1);
    expect(sample(samples, 'tubescribe_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(text).not.toContain('/no/such/path');
    expect(text).not.toContain(VIDEO);
    expect(
      sample(samples, 'tubescribe_http_requests_total', { route: '/v1/transcripts', status: '502' }),
    ).toBe(1);
    expect(
      sample(samples, 'tubescribe_http_request_duration_seconds_count', { route: '/v1/transcripts' }),
    ).toBe(4);
    expect(
      sample(samples, 'tubescribe_http_request_duration_seconds_bucket', {
        route: '/v1/transcripts',
        le: '+Inf',
      }),
    ).toBe(4);
  });

  it('counts credits by operation, and cache lookups by tier and result', () => {
    const samples = parseMetrics(text);
    // Both transcript calls were charged (cache hits are charged by default): 1 credit each.
    expect(sample(samples, 'tubescribe_credits_charged_total', { operation: 'transcript' })).toBe(2);
    expect(
      sample(samples, 'tubescribe_cache_lookups_total', { tier: 'memory', result: 'hit' }),
    ).toBeGreaterThan(0);
    expect(
      sample(samples, 'tubescribe_cache_lookups_total', { tier: 'memory', result: 'miss' }),
    ).toBeGreaterThan(0);
    expect(
      sample(samples, 'tubescribe_cache_lookups_total', { tier: 'persistent', result: 'miss' }),
    ).toBeGreaterThan(0);
  });

  it('counts a cache entry found past its freshness as stale, in both tiers', async () => {
    const { api_key: key } = await h.key(10);
    const before = parseMetrics(await scrape(h.ts.app));
    const stale = (samples: typeof before, tier: string) =>
      sample(samples, 'tubescribe_cache_lookups_total', { tier, result: 'stale' }) ?? 0;
    h.clock.advance(25 * 3_600_000); // past the captions' 24 h, within their 24 h of staleness
    expect((await h.call(`/v1/transcripts?video_id=${VIDEO}`, { key })).status).toBe(200);
    const after = parseMetrics(await scrape(h.ts.app));
    expect(stale(after, 'memory') - stale(before, 'memory')).toBeGreaterThan(0);
    expect(stale(after, 'persistent') - stale(before, 'persistent')).toBeGreaterThan(0);
  });

  it('counts batch tasks by final state, and their credits', () => {
    const samples = parseMetrics(text);
    expect(sample(samples, 'tubescribe_batch_tasks_total', { state: 'succeeded' })).toBe(1);
    expect(sample(samples, 'tubescribe_batch_tasks_total', { state: 'failed' })).toBe(1);
    expect(sample(samples, 'tubescribe_credits_charged_total', { operation: 'batch_transcript' })).toBe(1);
  });

  it('counts sign-ups and verifications by outcome', () => {
    const samples = parseMetrics(text);
    expect(sample(samples, 'tubescribe_signups_total', { step: 'signup', outcome: 'code_sent' })).toBe(1);
    expect(sample(samples, 'tubescribe_signups_total', { step: 'verify', outcome: 'account_created' })).toBe(
      1,
    );
    const failed = samples.filter(
      (s) =>
        s.name === 'tubescribe_signups_total' &&
        s.labels.step === 'verify' &&
        s.labels.outcome !== 'account_created',
    );
    expect(failed.map((s) => [s.labels.outcome, s.value])).toEqual([['invalid_signup_token', 1]]);
  });

  it('counts ledger failures', async () => {
    const { api_key: key } = await h.key(10);
    // The ledger goes away: the admission (fused with the reservation, or with the payment of an
    // answer already in memory, where the ledger can) fails.
    const ledger = h.ts.ports.ledger;
    const saved = { hit: ledger.hit, admit: ledger.admit, admitPaid: ledger.admitPaid };
    const down = () => Promise.reject(new Error('ledger down'));
    ledger.hit = down;
    if (saved.admit) ledger.admit = down;
    if (saved.admitPaid) ledger.admitPaid = down;
    try {
      expect((await h.call(`/v1/transcripts?video_id=${VIDEO}`, { key })).status).toBe(503);
    } finally {
      Object.assign(ledger, saved);
    }
    const samples = parseMetrics(await scrape(h.ts.app));
    expect(sample(samples, 'tubescribe_storage_errors_total', { component: 'ledger' })).toBeGreaterThan(0);
  });

  it.skipIf(!HAS_PROMTOOL)(PROMTOOL_TITLE, async () => {
    promtoolCheck(await scrape(h.ts.app));
  });
});
