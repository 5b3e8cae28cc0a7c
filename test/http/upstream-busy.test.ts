/**
 * 503 upstream_busy over HTTP: the transport's full gate reaches the client as a retryable 503
 * with Retry-After, and costs nothing (the reservation is released).
 */
import { describe, expect, test } from 'vitest';
import { busyError } from '../../src/drivers/youtube/gate.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { expectError, fixture } from '../helpers/http.ts';

describe('503 upstream_busy', () => {
  test.each([
    ['player', `/v1/transcripts?video_id=${VIDEO}`],
    ['videoExtras', `/v1/videos/${VIDEO}/video-info`],
  ] as const)('%s busy → 503, retryable, Retry-After: 1, free', async (call, path) => {
    const f = await fixture({}, 10);
    f.upstream.failures[call] = busyError();
    const res = await f.get(path);
    expect(res.headers.get('retry-after')).toBe('1');
    const e = await expectError(res, 503, 'upstream_busy');
    expect(e.retryable).toBe(true);
    expect(await f.balance(f.accountId)).toBe(10);
    expect(await f.ts.ports.ledger.credits(f.accountId)).toMatchObject({ reserved: 0, spent: 0 });
  });
});
