/**
 * The Node adapter and the process's global `Request` and `Response`: an embedding application's
 * globals are left alone unless it asks for `@hono/node-server`'s lightweight ones (the fast
 * answer path), and when it asks, its own `fetch()` results and `new Response()`s still pass
 * `instanceof` both ways. The globals are put back after this file (the swap is process-wide).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createMiddleware } from '../../adapters/node/index.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';

const ADMIN = 'adapter-admin-token-0123456789abcd';
const options = () => ({
  adminToken: ADMIN,
  logger: silentLogger,
  upstream: new FakeUpstream(),
  limits: { reconcileIntervalMs: 0 },
});
const HostRequest = globalThis.Request;
const HostResponse = globalThis.Response;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});
afterAll(() => {
  Object.defineProperty(globalThis, 'Request', { value: HostRequest });
  Object.defineProperty(globalThis, 'Response', { value: HostResponse });
});

/** An Express app with tubescribe under /youtube and a route of its own that calls `fetch()`. */
async function hostApp(middleware: ReturnType<typeof createMiddleware>): Promise<string> {
  const app = express();
  let base = '';
  app.get('/own', async (_req, res) => {
    const fetched = await fetch(`${base}/youtube/healthz`);
    res.json({
      fetchedIsResponse: fetched instanceof Response,
      fetchedStatus: fetched.status,
      madeIsHostResponse: new Response('x') instanceof HostResponse,
      madeIsResponse: new Response('x') instanceof Response,
      requestIsRequest: new HostRequest(base) instanceof Request,
    });
  });
  app.use('/youtube', middleware);
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((done) => server.close(() => done())));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return base;
}

async function cachedTranscript(
  base: string,
): Promise<{ status: number; cache: string | null; text: string }> {
  const created = await fetch(`${base}/youtube/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 5, plan: 'paid' }),
  });
  const key = ((await created.json()) as { api_key: string }).api_key;
  const url = `${base}/youtube/v1/transcripts?video_id=${VIDEO}&format=text`;
  await (await fetch(url, { headers: { 'x-api-key': key } })).text();
  const res = await fetch(url, { headers: { 'x-api-key': key } });
  return { status: res.status, cache: res.headers.get('x-cache'), text: await res.text() };
}

const OWN_ROUTE_SEES = {
  fetchedIsResponse: true,
  fetchedStatus: 200,
  madeIsHostResponse: true,
  madeIsResponse: true,
  requestIsRequest: true,
};

describe("the process's global Request and Response", () => {
  it('are left alone by default, and the host app works as before', async () => {
    const base = await hostApp(createMiddleware(options()));
    expect(globalThis.Response).toBe(HostResponse);
    expect(globalThis.Request).toBe(HostRequest);
    const cached = await cachedTranscript(base);
    expect(cached).toMatchObject({ status: 200, cache: 'HIT' });
    expect(cached.text).toContain('Hello world.');
    expect(await (await fetch(`${base}/own`)).json()).toEqual(OWN_ROUTE_SEES);
  });

  it("are swapped on request (overrideGlobalObjects: true), and the host's fetch() results still pass instanceof", async () => {
    const base = await hostApp(createMiddleware(options(), { overrideGlobalObjects: true }));
    expect(globalThis.Response).not.toBe(HostResponse);
    expect(globalThis.Request).not.toBe(HostRequest);
    const cached = await cachedTranscript(base);
    expect(cached).toMatchObject({ status: 200, cache: 'HIT' });
    expect(cached.text).toContain('Hello world.');
    expect(await (await fetch(`${base}/own`)).json()).toEqual(OWN_ROUTE_SEES);
  });
});
