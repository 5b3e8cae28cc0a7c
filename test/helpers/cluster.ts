/**
 * Several tubescribe instances in one test process sharing one Redis: each has its own Redis
 * connections (`openRedisStorage`), its own L1 cache and its own FakeUpstream, as separate
 * servers behind a load balancer would. Requests go through `app.request`.
 */
import type { Redis } from 'ioredis';
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import { openRedisStorage, type RedisStorage } from '../../src/drivers/redis/storage.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import type { AppOptions } from '../../src/options.ts';
import type { Clock } from '../../src/ports/clock.ts';
import type { Ledger } from '../../src/ports/ledger.ts';
import type { Logger } from '../../src/ports/logger.ts';
import { SeededRandom } from '../fakes/random.ts';
import { FakeUpstream } from '../fakes/upstream.ts';
import { ADMIN } from './app.ts';
import { connect, deleteKeys, redisUrl, uniquePrefix } from './redis.ts';

/** One instance of the cluster. */
export interface Instance {
  index: number;
  ts: Tubescribe;
  storage: RedisStorage;
  upstream: FakeUpstream;
  /** The instance's (guarded) ledger, as its services use it. */
  ledger: Ledger;
  /** `app.request` with an optional key. */
  call(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** How many instances. Default 4. */
  size?: number;
  /** The ledger's clock (instead of Redis TIME), shared by every instance. */
  ledgerClock?: Clock;
  /** The Redis URL (e.g. a fault proxy's); default the test Redis. */
  url?: string;
  commandTimeoutMs?: number;
  /** Options for every instance (plans, limits, …). */
  app?: AppOptions;
  /** Options for one instance, on top of `app` (e.g. only one runs the reconciler). */
  instanceApp?: (index: number) => AppOptions;
  /** A logger for every instance. Default silent. */
  logger?: Logger;
}

/** The cluster. */
export interface Cluster {
  prefix: string;
  instances: Instance[];
  /** A plain client on the test Redis, for inspection. */
  redis: Redis;
  /** The instance serving request `i` (round robin). */
  at(i: number): Instance;
  /** Creates a key through instance 0's admin API. */
  key(credits: number, plan: string): Promise<{ api_key: string; account_id: string; key_id: string }>;
  /** Closes every instance and deletes the cluster's keys. */
  close(): Promise<void>;
}

/** Starts `size` instances on one Redis under a fresh key prefix. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  const prefix = uniquePrefix('cluster');
  const redis = await connect();
  const instances: Instance[] = [];
  for (let index = 0; index < (options.size ?? 4); index++) {
    const storage = await openRedisStorage(options.url ?? redisUrl ?? '', {
      prefix,
      ...(options.ledgerClock ? { ledgerClock: options.ledgerClock } : {}),
      ...(options.commandTimeoutMs ? { commandTimeoutMs: options.commandTimeoutMs } : {}),
    });
    const upstream = new FakeUpstream();
    const own = options.instanceApp?.(index) ?? {};
    const ts = createTubescribe({
      logger: options.logger ?? silentLogger,
      random: new SeededRandom(1000 + index * 7919),
      adminToken: ADMIN,
      ...options.app,
      ...own,
      kv: storage.kv,
      ledger: storage.ledger,
      upstream,
      limits: { reconcileIntervalMs: 0, ...options.app?.limits, ...own.limits },
    });
    await ts.start();
    const call = (path: string, init: RequestInit & { key?: string } = {}) => {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
      return Promise.resolve(ts.app.request(path, { ...rest, headers }));
    };
    instances.push({ index, ts, storage, upstream, ledger: ts.ports.ledger, call });
  }
  const at = (i: number): Instance => instances[i % instances.length]!;
  return {
    prefix,
    instances,
    redis,
    at,
    async key(credits, plan) {
      const res = await at(0).call('/admin/keys', {
        method: 'POST',
        key: ADMIN,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ credits, plan }),
      });
      if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
      return (await res.json()) as { api_key: string; account_id: string; key_id: string };
    },
    async close() {
      for (const instance of instances) {
        await instance.ts.close();
        await instance.storage.close();
      }
      await deleteKeys(redis, prefix);
      await redis.quit();
    },
  };
}

/** How many responses had each status, e.g. `{ 200: 100, 402: 900 }`. */
export function countStatuses(responses: readonly Response[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const res of responses) out[res.status] = (out[res.status] ?? 0) + 1;
  return out;
}

/** Total upstream calls of one method (or all) over the instances. */
export function upstreamCalls(instances: readonly Instance[], method?: string): number {
  let total = 0;
  for (const { upstream } of instances) {
    for (const [name, n] of Object.entries(upstream.calls)) if (!method || name === method) total += n;
  }
  return total;
}

/** Polls `check` every 10 ms until it is true; throws after `timeoutMs` (a bound, not a timing assert). */
export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
