/**
 * An unstorage driver for a local folder that writes atomically (temporary file + rename), so a
 * crash never leaves a half-written record behind, and that reports I/O failures instead of
 * returning them as values. The temporary files a crash leaves behind are removed at the next start
 * ({@link removeStaleTemporaries}). Node, Bun and Deno (node:fs).
 * @module
 */
import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { createStorage, type Driver, defineDriver } from 'unstorage';
import type { Clock } from '../../ports/clock.ts';
import type { KeyValue } from '../../ports/kv.ts';
import { createUnstorageKv } from '../kv-unstorage.ts';

const TMP = '.tmp-';
/**
 * This process's temporary files start with this (the folder lock lets one process write):
 * the sweep of a crash's leftovers tells them by name, never by age. File times come from the
 * kernel's coarse clock (or a file server's), so a file written just after the start could look
 * older than it and be deleted between its write and its rename.
 */
const OWN_TMP = `${TMP}${crypto.randomUUID().slice(0, 8)}-`;

function isMissing(error: unknown): boolean {
  const code = (error as { code?: string }).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** Creates the driver for the folder `base`. */
export const atomicFsDriver: (options: { base: string }) => Driver = defineDriver(
  (options: { base: string }) => {
    const base = resolve(options.base);
    const pathOf = (key: string): string => {
      const parts = key.split(':');
      if (parts.some((p) => p === '' || p === '.' || p === '..'))
        throw new Error(`invalid storage key ${key}`);
      // Files end in `.json`, so a key can also be the prefix of other keys (a file `a.json` beside a folder `a`).
      return `${join(base, ...parts)}.json`;
    };
    async function walk(dir: string): Promise<string[]> {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (error) {
        if (isMissing(error)) return [];
        throw error;
      }
      const out: string[] = [];
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) out.push(...(await walk(full)));
        else if (!entry.name.startsWith(TMP) && entry.name.endsWith('.json')) {
          out.push(relative(base, full).slice(0, -5).split(sep).join(':'));
        }
      }
      return out;
    }
    return {
      name: 'tubescribe-fs',
      options,
      async hasItem(key) {
        return (await this.getItem(key)) !== null;
      },
      async getItem(key) {
        try {
          return await readFile(pathOf(key), 'utf8');
        } catch (error) {
          if (isMissing(error)) return null;
          throw error;
        }
      },
      async setItem(key, value) {
        const path = pathOf(key);
        await mkdir(dirname(path), { recursive: true });
        const tmp = join(dirname(path), `${OWN_TMP}${crypto.randomUUID()}`);
        await writeFile(tmp, value, 'utf8');
        await rename(tmp, path);
      },
      async removeItem(key) {
        try {
          await unlink(pathOf(key));
        } catch (error) {
          if (!isMissing(error)) throw error;
        }
      },
      async getKeys() {
        return walk(base);
      },
      async clear() {
        await rm(base, { recursive: true, force: true });
      },
    };
  },
);

/**
 * Removes the temporary files that writes cut off by a crash (SIGKILL between write and rename)
 * left in `dir`: every `.tmp-*` file but this process's own (which may be being written). Call it
 * only while holding the folder lock, so no other process is writing. Resolves to the number
 * removed.
 */
export async function removeStaleTemporaries(dir: string): Promise<number> {
  let removed = 0;
  const visit = async (folder: string): Promise<void> => {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      const full = join(folder, entry.name);
      if (entry.isDirectory()) await visit(full);
      else if (entry.name.startsWith(TMP) && !entry.name.startsWith(OWN_TMP)) {
        await unlink(full).catch(() => {});
        removed++;
      }
    }
  };
  await visit(resolve(dir));
  return removed;
}

/** A KeyValue on the folder `dir` (atomic writes, expiry checked against `clock`). */
export function createFsKv(dir: string, clock: Clock): KeyValue {
  // A read parses the file's text anew: it is a copy already.
  return createUnstorageKv(createStorage({ driver: atomicFsDriver({ base: dir }) }), {
    clock,
    readsAreCopies: true,
  });
}
