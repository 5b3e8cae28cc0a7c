/**
 * The Node adapter over real sockets: as Express middleware under a mount path, as a plain
 * node:http listener, and as a server that drains requests in flight on close.
 */
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandler, createMiddleware, serve } from '../../adapters/node/index.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';
import { ADMIN, closeServers, createKey, listen, adapterOptions as options } from './node-app.ts';

afterEach(closeServers);

describe('Express middleware', () => {
  it('serves tubescribe under the mount path and leaves the rest of the app alone', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.send('host app');
    });
    app.use('/youtube', createMiddleware(options()));
    const base = await listen(app);

    expect(await (await fetch(`${base}/`)).text()).toBe('host app');
    const key = await createKey(`${base}/youtube`);
    const res = await fetch(`${base}/youtube/v1/transcripts?video_id=${VIDEO}&format=text`, {
      headers: { 'x-api-key': key },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await res.text()).toContain('Hello world.');
    expect(res.headers.get('x-credits-to-deduct')).toBe('1');

    const account = (await (
      await fetch(`${base}/youtube/v1/account`, { headers: { 'x-api-key': key } })
    ).json()) as {
      credits: number;
    };
    expect(account.credits).toBe(4);

    // No tubescribe route: the host app's next handlers answer (here Express's own 404).
    const missing = await fetch(`${base}/youtube/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('Cannot GET /youtube/nope');
  });

  it('sees the client address of the socket for failed-authentication limits', async () => {
    const app = express();
    app.use(
      createMiddleware({
        ...options(),
        limits: { reconcileIntervalMs: 0, authFailures: { limit: 2, windowSeconds: 60 } },
      }),
    );
    const base = await listen(app);
    const bad = 'tsk_00000000000000000000000000000000000000';
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await fetch(`${base}/v1/account`, { headers: { 'x-api-key': bad } })).status);
    expect(statuses).toEqual([401, 401, 429, 429]);
  });
});

describe('bodies over a real socket', () => {
  it('revokes with DELETE (no Content-Length) and refuses a chunked body over the limit', async () => {
    const base = await listen(
      createHandler({ ...options(), limits: { reconcileIntervalMs: 0, maxBodyBytes: 1024 } }),
    );
    const created = await fetch(`${base}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 1 }),
    });
    const { api_key: key, key_id: keyId } = (await created.json()) as { api_key: string; key_id: string };
    const revoked = await fetch(`${base}/admin/keys/${keyId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${ADMIN}` },
    });
    expect(revoked.status).toBe(204);
    expect((await fetch(`${base}/v1/account`, { headers: { 'x-api-key': key } })).status).toBe(401);

    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 4; i++)
          controller.enqueue(new TextEncoder().encode(`{"pad":"${'x'.repeat(400)}"}`));
        controller.close();
      },
    });
    const res = await fetch(`${base}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: big,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('payload_too_large');
  });
});

describe('node:http listener and serve()', () => {
  it('answers as a plain request listener', async () => {
    const base = await listen(createHandler(options()));
    const key = await createKey(base);
    const res = await fetch(`${base}/v1/videos/${VIDEO}/basic-info`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { title: string }).title).toBe('Never Gonna Give You Up');
  });

  it('finishes requests in flight when closed', async () => {
    const upstream = new FakeUpstream();
    upstream.delayMs = 300;
    const running = await serve({ port: 0, app: { ...options(), upstream } });
    const key = await createKey(running.url);
    const pending = fetch(`${running.url}/v1/transcripts?video_id=${VIDEO}`, {
      headers: { 'x-api-key': key },
    });
    await new Promise((r) => setTimeout(r, 50));
    const closing = running.close();
    const res = await pending;
    expect(res.status).toBe(200);
    await closing;
    await expect(fetch(`${running.url}/healthz`)).rejects.toThrow();
  });
});
