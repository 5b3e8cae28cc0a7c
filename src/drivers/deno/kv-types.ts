/**
 * The parts of Deno KV (`Deno.Kv`, `Deno.AtomicOperation`) the Deno KV drivers use, typed here so
 * the drivers compile without Deno's own types (`await Deno.openKv()` satisfies them).
 * @module
 */

/** One part of a Deno KV key. */
export type DenoKvKeyPart = Uint8Array | string | number | bigint | boolean | symbol;
/** A Deno KV key. */
export type DenoKvKey = readonly DenoKvKeyPart[];
/** What `getMany` answers per key: `versionstamp` is null when the key is absent. */
export interface DenoKvEntryMaybe<T> {
  readonly key: DenoKvKey;
  readonly value: T | null;
  readonly versionstamp: string | null;
}
/** The part of `Deno.AtomicOperation` the ledger uses. */
export interface DenoKvAtomicOperation {
  check(...checks: { key: DenoKvKey; versionstamp: string | null }[]): DenoKvAtomicOperation;
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomicOperation;
  /** Adds `n` to the 64-bit counter (`Deno.KvU64`) at `key`; sums never conflict. */
  sum(key: DenoKvKey, n: bigint): DenoKvAtomicOperation;
  delete(key: DenoKvKey): DenoKvAtomicOperation;
  commit(): Promise<{ ok: boolean }>;
}
/** The part of `Deno.Kv` the ledger uses; `await Deno.openKv()` is one. */
export interface DenoKv {
  getMany<T extends readonly unknown[]>(
    keys: readonly [...{ [K in keyof T]: DenoKvKey }],
  ): Promise<{ [K in keyof T]: DenoKvEntryMaybe<T[K]> }>;
  list<T>(
    selector: { prefix: DenoKvKey; end?: DenoKvKey },
    options?: { limit?: number },
  ): AsyncIterable<{ key: DenoKvKey; value: T }>;
  atomic(): DenoKvAtomicOperation;
  close(): void;
}
