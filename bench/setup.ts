/**
 * What the benchmark sections share: a started app with a funded key on a plan without
 * practical limits (reaching YouTube through the Node adapter's fetch), and whether a Redis
 * answers (sections that need one skip without it).
 */
import { Redis } from 'ioredis';
import { nodeUpstreamFetch } from '../adapters/node/upstream-fetch.ts';
import { createTubescribe, type Tubescribe } from '../src/app.ts';
import { silentLogger } from '../src/drivers/system.ts';
import type { AppOptions } from '../src/options.ts';

const ADMIN = 'bench-admin-token-0123456789abcdef';

/** A started app with `options` and a key with `credits` on the unlimited `bench` plan. */
export async function benchApp(
  options: AppOptions,
  credits = 10_000_000,
): Promise<{ ts: Tubescribe; key: string }> {
  const ts = createTubescribe({
    // YouTube is reached as on every Node entry point (`tubescribe serve` included).
    upstreamFetch: nodeUpstreamFetch,
    logger: silentLogger,
    adminToken: ADMIN,
    plans: { bench: [{ limit: 1_000_000_000, window: 1 }] },
    limits: { reconcileIntervalMs: 0 },
    ...options,
  });
  await ts.start();
  const res = await ts.app.request('/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits, plan: 'bench' }),
  });
  if (res.status !== 201) throw new Error(`bench key creation failed: ${res.status}`);
  return { ts, key: ((await res.json()) as { api_key: string }).api_key };
}

/** The Redis the sections that need one use: `TUBESCRIBE_TEST_REDIS`, else the local one. */
export const benchRedisUrl: string = process.env.TUBESCRIBE_TEST_REDIS || 'redis://127.0.0.1:6379';

/** Resolves whether a Redis answers at `url` within a second. */
export async function redisAnswers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1000,
    retryStrategy: () => null,
  });
  probe.on('error', () => {});
  try {
    await probe.connect();
    await probe.ping();
    await probe.quit();
    return true;
  } catch {
    probe.disconnect();
    return false;
  }
}
