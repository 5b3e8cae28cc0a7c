/**
 * One server of the HTTP benchmark, run in its own process (`bench/http.ts` starts it, so the load
 * generator never shares an event loop with the server it measures). Runs under Node
 * (`node --import tsx bench/http-server.ts …`) and under Bun (`bun bench/http-server.ts …`).
 *
 * Arguments: `tubescribe <memory|redis> [redisUrl prefix [stream-late]]` starts tubescribe through
 * the runtime's adapter's `serve` with a funded key and a warm cache (`stream-late`: Bun's
 * `streamLateAnswers`); `tubescribe-handler memory` (Node only) the
 * same through `createNodeApp` on `node:http`, as an application that embeds tubescribe gets it by
 * default, its global `Request` and `Response` left alone; `hono <answersJsonFile>` starts a bare
 * Hono app serving the recorded answers (same bytes, same headers) on the runtime's usual server.
 * Either prints one JSON line `{ "url", "key", "pid" }` on stdout once it listens, and stops on
 * SIGTERM or when stdin closes.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Hono } from 'hono';
import { createFixturesUpstream } from '../src/drivers/node/fixtures-upstream.ts';
import { openRedisStorage } from '../src/drivers/redis/storage.ts';
import { silentLogger } from '../src/drivers/system.ts';
import type { AppOptions } from '../src/options.ts';
import { serveUntilStdinCloses } from './server-process.ts';

/** A recorded answer: path → status, headers and body (base64). */
interface Recorded {
  path: string;
  status: number;
  headers: Record<string, string>;
  body: string;
}

const ADMIN = 'bench-admin-token-0123456789abcdef';
const isBun = typeof (globalThis as { Bun?: unknown }).Bun !== 'undefined';

/** A running tubescribe: where it listens, and how to stop it. */
interface Running {
  url: string;
  close(): Promise<void>;
}

/** tubescribe as an embedding application mounts it: the Node listener on its own `node:http` server. */
async function listenAsEmbedded(app: AppOptions): Promise<Running> {
  const { createNodeApp } = await import('../adapters/node/index.ts');
  const { handler, tubescribe } = createNodeApp(app);
  await tubescribe.start();
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await new Promise<void>((done) => server.close(() => done()));
      await tubescribe.close();
    },
  };
}

async function startTubescribe(
  storage: string,
  redisUrl?: string,
  prefix?: string,
  embedded = false,
  streamLateAnswers = false,
) {
  let storageOptions: Pick<AppOptions, 'kv' | 'ledger'> = {};
  let closeStorage = async () => {};
  if (storage === 'redis') {
    const opened = await openRedisStorage(redisUrl ?? 'redis://127.0.0.1:6379', { prefix: prefix ?? 'tsb:' });
    storageOptions = { kv: opened.kv, ledger: opened.ledger };
    closeStorage = () => opened.close();
  }
  const app: AppOptions = {
    logger: silentLogger,
    adminToken: ADMIN,
    plans: { bench: [{ limit: 1_000_000_000, window: 1 }] },
    limits: { reconcileIntervalMs: 0 },
    upstream: createFixturesUpstream('fixtures/demo'),
    ...storageOptions,
  };
  const adapter = isBun
    ? await import('../adapters/bun/index.ts')
    : await import('../adapters/node/index.ts');
  const running: Running = embedded
    ? await listenAsEmbedded(app)
    : await adapter.serve({ port: 0, app, streamLateAnswers });
  const res = await fetch(`${running.url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 1_000_000_000, plan: 'bench' }),
  });
  if (res.status !== 201) throw new Error(`bench key creation failed: ${res.status}`);
  const key = ((await res.json()) as { api_key: string }).api_key;
  return {
    url: running.url,
    key,
    close: async () => {
      await running.close();
      await closeStorage();
    },
  };
}

async function startHono(answersFile: string) {
  const answers = JSON.parse(readFileSync(answersFile, 'utf8')) as Recorded[];
  const app = new Hono();
  for (const answer of answers) {
    const body = new Uint8Array(Buffer.from(answer.body, 'base64'));
    const [path] = answer.path.split('?');
    app.get(path!, (c) => c.body(body, answer.status as 200, answer.headers));
  }
  if (isBun) {
    const bun = (globalThis as { Bun?: { serve(o: object): { port: number; stop(): void } } }).Bun!;
    const server = bun.serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    return { url: `http://127.0.0.1:${server.port}`, key: '', close: async () => server.stop() };
  }
  const { serve } = await import('@hono/node-server');
  return new Promise<{ url: string; key: string; close: () => Promise<void> }>((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) =>
      resolve({
        url: `http://127.0.0.1:${info.port}`,
        key: '',
        close: () => new Promise<void>((done) => server.close(() => done())),
      }),
    );
  });
}

const [kind, arg1, arg2, arg3, arg4] = process.argv.slice(2);
const server =
  kind === 'hono'
    ? await startHono(arg1!)
    : await startTubescribe(arg1!, arg2, arg3, kind === 'tubescribe-handler', arg4 === 'stream-late');
serveUntilStdinCloses({ url: server.url, key: server.key }, () => server.close());
