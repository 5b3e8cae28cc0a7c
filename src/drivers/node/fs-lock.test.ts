import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockFolder } from './fs-lock.ts';
import { identityOf, procStat } from './process-identity.ts';

const linux = (await procStat(process.pid)) !== undefined;
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-lock-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a lock file as another process would have. */
async function writeLock(fields: Record<string, unknown>): Promise<void> {
  await writeFile(
    join(dir, '.lock'),
    JSON.stringify({ host: hostname(), since: '2026-01-01T00:00:00Z', ...fields }),
  );
}

/** The pid of a process that has exited and been reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('lockFolder', () => {
  it('takes a free folder, and release removes the lock', async () => {
    const release = await lockFolder(dir);
    const held = JSON.parse(await readFile(join(dir, '.lock'), 'utf8')) as { pid: number; start?: number };
    expect(held.pid).toBe(process.pid);
    if (linux) expect(held.start).toBe((await procStat(process.pid))!.start);
    await release();
    await expect(stat(join(dir, '.lock'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  const parent = process.ppid;
  const cases: {
    name: string;
    lock: () => Promise<Record<string, unknown>>;
    taken: boolean;
    linuxOnly?: boolean;
  }[] = [
    {
      name: 'a live holder (same pid, start time and boot)',
      lock: async () => ({ ...(await identityOf(parent)) }),
      taken: false,
    },
    {
      name: 'a holder on another host',
      lock: async () => ({ pid: parent, host: 'elsewhere.example' }),
      taken: false,
    },
    { name: 'a dead pid (SIGKILLed server)', lock: async () => ({ pid: await deadPid() }), taken: true },
    { name: 'a half-written lock file', lock: async () => ({ pid: 'x' }), taken: true },
    {
      name: 'a pid reused by another process (start time differs)',
      lock: async () => ({ ...(await identityOf(parent)), start: 1 }),
      taken: true,
      linuxOnly: true,
    },
    {
      name: 'a holder from before a reboot (boot id differs)',
      lock: async () => ({ ...(await identityOf(parent)), boot: 'another-boot' }),
      taken: true,
      linuxOnly: true,
    },
    {
      name: 'our own pid from an earlier life (container pid 1)',
      lock: async () => ({ pid: process.pid }),
      taken: true,
    },
  ];
  for (const c of cases) {
    it.skipIf(c.linuxOnly === true && !linux)(`${c.taken ? 'takes over' : 'refuses'} ${c.name}`, async () => {
      await writeLock(await c.lock());
      if (!c.taken) {
        await expect(lockFolder(dir)).rejects.toThrow(/in use by another tubescribe process/);
        return;
      }
      const release = await lockFolder(dir);
      expect(JSON.parse(await readFile(join(dir, '.lock'), 'utf8')).pid).toBe(process.pid);
      await release();
    });
  }

  it.skipIf(!linux)('takes over a zombie holder', async (ctx) => {
    // `sleep 30` (exec'd by sh) never reaps sh's background child, which stays a zombie.
    const shell = spawn('sh', ['-c', 'sleep 0 & echo $!; exec sleep 30'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      const pid = Number(
        await new Promise<string>((resolve) => shell.stdout.once('data', (d: Buffer) => resolve(String(d)))),
      );
      let state = '';
      for (let i = 0; i < 100 && state !== 'Z'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        state = (await procStat(pid))?.state ?? '';
      }
      // Where SIGCHLD is ignored (inherited from the test's parent) children are reaped at once
      // and no zombie can be made: say so instead of passing or failing on nothing.
      if (state !== 'Z') ctx.skip(`no zombie could be made here (state '${state}')`);
      await writeLock({ ...(await identityOf(pid)) });
      const release = await lockFolder(dir);
      await release();
    } finally {
      shell.kill('SIGKILL');
    }
  });

  it('a release after a takeover leaves the new holder alone', async () => {
    const release = await lockFolder(dir);
    await writeLock({ ...(await identityOf(parent)) });
    await release();
    expect(JSON.parse(await readFile(join(dir, '.lock'), 'utf8')).pid).toBe(parent);
  });
});
