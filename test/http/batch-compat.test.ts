/**
 * POST /v1/transcripts/batch (the older description's synchronous batch): per-item results,
 * per-item charging (1 credit per successful item, failures free), bounds.
 */
import { describe, expect, it } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { expectError, fixture } from '../helpers/http.ts';

interface BatchBody {
  total_tasks: number;
  successful_tasks: number;
  failed_tasks: number;
  total_latency_ms: number;
  results: {
    id: string;
    video_id: string;
    type: string;
    success: boolean;
    latency_ms: number;
    data: unknown;
    error?: { code: string };
  }[];
}

describe('POST /v1/transcripts/batch', () => {
  it('answers every item, charges only the successful ones, and never fails the batch', async () => {
    const f = await fixture({}, 10);
    f.upstream.missing.add('bbbbbbbbbbb');
    const res = await f.post('/v1/transcripts/batch', {
      items: [
        { id: 'a', video_id: VIDEO },
        { id: 'b', video_id: 'bbbbbbbbbbb' },
        { id: 'c', video_id: 'not a video id' },
        { id: 'd', video_id: `https://youtu.be/${VIDEO}`, format: 'text', lang: 'de' },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-credits-to-deduct')).toBe('2');
    const body = (await res.json()) as BatchBody;
    expect(body).toMatchObject({ total_tasks: 4, successful_tasks: 2, failed_tasks: 2 });
    expect(body.results.map((r) => [r.id, r.success, r.error?.code ?? null])).toEqual([
      ['a', true, null],
      ['b', false, 'video_unavailable'],
      ['c', false, 'invalid_video_id'],
      ['d', true, null],
    ]);
    expect(body.results[0]!.data).toMatchObject({ video_id: VIDEO, language: 'en', track_kind: 'manual' });
    expect(body.results[3]!.data).toMatchObject({ format: 'text', language: 'de', content: 'Hallo Welt.\n' });
    expect(body.results[1]!.data).toBeNull();
    expect(await f.balance(f.accountId)).toBe(8);
  });

  it('fails the items the balance cannot cover, free, and charges the rest', async () => {
    const f = await fixture({}, 1);
    const res = await f.post('/v1/transcripts/batch', { video_ids: [VIDEO, VIDEO, VIDEO], concurrency: 1 });
    const body = (await res.json()) as BatchBody;
    expect(res.status).toBe(200);
    expect(body.successful_tasks).toBe(1);
    expect(body.results.filter((r) => !r.success).map((r) => r.error?.code)).toEqual([
      'insufficient_credits',
      'insufficient_credits',
    ]);
    expect(res.headers.get('x-credits-to-deduct')).toBe('1');
    expect(await f.balance(f.accountId)).toBe(0);
  });

  it('validates the body: at least one and at most 50 items', async () => {
    const f = await fixture();
    await expectError(await f.post('/v1/transcripts/batch', { items: [] }), 400, 'invalid_request');
    const many = Array.from({ length: 51 }, () => VIDEO);
    await expectError(await f.post('/v1/transcripts/batch', { video_ids: many }), 400, 'invalid_request');
    await expectError(
      await f.post('/v1/transcripts/batch', { items: [{ video_id: VIDEO, format: 'pdf' }] }),
      400,
      'invalid_parameter',
    );
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});
