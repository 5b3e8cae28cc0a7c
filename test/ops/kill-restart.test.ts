/**
 * Crash-safe restart on `fs:` storage (issue 15, item 5): a real `tubescribe serve` is killed with
 * SIGKILL and restarted on the same folder 20 times in a row. Every restart must start (the dead
 * holder's lock is taken over at once), answer /healthz and /readyz, and still know every key
 * created before any of the kills. Then a lock whose pid now belongs to another live process
 * (pid reuse) must not block a start either.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChildServer, createKey, startServer } from '../helpers/processes.ts';

const ROUNDS = 20;
let dir = '';
let server: ChildServer | undefined;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-kill-'));
});
afterAll(async () => {
  await server?.kill();
  await rm(dir, { recursive: true, force: true });
});

const start = () => startServer({ TUBESCRIBE_STORAGE: `fs:${dir}`, TUBESCRIBE_UPSTREAM: 'youtube' });

async function status(url: string, key?: string): Promise<number> {
  const res = await fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {});
  await res.arrayBuffer();
  return res.status;
}

it(`restarts ${ROUNDS} times in a row right after SIGKILL, keeping every key`, {
  timeout: 150_000,
}, async () => {
  const keys: string[] = [];
  const restartMs: number[] = [];
  let started = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const began = performance.now();
    server = await start();
    restartMs.push(performance.now() - began);
    started++;
    expect(await status(`${server.url}/healthz`)).toBe(200);
    expect(await status(`${server.url}/readyz`)).toBe(200);
    // Every key of the earlier lives is still there (their writes were complete before the kill).
    for (const key of keys) expect(await status(`${server.url}/v1/account`, key)).toBe(200);
    keys.push((await createKey(server.url, 10)).api_key);
    await server.kill();
    server = undefined;
  }
  expect(started).toBe(ROUNDS);
  const sorted = [...restartMs].sort((a, b) => a - b);
  console.info(
    `kill/restart: ${started}/${ROUNDS} restarts; start-to-listening ms: median ${sorted[ROUNDS >> 1]!.toFixed(0)}, ` +
      `max ${sorted[ROUNDS - 1]!.toFixed(0)}, mean ${(restartMs.reduce((a, b) => a + b, 0) / ROUNDS).toFixed(0)}`,
  );
});

it('starts when the lock names a pid that another live process now has', async () => {
  const other = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    // The pid is alive, but its start time is not the one the lock recorded: the pid was reused.
    await writeFile(
      join(dir, '.lock'),
      JSON.stringify({ pid: other.pid, start: 1, host: hostname(), since: '2026-01-01T00:00:00Z' }),
    );
    server = await start();
    expect(await status(`${server.url}/healthz`)).toBe(200);
    expect(await server.stop()).toBe(0);
    server = undefined;
  } finally {
    other.kill('SIGKILL');
  }
});
