/**
 * Runs `examples/redis-cluster` (three tubescribe processes on one Redis behind its round-robin
 * balancer), creates a key through the admin API via the balancer and spends credits across the
 * instances with exact totals. Bounded: 15 charged requests, a start and a stop of 30 s at most.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisLedger } from '../../src/drivers/redis/ledger.ts';
import { FIXTURE_VIDEO, writeFixtures } from '../helpers/processes.ts';
import { connect, deleteKeysAt, describeRedis, redisUrl, uniquePrefix } from '../helpers/redis.ts';

const ADMIN = 'example-admin-token-0123456789abcdef';

describeRedis('examples/redis-cluster', () => {
  const prefix = uniquePrefix('example');
  let dir = '';
  let example: ChildProcess | undefined;
  let exited: Promise<number | null> = Promise.resolve(null);
  let balancer = '';
  let output = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubescribe-example-'));
    await writeFixtures(join(dir, 'fixtures'));
    example = spawn(process.execPath, ['--import', 'tsx', 'examples/redis-cluster/main.ts'], {
      env: {
        ...process.env,
        TUBESCRIBE_STORAGE: `${redisUrl}?prefix=${prefix}`,
        TUBESCRIBE_UPSTREAM: `fixtures:${join(dir, 'fixtures')}`,
        TUBESCRIBE_ADMIN_TOKEN: ADMIN,
        TUBESCRIBE_LOG: 'warn',
        INSTANCES: '3',
        PORT: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const child = example;
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    child.stderr?.on('data', (d: Buffer) => {
      output += d.toString();
    });
    balancer = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the example did not start: ${output}`)), 30_000);
      child.stdout?.on('data', (d: Buffer) => {
        output += d.toString();
        const m = /load balancer listening on (http:\/\/\S+)/.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      void exited.then((code) => reject(new Error(`the example exited with ${code}: ${output}`)));
    });
  }, 40_000);

  afterAll(async () => {
    if (example?.exitCode === null) example.kill('SIGTERM');
    const code = await Promise.race([
      exited,
      new Promise((resolve) => setTimeout(() => resolve('timeout'), 30_000)),
    ]);
    if (code === 'timeout') example?.kill('SIGKILL');
    await deleteKeysAt(prefix);
    await rm(dir, { recursive: true, force: true });
    expect(code).toBe(0);
  }, 40_000);

  it('a key created through the balancer spends its credits across the instances, exactly', async () => {
    const admin = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    const created = await fetch(`${balancer}/admin/keys`, {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ credits: 6, plan: 'paid' }),
    });
    expect(created.status).toBe(201);
    const { api_key, account_id } = (await created.json()) as { api_key: string; account_id: string };
    const auth = { authorization: `Bearer ${api_key}` };
    const spend = async (n: number) => {
      const out: [number, string][] = [];
      // One after another (under the paid plan's 10 per second, so credits alone decide).
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${balancer}/v1/transcripts?video_id=${FIXTURE_VIDEO}&format=text`, {
          headers: auth,
        });
        await res.text();
        out.push([res.status, res.headers.get('x-served-by') ?? '']);
      }
      return out;
    };
    const first = await spend(9);
    expect(first.map(([status]) => status)).toEqual([200, 200, 200, 200, 200, 200, 402, 402, 402]);
    // The six successes were served by all three instances.
    expect(new Set(first.slice(0, 6).map(([, by]) => by))).toEqual(
      new Set(['instance-0', 'instance-1', 'instance-2']),
    );
    const account = await fetch(`${balancer}/admin/accounts/${account_id}`, { headers: admin });
    expect(((await account.json()) as { credits: number }).credits).toBe(0);

    // A grant through the balancer (on whichever instance) is seen by all.
    const grant = await fetch(`${balancer}/admin/accounts/${account_id}/credits`, {
      method: 'POST',
      headers: { ...admin, 'idempotency-key': 'example-grant-1' },
      body: JSON.stringify({ amount: 3 }),
    });
    expect(grant.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // a fresh 1-second window
    const second = await spend(6);
    expect(second.map(([status]) => status)).toEqual([200, 200, 200, 402, 402, 402]);
    expect(new Set(second.slice(0, 3).map(([, by]) => by)).size).toBe(3);

    const redis = await connect();
    try {
      const ledger = createRedisLedger({ client: redis, prefix });
      expect(await ledger.credits(account_id)).toEqual({ balance: 0, reserved: 0, spent: 9, granted: 9 });
    } finally {
      await redis.quit();
    }
    const me = await fetch(`${balancer}/v1/account`, { headers: auth });
    expect(((await me.json()) as { credits: number }).credits).toBe(0);
  });
});
