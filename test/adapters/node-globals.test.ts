/**
 * The Node adapter and the process's global `Request` and `Response`: an embedding application's
 * globals are left alone unless it asks for `@hono/node-server`'s lightweight ones (the fast
 * answer path), and when it asks, its own `fetch()` results and `new Response()`s still pass
 * `instanceof` both ways. The globals are put back after this file (the swap is process-wide).
 */
import express from 'express';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createMiddleware } from '../../adapters/node/index.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { closeServers, createKey, listen, adapterOptions as options } from './node-app.ts';

const HostRequest = globalThis.Request;
const HostResponse = globalThis.Response;

afterEach(closeServers);
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
  base = await listen(app);
  return base;
}

async function cachedTranscript(
  base: string,
): Promise<{ status: number; cache: string | null; text: string }> {
  const key = await createKey(`${base}/youtube`);
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
