import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
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
  const crashed = join(dir, 'acct', '.tmp-0b5e');
  await writeFile(crashed, '{"credits":');
  const old = new Date(Date.now() - 60_000);
  await utimes(crashed, old, old);
  const fresh = join(dir, '.tmp-being-written');
  await writeFile(fresh, '{}');
  const later = new Date(Date.now() + 60_000);
  await utimes(fresh, later, later);

  expect(await removeStaleTemporaries(dir, Date.now())).toBe(1);
  expect(await readdir(join(dir, 'acct'))).toEqual(['a.json']);
  expect(await readdir(dir)).toContain('.tmp-being-written');
  expect(await kv.get('acct:a')).toEqual({ credits: 5 });
});

it('a missing folder has nothing to remove', async () => {
  expect(await removeStaleTemporaries(join(dir, 'absent'), Date.now())).toBe(0);
});
