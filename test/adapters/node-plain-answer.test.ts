/**
 * The Node listener with the host's own globals writes a route's plain answer straight to the
 * socket (adapters/node/plain-answer.ts). Over a real socket, byte for byte: the same status,
 * headers and body as the app's own `fetch` answers, headers added by middleware after the route
 * (CORS, X-Request-Id) included, Content-Length exact; errors and HEAD as before. And an answer
 * made for the adapter (its body unmade) still reads whole to anything reading it on its way.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeApp } from '../../adapters/node/index.ts';
import { PLAIN_BODY, type PlainAnswer, WRITES_PLAIN_BODY } from '../../src/http/plain-body.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { ADMIN, adapterOptions, afterTest, closeServers, createKey, listen } from './node-app.ts';

const ORIGIN = 'https://app.example';

afterEach(closeServers);

/** tubescribe's Node listener, with CORS for {@link ORIGIN} unless told otherwise, on its own server. */
async function serveApp(cors = true) {
  const { handler, tubescribe } = createNodeApp({
    ...adapterOptions(),
    ...(cors ? { corsOrigins: [ORIGIN] } : {}),
  });
  const base = await listen(handler);
  afterTest(() => tubescribe.close());
  return { base, tubescribe };
}

/** One request over a socket of its own: status, raw headers and body bytes as Node received them. */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('plain answers written straight to the socket (host globals)', () => {
  it('match the app’s own answer, with the middleware’s headers and an exact Content-Length', async () => {
    const { base } = await serveApp();
    const key = await createKey(base, 10);
    const headers = { 'x-api-key': key, origin: ORIGIN, 'x-request-id': 'req-from-client-1' };
    for (const format of ['segments', 'srt', 'text']) {
      const url = `${base}/v1/transcripts?video_id=${VIDEO}&format=${format}`;
      const first = await send(url, 'GET', headers);
      const cached = await send(url, 'GET', headers);
      expect(first.status).toBe(200);
      expect(cached.status).toBe(200);
      expect(cached.headers['x-cache']).toBe('HIT');
      expect(cached.body.equals(first.body)).toBe(true);
      expect(cached.headers['content-length']).toBe(String(cached.body.byteLength));
      expect(cached.headers['transfer-encoding']).toBeUndefined();
      expect(cached.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(cached.headers['x-request-id']).toBe('req-from-client-1');
      expect(cached.headers['content-type']).toMatch(format === 'segments' ? /json/ : /text/);
      // CORS's headers went into the route's own record, so no `Headers` was made on the way.
      expect(cached.rawHeaders).toContain('Access-Control-Allow-Origin');
      expect(cached.headers.vary).toBe('Origin');
    }
    const json = await send(`${base}/v1/account`, 'GET', headers);
    expect(json.status).toBe(200);
    expect(json.headers['content-length']).toBe(String(json.body.byteLength));
    expect((JSON.parse(json.body.toString('utf8')) as { credits: number }).credits).toBeGreaterThan(0);
  });

  it('send headers no middleware touched as the route made them, with the app’s own values', async () => {
    const { base, tubescribe } = await serveApp(false);
    const key = await createKey(base, 10);
    for (const format of ['segments', 'srt']) {
      const url = `${base}/v1/transcripts?video_id=${VIDEO}&format=${format}`;
      await send(url, 'GET', { 'x-api-key': key });
      const cached = await send(url, 'GET', { 'x-api-key': key, 'x-request-id': 'req-plain-2' });
      const own = await tubescribe.fetch(new Request(url, { headers: { 'x-api-key': key } }));
      expect(cached.status).toBe(200);
      expect(cached.body.toString('utf8')).toBe(await own.text());
      expect(cached.headers['content-length']).toBe(String(cached.body.byteLength));
      expect(cached.headers['transfer-encoding']).toBeUndefined();
      expect(cached.headers['x-request-id']).toBe('req-plain-2');
      for (const name of ['content-type', 'x-cache', 'x-ratelimit-limit', 'x-credits-to-deduct']) {
        expect(cached.headers[name], name).toBe(own.headers.get(name));
      }
      // Spelled as the route wrote them, as `serve()` sends them: no `Headers` was made on the way.
      expect(cached.rawHeaders).toContain('X-Request-Id');
      expect(cached.rawHeaders).toContain('Content-Length');
    }
  });

  it('send errors, 404s and refusals whole, with their headers and an exact Content-Length', async () => {
    const { base } = await serveApp();
    const headers = { origin: ORIGIN, 'x-request-id': 'req-error-1' };
    const expectWhole = (res: Awaited<ReturnType<typeof send>>, status: number, code: string) => {
      expect(res.status).toBe(status);
      expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({ error: { code } });
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['content-length']).toBe(String(res.body.byteLength));
      expect(res.headers['x-request-id']).toBe('req-error-1');
      expect(res.headers['access-control-allow-origin']).toBe(ORIGIN);
      expect(res.headers.vary).toBe('Origin');
    };
    const missing = await send(`${base}/v1/account`, 'GET', headers);
    expectWhole(missing, 401, 'missing_api_key');
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expectWhole(await send(`${base}/v1/no-such-route`, 'GET', headers), 404, 'not_found');

    // The free plan allows 1 request a second: the second is refused with its limits.
    const created = await fetch(`${base}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 5, plan: 'free' }),
    });
    const { api_key: free } = (await created.json()) as { api_key: string };
    expect((await send(`${base}/v1/account`, 'GET', { ...headers, 'x-api-key': free })).status).toBe(200);
    const refused = await send(`${base}/v1/account`, 'GET', { ...headers, 'x-api-key': free });
    expectWhole(refused, 429, 'rate_limited');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['x-ratelimit-limit']).toBeDefined();
  });

  it('answer errors and HEAD as before: an envelope with its status, and no body on HEAD', async () => {
    const { base, tubescribe } = await serveApp();
    const refused = await send(`${base}/v1/transcripts?video_id=${VIDEO}`, 'GET', {});
    expect(refused.status).toBe(401);
    expect(JSON.parse(refused.body.toString('utf8'))).toMatchObject({ error: { code: 'missing_api_key' } });

    const head = await send(`${base}/openapi.json`, 'HEAD', {});
    const get = await send(`${base}/openapi.json`, 'GET', {});
    // The app's own answer, asked for the same origin (the document names its server).
    const own = await tubescribe.fetch(new Request(`${base}/openapi.json`));
    expect(head.status).toBe(200);
    expect(head.body.byteLength).toBe(0);
    expect(get.body.toString('utf8')).toBe(await own.text());
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });

  it('made for the adapter, still read whole by anything reading it on its way', async () => {
    const { base, tubescribe } = await serveApp();
    const key = await createKey(base, 10);
    const url = `${base}/v1/transcripts?video_id=${VIDEO}&format=srt`;
    const own = await tubescribe.fetch(new Request(url, { headers: { 'x-api-key': key } }));
    const expected = await own.text();
    // The env the Node adapter passes (src/http/plain-body.ts): the answer's body is not made yet.
    const env = { [WRITES_PLAIN_BODY]: true };
    const answer = await tubescribe.fetch(new Request(url, { headers: { 'x-api-key': key } }), env);
    expect(answer.headers.get('x-cache')).toBe('HIT');
    expect((answer as PlainAnswer)[PLAIN_BODY]).toBeDefined();
    expect(answer.bodyUsed).toBe(false);
    const copy = new Response(answer.body, answer);
    expect(await copy.text()).toBe(expected);
    expect(copy.headers.get('content-type')).toBe(own.headers.get('content-type'));
  });
});
