/**
 * Embedding tubescribe as middleware over real sockets: in Express 5 after `express.json()` (the
 * parsed body is used, not lost), and in a Connect-style `(req, res, next)` chain over node:http.
 * Paths tubescribe has no route for go to `next()`; the mount path shows in the request log and in
 * links.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { createMiddleware, type NodeHandler } from '../../adapters/node/index.ts';
import type { Logger } from '../../src/ports/logger.ts';
import { FakeUpstream } from '../fakes/upstream.ts';

const ADMIN = 'embed-admin-token-0123456789abcdef';

/** A logger that keeps the request log lines. */
function recordingLogger(): Logger & { requests: Record<string, unknown>[] } {
  const requests: Record<string, unknown>[] = [];
  return {
    requests,
    log(_level, message, fields) {
      if (message === 'request' && fields) requests.push(fields);
    },
  };
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function listen(server: Server): Promise<string> {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  closers.push(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function middleware(logger: Logger): NodeHandler {
  const handler = createMiddleware({
    adminToken: ADMIN,
    logger,
    upstream: new FakeUpstream(),
    limits: { reconcileIntervalMs: 0 },
  });
  return handler;
}

const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };

async function createKey(base: string, body: unknown): Promise<{ credits: number; account_id: string }> {
  const res = await fetch(`${base}/admin/keys`, {
    method: 'POST',
    headers: admin,
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return (await res.json()) as { credits: number; account_id: string };
}

describe('Express 5', () => {
  it('after express.json(): the parsed body is used, unknown paths go to next(), the mount is logged', async () => {
    const logger = recordingLogger();
    const app = express();
    app.use(express.json());
    app.use('/yt', middleware(logger));
    app.get('/yt/host-route', (_req, res) => {
      res.send('host route');
    });
    app.use((_req, res) => {
      res.status(404).send('host 404');
    });
    const base = await listen(createServer(app));

    const created = await createKey(`${base}/yt`, { credits: 100, plan: 'paid' });
    expect(created.credits).toBe(100);
    const account = await fetch(`${base}/yt/admin/accounts/${created.account_id}`, { headers: admin });
    expect(((await account.json()) as { credits: number }).credits).toBe(100);

    // Still JSON by its Content-Type only: a parsed text body is not read as JSON.
    const text = await fetch(`${base}/yt/admin/keys`, {
      method: 'POST',
      headers: { ...admin, 'content-type': 'text/plain' },
      body: '{"credits":5}',
    });
    expect(text.status).toBe(415);

    expect(await (await fetch(`${base}/yt/host-route`)).text()).toBe('host route');
    const unknown = await fetch(`${base}/yt/nothing-here`);
    expect([unknown.status, await unknown.text()]).toEqual([404, 'host 404']);

    const line = logger.requests.find((fields) => fields.path === '/admin/keys');
    expect(line).toMatchObject({ mount: '/yt', status: 201 });
    // Links name the mount path too.
    const meta = await fetch(`${base}/yt/.well-known/oauth-protected-resource`);
    expect(((await meta.json()) as { resource: string }).resource).toBe(`${base}/yt`);
  });

  it('without a body parser the stream is read as usual', async () => {
    const app = express();
    app.use('/yt', middleware(recordingLogger()));
    const base = await listen(createServer(app));
    expect((await createKey(`${base}/yt`, { credits: 42 })).credits).toBe(42);
  });
});

type Step = {
  path: string;
  fn: (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
};

/** A minimal Connect: mounted steps, each seeing the URL without its mount path. */
function connectApp(steps: Step[], final: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage & { originalUrl?: string }, res: ServerResponse) => {
    const original = req.originalUrl ?? req.url ?? '/';
    req.originalUrl = original;
    let i = 0;
    const next = (error?: unknown) => {
      req.url = original;
      if (error) {
        res.statusCode = 500;
        res.end('host error');
        return;
      }
      const step = steps[i++];
      if (!step) return final(req, res);
      const path = original.split('?', 1)[0] ?? '/';
      if (step.path !== '/' && path !== step.path && !path.startsWith(`${step.path}/`)) return next();
      if (step.path !== '/') req.url = original.slice(step.path.length) || '/';
      step.fn(req, res, next);
    };
    next();
  };
}

/** Connect's JSON body parser, in short: reads the stream and sets `req.body`. */
const jsonParser: Step['fn'] = (req, _res, next) => {
  if (!/json/.test(req.headers['content-type'] ?? '')) return next();
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    (req as IncomingMessage & { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    next();
  });
};

describe('a Connect-style chain over node:http', () => {
  it('a parsed body is used; unknown paths reach the next step; the mount is logged', async () => {
    const logger = recordingLogger();
    const base = await listen(
      createServer(
        connectApp(
          [
            { path: '/', fn: jsonParser },
            { path: '/api/youtube', fn: middleware(logger) },
            {
              path: '/api/youtube/extra',
              fn: (_req, res) => {
                res.end('host extra');
              },
            },
          ],
          (_req, res) => {
            res.statusCode = 404;
            res.end('connect 404');
          },
        ),
      ),
    );
    const created = await createKey(`${base}/api/youtube`, { credits: 77 });
    expect(created.credits).toBe(77);
    expect(await (await fetch(`${base}/api/youtube/extra`)).text()).toBe('host extra');
    const unknown = await fetch(`${base}/api/youtube/nope`);
    expect([unknown.status, await unknown.text()]).toEqual([404, 'connect 404']);
    expect(logger.requests.find((fields) => fields.path === '/admin/keys')).toMatchObject({
      mount: '/api/youtube',
    });
  });
});
