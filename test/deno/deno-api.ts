/**
 * The part of the `Deno` global these tests use, typed once (the tests are type-checked by
 * `npm run typecheck`, which has no Deno types): a KV connection serves both the ledger and the
 * job queue, as the real `Deno.Kv` does.
 */
import type { DenoKvQueue } from '../../src/drivers/deno/jobs-kv-queue.ts';
import type { DenoKv } from '../../src/drivers/deno/kv-types.ts';

/** An open Deno KV connection. */
export type DenoKvConnection = DenoKv & DenoKvQueue;

interface DenoApi {
  openKv(path?: string): Promise<DenoKvConnection>;
  makeTempDir(options?: { prefix?: string }): Promise<string>;
  remove(path: string, options?: { recursive?: boolean }): Promise<void>;
  env: { set(name: string, value: string): void };
  test(name: string, fn: () => void): void;
  test(definition: {
    name: string;
    sanitizeOps: boolean;
    sanitizeResources: boolean;
    fn(): Promise<void>;
  }): void;
}

/** `Deno`, as these tests use it. */
export const deno = (globalThis as unknown as { Deno: DenoApi }).Deno;
