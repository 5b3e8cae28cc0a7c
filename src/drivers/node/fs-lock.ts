/**
 * An exclusive lock on a storage folder: the embedded ledger is exact only within one process,
 * so a second process on the same `fs:` folder is refused with a clear message. A lock left by a
 * process that no longer runs is taken over.
 * @module
 */
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** Thrown when another live process holds the folder. */
class StorageLockedError extends Error {
  override name = 'StorageLockedError';
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The storage folder ${dir} is in use by another tubescribe process (pid ${pid}). ` +
        'One fs: folder serves one process: while the server runs, manage keys and credits through ' +
        'its admin API (POST /admin/keys, POST /admin/accounts/{id}/credits), or use redis:// storage ' +
        'to run several processes.',
    );
  }
}

interface LockFile {
  pid: number;
  host: string;
  since: string;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

/** Takes the lock on `dir` (creating the folder); resolves to the release function. */
export async function lockFolder(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, '.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx');
      const content: LockFile = { pid: process.pid, host: hostname(), since: new Date().toISOString() };
      await handle.writeFile(JSON.stringify(content));
      await handle.close();
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        await unlink(path).catch(() => {});
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      let holder: LockFile | undefined;
      try {
        holder = JSON.parse(await readFile(path, 'utf8')) as LockFile;
      } catch {
        holder = undefined; // half-written or unreadable: treat as stale
      }
      if (holder && holder.host === hostname() && holder.pid !== process.pid && alive(holder.pid)) {
        throw new StorageLockedError(dir, holder.pid);
      }
      if (holder && holder.host !== hostname()) throw new StorageLockedError(dir, holder.pid);
      await unlink(path).catch(() => {});
    }
  }
  throw new Error(`Could not take the lock on ${dir}.`);
}
