import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { systemClock } from '../system.ts';
import { createFsKv, removeStaleTemporaries } from './kv-fs.ts';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-kvfs-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

it('removes the temporaries a crash left, and nothing else', async () => {
  const kv = createFsKv(dir, systemClock);
  await kv.set('acct:a', { credits: 5 });
  await mkdir(join(dir, 'acct'), { recursive: true });
  // Left by a process killed between its write and its rename: however recent, it is not ours.
  const crashed = join(dir, 'acct', '.tmp-0b5e1234-5678');
  await writeFile(crashed, '{"credits":');

  expect(await removeStaleTemporaries(dir)).toBe(1);
  expect(await readdir(join(dir, 'acct'))).toEqual(['a.json']);
  expect(await kv.get('acct:a')).toEqual({ credits: 5 });
});

it('never removes a temporary of this process while it is being written (the sweep runs beside the first writes)', async () => {
  const kv = createFsKv(dir, systemClock);
  let writing = true;
  const sweeping = (async () => {
    while (writing) await removeStaleTemporaries(dir);
  })();
  try {
    for (let round = 0; round < 10; round++) {
      await Promise.all(Array.from({ length: 50 }, (_, i) => kv.set(`k:${i % 5}:${round}:${i}`, { i })));
    }
  } finally {
    writing = false;
    await sweeping;
  }
  expect(await kv.get('k:3:9:48')).toEqual({ i: 48 });
});

it('a missing folder has nothing to remove', async () => {
  expect(await removeStaleTemporaries(join(dir, 'absent'))).toBe(0);
});
