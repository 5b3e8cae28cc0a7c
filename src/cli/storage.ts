/**
 * Opens the configured storage: the KeyValue and the Ledger (and, for `fs:`, the folder lock).
 * Redis is loaded only when it is named, so a server on `fs:` never needs the ioredis package.
 * @module
 */

import { createMemoryKv } from '../drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../drivers/ledger-embedded.ts';
import { lockFolder } from '../drivers/node/fs-lock.ts';
import { createFsKv, removeStaleTemporaries } from '../drivers/node/kv-fs.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import { ConfigError, describeSpec, type StorageSpec } from './config.ts';

/** Open storage. */
export interface OpenStorage {
  kv: KeyValue;
  ledger: Ledger;
  /** Closes connections and releases the folder lock. */
  close(): Promise<void>;
}

/** Opens `memory`, `fs:<dir>` (locked to this process) or `redis://…` (shared by any number of processes). */
export async function openStorage(spec: StorageSpec, clock: Clock): Promise<OpenStorage> {
  if (spec.kind === 'memory') {
    const kv = createMemoryKv(clock);
    return { kv, ledger: createEmbeddedLedger({ clock, kv }), close: async () => {} };
  }
  if (spec.kind === 'fs') {
    const release = await lockFolder(spec.dir);
    // Leftovers of writes a crash cut off; in the background, so a big folder never delays a start.
    removeStaleTemporaries(spec.dir).catch(() => {});
    const kv = createFsKv(spec.dir, clock);
    return { kv, ledger: createEmbeddedLedger({ clock, kv }), close: release };
  }
  let redis: typeof import('../drivers/redis/storage.ts');
  try {
    redis = await import('../drivers/redis/storage.ts');
  } catch (error) {
    throw new ConfigError(
      `redis:// storage needs the ioredis package (npm install ioredis): ${String((error as Error).message ?? error)}`,
    );
  }
  try {
    return await redis.openRedisStorage(spec.url, { clock });
  } catch (error) {
    throw new ConfigError(
      `Cannot connect to ${describeSpec(spec)}: ${String((error as Error).message ?? error)}`,
    );
  }
}
