/**
 * Multi-instance proofs over separate processes (issue 5): four `tubescribe serve` children on
 * one Redis, on real sockets, with a fixtures upstream written to a temporary folder; a fifth
 * process (the CLI) revokes a key.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createRedisLedger } from '../../src/drivers/redis/ledger.ts';
import { countStatuses } from '../helpers/cluster.ts';
import {
  CHILD_ADMIN,
  type ChildServer,
  createKey,
  FIXTURE_VIDEO,
  startServers,
  writeFixtures,
} from '../helpers/processes.ts';
import { connect, deleteKeysAt, describeRedis, redisUrl, uniquePrefix } from '../helpers/redis.ts';

describeRedis('4 tubescribe processes on one Redis (child processes, real sockets)', () => {
  const prefix = uniquePrefix('procs');
  const storageUrl = `${redisUrl}?prefix=${prefix}`;
  let dir = '';
  let servers: ChildServer[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubescribe-procs-'));
    await writeFixtures(join(dir, 'fixtures'));
    servers = await startServers(4, {
      TUBESCRIBE_STORAGE: storageUrl,
      TUBESCRIBE_UPSTREAM: `fixtures:${join(dir, 'fixtures')}`,
    });
  }, 60_000);

  afterAll(async () => {
    const codes = await Promise.all(servers.map((s) => s.stop()));
    await deleteKeysAt(prefix);
    await rm(dir, { recursive: true, force: true });
    expect(codes).toEqual([0, 0, 0, 0]);
  });

  it('1,000 concurrent charged requests over 4 processes against a balance of 5: exactly 5 × 200', async () => {
    // The CLI serves the default plans: `paid` admits bursts of 10 per second (up to 20 when a
    // burst straddles a second boundary), so the balance is set below that: credits, not the rate
    // limit, decide who is served. The admitted requests beyond the balance get 402, the others 429.
    const { api_key, account_id } = await createKey(servers[0]!.url, 5, 'paid');
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        fetch(`${servers[i % 4]!.url}/v1/transcripts?video_id=${FIXTURE_VIDEO}&format=text`, {
          headers: { authorization: `Bearer ${api_key}` },
        }),
      ),
    );
    const statuses = countStatuses(responses);
    const bodies = await Promise.all(responses.map((r) => r.text()));
    expect(statuses[200]).toBe(5);
    expect(statuses[402]).toBeGreaterThanOrEqual(5);
    expect((statuses[402] ?? 0) + (statuses[429] ?? 0)).toBe(995);
    expect(bodies.filter((b) => b === 'Hi there.\n')).toHaveLength(5);
    // Exact totals in Redis, read by an independent ledger on the same keys.
    const redis = await connect();
    try {
      const ledger = createRedisLedger({ client: redis, prefix });
      expect(await ledger.credits(account_id)).toEqual({ balance: 0, reserved: 0, spent: 5, granted: 5 });
      const view = await fetch(`${servers[3]!.url}/admin/accounts/${account_id}`, {
        headers: { authorization: `Bearer ${CHILD_ADMIN}` },
      });
      expect(((await view.json()) as { credits: number }).credits).toBe(0);
    } finally {
      await redis.quit();
    }
  });

  it('a key revoked by another process (the CLI) answers 401 on every server process immediately', async () => {
    const { api_key, key_id } = await createKey(servers[2]!.url, 10, 'paid');
    const get = (s: ChildServer) =>
      fetch(`${s.url}/v1/account`, { headers: { authorization: `Bearer ${api_key}` } });
    expect((await Promise.all(servers.map(get))).map((r) => r.status)).toEqual([200, 200, 200, 200]);
    // A fifth process on the same Redis: `tubescribe keys revoke` (Operator interface).
    const revoke = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'src/cli/main.ts', 'keys', 'revoke', key_id],
      {
        env: { ...process.env, TUBESCRIBE_STORAGE: storageUrl },
        encoding: 'utf8',
        timeout: 20_000,
      },
    );
    expect(revoke.stderr).toContain(`revoked ${key_id}`);
    expect(revoke.status).toBe(0);
    expect((await Promise.all(servers.map(get))).map((r) => r.status)).toEqual([401, 401, 401, 401]);
  });
});
