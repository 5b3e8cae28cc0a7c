/**
 * What the Node adapter's socket tests share: the admin token and app options, servers on loopback
 * that are closed after each test ({@link closeServers} in `afterEach`), and a funded key.
 */
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import { silentLogger } from '../../src/drivers/system.ts';
import { FakeUpstream } from '../fakes/upstream.ts';

export const ADMIN = 'adapter-admin-token-0123456789abcd';

/** The app options of these tests: the admin token, a silent log, a fake YouTube, no reconciler. */
export const adapterOptions = () => ({
  adminToken: ADMIN,
  logger: silentLogger,
  upstream: new FakeUpstream(),
  limits: { reconcileIntervalMs: 0 },
});

const closers: (() => Promise<void>)[] = [];

/** Runs `close` when the test ends (in the order registered). */
export function afterTest(close: () => Promise<void>): void {
  closers.push(close);
}

/** Closes what the test opened; call it in `afterEach`. */
export async function closeServers(): Promise<void> {
  for (const close of closers.splice(0)) await close();
}

/** Serves `handler` on a loopback port until the test ends; resolves to its base URL. */
export function listen(handler: unknown): Promise<string> {
  const server = createServer(handler as RequestListener);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      afterTest(() => new Promise((done) => server.close(() => done())));
      server.closeIdleConnections();
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    });
  });
}

/** A key with `credits` on the paid plan, created through the admin API under `base`. */
export async function createKey(base: string, credits = 5): Promise<string> {
  const res = await fetch(`${base}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits, plan: 'paid' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { api_key: string }).api_key;
}
