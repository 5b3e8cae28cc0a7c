/**
 * Opens the configured storage: the KeyValue and the Ledger (and, for `fs:`, the folder lock).
 * @module
 */

import { createMemoryKv } from '../drivers/kv-unstorage.ts';
import { createEmbeddedLedger } from '../drivers/ledger-embedded.ts';
import { lockFolder } from '../drivers/node/fs-lock.ts';
import { createFsKv } from '../drivers/node/kv-fs.ts';
import { openRedisStorage } from '../drivers/redis/storage.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import { ConfigError } from './config.ts';

/** Open storage. */
export interface OpenStorage {
  kv: KeyValue;
  ledger: Ledger;
  /** Closes connections and releases the folder lock. */
  close(): Promise<void>;
}

/** Opens `memory`, `fs:<dir>` (locked to this process) or `redis://…` (shared by any number of processes). */
export async function openStorage(spec: string, clock: Clock): Promise<OpenStorage> {
  if (spec === 'memory') {
    const kv = createMemoryKv(clock);
    return { kv, ledger: await createEmbeddedLedger({ clock, kv }), close: async () => {} };
  }
  if (spec.startsWith('fs:')) {
    const dir = spec.slice(3);
    if (dir === '') throw new ConfigError('TUBESCRIBE_STORAGE=fs: needs a folder, e.g. fs:./.tubescribe');
    const release = await lockFolder(dir);
    try {
      const kv = createFsKv(dir, clock);
      const ledger = await createEmbeddedLedger({ clock, kv });
      return { kv, ledger, close: release };
    } catch (error) {
      await release();
      throw error;
    }
  }
  if (/^rediss?:\/\//.test(spec)) {
    try {
      return await openRedisStorage(spec, { clock });
    } catch (error) {
      throw new ConfigError(
        `Cannot connect to ${spec.replace(/\/\/[^@]*@/, '//***@')}: ${String((error as Error).message ?? error)}`,
      );
    }
  }
  throw new ConfigError(`Storage "${spec}" is not supported.`);
}
