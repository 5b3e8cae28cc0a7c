/**
 * A deferred plain answer (made for an adapter that writes the body itself) is a real `Response`
 * to everything else: whatever reads its body, in whatever way, reads the body it was made from,
 * with the headers the middleware left on it; and its headers stay the record they were made from
 * only until something reads them.
 */
import { describe, expect, it } from 'vitest';
import { deferredBodyAnswer, PLAIN_BODY, type PlainAnswer, untouchedHeaders } from './plain-body.ts';

const JSON_BODY = '{"video_id":"abc","segments":[{"text":"héllo","start":0,"end":1.5}]}';
const headers = () => ({ 'Content-Type': 'application/json', 'X-Cache': 'HIT' });

describe('deferredBodyAnswer', () => {
  it('is a Response with its status and headers, carrying the body it was made from', () => {
    const answer = deferredBodyAnswer(JSON_BODY, 200, headers());
    expect(answer).toBeInstanceOf(Response);
    expect(answer.status).toBe(200);
    expect(answer.ok).toBe(true);
    expect(answer.headers.get('x-cache')).toBe('HIT');
    expect(answer[PLAIN_BODY]).toBe(JSON_BODY);
    expect(answer.bodyUsed).toBe(false);
  });

  it('reads its body through text(), json(), arrayBuffer(), bytes() and blob(), once', async () => {
    expect(await deferredBodyAnswer(JSON_BODY, 200, headers()).json()).toEqual(JSON.parse(JSON_BODY));
    const bytes = new TextEncoder().encode('1\n00:00:00,000 --> 00:00:01,500\nhéllo\n');
    expect(new Uint8Array(await deferredBodyAnswer(bytes, 200, headers()).arrayBuffer())).toEqual(bytes);
    expect(await deferredBodyAnswer(bytes, 200, headers()).bytes()).toEqual(bytes);
    expect(await (await deferredBodyAnswer(bytes, 200, headers()).blob()).text()).toBe(
      new TextDecoder().decode(bytes),
    );

    const answer = deferredBodyAnswer(JSON_BODY, 200, headers());
    expect(await answer.text()).toBe(JSON_BODY);
    expect(answer.bodyUsed).toBe(true);
    await expect(answer.text()).rejects.toThrow(TypeError);
  });

  it('streams its body, and copies into a new Response with the headers set after it was made', async () => {
    const answer = deferredBodyAnswer(JSON_BODY, 200, headers());
    answer.headers.set('X-Request-Id', 'req-1');
    const copy = new Response(answer.body, answer);
    expect(copy.status).toBe(200);
    expect(copy.headers.get('x-request-id')).toBe('req-1');
    expect(await copy.text()).toBe(JSON_BODY);
    expect(answer.bodyUsed).toBe(true);
  });

  it('clones: the clone and the answer each read the whole body', async () => {
    const answer: PlainAnswer = deferredBodyAnswer(JSON_BODY, 202, headers());
    const clone = answer.clone();
    expect(clone.status).toBe(202);
    expect(await clone.text()).toBe(JSON_BODY);
    expect(await answer.text()).toBe(JSON_BODY);
  });

  it('keeps its header record for the adapter until something reads the headers', () => {
    const record = headers();
    const answer = deferredBodyAnswer(JSON_BODY, 200, record);
    expect(untouchedHeaders(answer)).toBe(record);
    expect(answer.headers.get('content-type')).toBe('application/json');
    // Read once, the headers are the answer's Headers: the record no longer says what goes out.
    expect(untouchedHeaders(answer)).toBeUndefined();
    answer.headers.set('X-Request-Id', 'req-1');
    expect([...answer.headers]).toEqual([
      ['content-type', 'application/json'],
      ['x-cache', 'HIT'],
      ['x-request-id', 'req-1'],
    ]);
    expect(untouchedHeaders(new Response('plain'))).toBeUndefined();
  });

  it('gives its headers to the real answer once its body is read', async () => {
    const answer = deferredBodyAnswer(JSON_BODY, 200, headers());
    expect(await answer.text()).toBe(JSON_BODY);
    expect(untouchedHeaders(answer)).toBeUndefined();
    expect(answer.headers.get('x-cache')).toBe('HIT');
  });
});
