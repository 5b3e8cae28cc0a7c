/**
 * The Deno adapter: mounts tubescribe on `Deno.serve`, locally or on Deno Deploy. On Deploy, keep
 * the ledger in Deno KV ({@link openDenoKvLedger} / {@link createDenoKvLedger}), so credits and
 * limits are exact across every isolate and region, together with a KeyValue that is shared the
 * same way (examples/deno-deploy.ts).
 * @module
 */
import { type AppOptions, createTubescribe, type Tubescribe } from '../../src/app.ts';
import {
  createDenoKvLedger,
  type DenoKv,
  type DenoKvLedgerOptions,
} from '../../src/drivers/deno/ledger-kv.ts';
import type { Ledger } from '../../src/ports/ledger.ts';

export {
  createDenoKvLedger,
  type DenoKv,
  type DenoKvLedgerOptions,
} from '../../src/drivers/deno/ledger-kv.ts';

interface DenoServer {
  readonly addr: { hostname: string; port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}
interface DenoGlobal {
  serve(
    options: {
      port?: number;
      hostname?: string;
      onListen?: (addr: { hostname: string; port: number }) => void;
    },
    handler: (request: Request, info: unknown) => Response | Promise<Response>,
  ): DenoServer;
  openKv?(path?: string): Promise<DenoKv>;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  app?: AppOptions;
  /** Listening port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Listening address. Default 127.0.0.1. */
  host?: string;
}

/** A running Deno server. */
export interface RunningServer {
  url: string;
  tubescribe: Tubescribe;
  /** Stops accepting, lets requests in flight finish, closes storage. */
  shutdown(): Promise<void>;
}

/**
 * Opens Deno KV (`Deno.openKv(path)`; without a path the default database, on Deno Deploy the
 * project's) and returns the Deno KV ledger on it; the ledger's `close()` closes the KV. Locally,
 * Deno KV needs `--unstable-kv`.
 *
 * Pass the app a KeyValue that is as shared and as lasting as this ledger (accounts and keys live
 * there, and the shared secret is created once per ledger): a per-process memory KeyValue next to
 * a shared ledger leaves the other instances waiting for a secret they cannot see, unless `secret`
 * is set.
 */
export async function openDenoKvLedger(
  path?: string,
  options: Omit<DenoKvLedgerOptions, 'kv' | 'owned'> = {},
): Promise<Ledger> {
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (!deno?.openKv) {
    throw new Error(
      'tubescribe/deno: Deno.openKv is not available; run under Deno (locally with --unstable-kv).',
    );
  }
  return createDenoKvLedger({ ...options, kv: await deno.openKv(path), owned: true });
}

/**
 * The `fetch` handler for Deno Deploy (`export default { fetch: createHandler() }`). Deno passes
 * the connection info as the second argument, which tubescribe reads for client addresses.
 * With several isolates, pass shared storage: `createHandler({ ledger: await openDenoKvLedger(),
 * kv })` with `kv` on Deno KV too (examples/deno-deploy.ts).
 */
export function createHandler(
  options: AppOptions = {},
): (request: Request, info?: unknown) => Promise<Response> {
  const tubescribe = createTubescribe(options);
  return async (request, info) => tubescribe.fetch(request, info);
}

/** Starts `Deno.serve` once storage is ready; throws when not running under Deno. */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (!deno) throw new Error('tubescribe/deno: Deno.serve is not available; run this under Deno.');
  const tubescribe = createTubescribe(options.app ?? {});
  await tubescribe.ready;
  const server = deno.serve(
    { port: options.port ?? 8787, hostname: options.host ?? '127.0.0.1', onListen: () => {} },
    (request, info) => tubescribe.fetch(request, info),
  );
  return {
    url: `http://${server.addr.hostname}:${server.addr.port}`,
    tubescribe,
    shutdown: async () => {
      await server.shutdown();
      await tubescribe.close();
    },
  };
}
