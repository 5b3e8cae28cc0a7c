/**
 * The Bun adapter's `streamLateAnswers` (adapters/bun/late-answer.ts): an answer that completes
 * after its request's turn with a body past the cork buffer is re-made around a one-chunk stream
 * of the same bytes, status and headers (but `Content-Length`); any other answer is the one made.
 * Bun's own sockets are in `test/smoke/bun.mjs`; this checks the choice, which is the same under
 * any runtime.
 */
import { describe, expect, test } from 'vitest';
import { streamedWhenLate } from '../../adapters/bun/late-answer.ts';

const bytesOf = (size: number) => Uint8Array.from({ length: size }, (_, i) => 32 + (i % 90));

function answer(size: number, init: { status?: number; lengthHeader?: boolean; body?: boolean } = {}) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Request-Id': 'req_1' };
  if (init.lengthHeader !== false) headers['Content-Length'] = String(size);
  const body = init.body === false ? null : new Blob([bytesOf(size)]);
  return new Response(body, { status: init.status ?? 200, statusText: 'Fine', headers });
}

/** `made`, resolved in a later turn of the event loop (as after a Redis round trip). */
const late = (made: Response) => () => new Promise<Response>((resolve) => setImmediate(() => resolve(made)));

describe('streamedWhenLate', () => {
  test('a late answer past the cork buffer comes as a stream of the same bytes, status and headers', async () => {
    const made = answer(61_569, { status: 203 });
    const sent = await streamedWhenLate(late(made));
    expect(sent).not.toBe(made);
    expect(sent.status).toBe(203);
    expect(sent.statusText).toBe('Fine');
    expect(sent.headers.get('content-type')).toBe('application/json');
    expect(sent.headers.get('x-request-id')).toBe('req_1');
    expect(sent.headers.get('content-length')).toBeNull();
    const reader = sent.body!.getReader();
    const first = await reader.read();
    expect(first.value).toEqual(bytesOf(61_569));
    expect((await reader.read()).done).toBe(true);
  });

  test('an answer made in its own turn is sent as made, however large', async () => {
    const made = answer(61_569);
    expect(streamedWhenLate(() => made)).toBe(made);
    expect(await streamedWhenLate(() => Promise.resolve(made))).toBe(made);
    const inMicrotasks = () => Promise.resolve().then(() => Promise.resolve(made));
    expect(await streamedWhenLate(inMicrotasks)).toBe(made);
  });

  test('a late answer that fits the cork buffer with its head, or says no length, is sent as made', async () => {
    const small = answer(14_213);
    expect(await streamedWhenLate(late(small))).toBe(small);
    const unsized = answer(61_569, { lengthHeader: false });
    expect(await streamedWhenLate(late(unsized))).toBe(unsized);
  });

  test('a late answer without a body (a HEAD) keeps its length and has no body', async () => {
    const sent = await streamedWhenLate(late(answer(61_569, { body: false })));
    expect(sent.body).toBeNull();
    expect(sent.headers.get('content-length')).toBe('61569');
  });
});

describe("the Bun adapter's createHandler with streamLateAnswers", () => {
  const ADMIN = 'late-answer-admin-token-0123456789';
  const FIXTURES = new URL('../../fixtures/demo', import.meta.url).pathname;
  const JSON3 =
    'http://x/v1/transcripts?video_id=rCAS2eD-mcw&format=json3&word_level=true&track_policy=asr_only';

  test('streams a large answer read from upstream, and sends the kept rendering as made', async () => {
    const { createHandler } = await import('../../adapters/bun/index.ts');
    const { createFixturesUpstream } = await import('../../adapters/node/index.ts');
    const handler = createHandler(
      { adminToken: ADMIN, upstream: createFixturesUpstream(FIXTURES), logger: { log() {} } },
      { streamLateAnswers: true },
    );
    const created = await handler(
      new Request('http://x/admin/keys', {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ credits: 2, plan: 'paid' }),
      }),
    );
    const { api_key } = (await created.json()) as { api_key: string };
    const ask = () => handler(new Request(JSON3, { headers: { 'x-api-key': api_key } }));
    const first = await ask();
    expect(first.status).toBe(200);
    expect(first.headers.get('content-length')).toBeNull();
    const firstBytes = new Uint8Array(await first.arrayBuffer());
    expect(firstBytes.length).toBeGreaterThan(16 * 1024);
    const kept = await ask();
    expect(kept.headers.get('x-cache')).toBe('HIT');
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(firstBytes);
  });
});
