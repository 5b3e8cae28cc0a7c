/**
 * An exclusive lock on a storage folder: the embedded ledger is exact only within one process,
 * so a second process on the same `fs:` folder is refused with a clear message. A lock left by a
 * process that no longer runs is taken over at once, also right after a SIGKILL.
 *
 * The lock file names its holder by pid *and* that process's identity (see `process-identity.ts`:
 * the start time from `/proc/<pid>/stat` and the boot id on Linux), so a pid that the system has
 * since given to another process, a zombie, or a holder from before a reboot never blocks a start.
 * Where `/proc` is missing (macOS, Windows) the pid alone is checked.
 * @module
 */
import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { holderAlive, identityOf, type ProcessIdentity } from './process-identity.ts';

/** Thrown when another live process holds the folder. */
class StorageLockedError extends Error {
  override name = 'StorageLockedError';
  constructor(
    readonly dir: string,
    readonly pid: number,
    elsewhere: string | undefined,
  ) {
    super(
      `The storage folder ${dir} is in use by another tubescribe process (pid ${pid}` +
        `${elsewhere ? ` on host ${elsewhere}` : ''}). ` +
        'One fs: folder serves one process: while the server runs, manage keys and credits through ' +
        'its admin API (POST /admin/keys, POST /admin/accounts/{id}/credits), or use redis:// storage ' +
        'to run several processes.' +
        (elsewhere ? ` If that host no longer runs tubescribe, delete ${join(dir, '.lock')}.` : ''),
    );
  }
}

/** What the lock file holds. */
interface LockFile extends ProcessIdentity {
  host: string;
  since: string;
}

/** Reads the lock file; undefined when it is missing, half-written or unreadable. */
async function readHolder(path: string): Promise<LockFile | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<LockFile>;
    return typeof parsed.pid === 'number' && typeof parsed.host === 'string'
      ? (parsed as LockFile)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Takes the lock on `dir` (creating the folder); resolves to the release function. */
export async function lockFolder(dir: string): Promise<() => Promise<void>> {
  await mkdir(dir, { recursive: true });
  const path = join(dir, '.lock');
  const me = await identityOf(process.pid);
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const handle = await open(path, 'wx');
      const content: LockFile = { ...me, host: hostname(), since: new Date().toISOString() };
      try {
        await handle.writeFile(JSON.stringify(content));
        await handle.sync();
      } finally {
        await handle.close();
      }
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        // Only our own lock is removed (a lock taken over by another process stays).
        const holder = await readHolder(path);
        if (holder && holder.pid === me.pid && holder.host === hostname()) await unlink(path).catch(() => {});
      };
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
      const holder = await readHolder(path);
      if (holder && holder.host !== hostname()) throw new StorageLockedError(dir, holder.pid, holder.host);
      if (holder && holder.pid !== me.pid && (await holderAlive(holder))) {
        throw new StorageLockedError(dir, holder.pid, undefined);
      }
      // Stale: its process is gone, its pid now belongs to someone else, or it is our own pid
      // from an earlier life (a container's pid 1). Remove it and try again.
      await unlink(path).catch(() => {});
    }
  }
  throw new Error(`Could not take the lock on ${dir}.`);
}
