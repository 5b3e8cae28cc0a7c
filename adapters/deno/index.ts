/**
 * `tubescribe/deno`: tubescribe on `Deno.serve`, locally or on Deno Deploy, and the Deno KV
 * ledger. On Deploy, keep the ledger in Deno KV ({@link openDenoKvLedger} /
 * {@link createDenoKvLedger}), so credits and limits are exact across every isolate and region,
 * together with a KeyValue that is shared the same way (examples/deno-deploy.ts). The adapter
 * hands the app what only Deno knows: the client address (the connection info's `remoteAddr`)
 * and a proxy-capable fetch (`Deno.createHttpClient`).
 * @module
 */
import { createTubescribe } from '../../src/app.ts';
import {
  createDenoKvLedger,
  type DenoKv,
  type DenoKvLedgerOptions,
} from '../../src/drivers/deno/ledger-kv.ts';
import type { AppOptions } from '../../src/options.ts';
import type { Ledger } from '../../src/ports/ledger.ts';
import { listeningOrigin, type RunningServer, type ServeOptions, serverUrl } from '../serve.ts';
import { denoClientAddress } from './client-address.ts';
import { denoHostLookup } from './host-lookup.ts';
import { proxyFetch } from './proxy-fetch.ts';

export {
  createDenoKvJobQueue,
  type DenoKvJobQueueOptions,
  type DenoKvQueue,
  type DenoKvQueueAtomicOperation,
} from '../../src/drivers/deno/jobs-kv-queue.ts';
export {
  createDenoKvLedger,
  type DenoKv,
  type DenoKvLedgerOptions,
} from '../../src/drivers/deno/ledger-kv.ts';
export type { RunningServer, ServeOptions } from '../serve.ts';
export { denoClientAddress } from './client-address.ts';
export { denoHostLookup } from './host-lookup.ts';
export { proxyFetch } from './proxy-fetch.ts';

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
  const tubescribe = createTubescribe(withDeno(options));
  return async (request, info) => tubescribe.fetch(request, info);
}

/** `options` with what Deno knows filled in (the caller's own choices win). */
export function withDeno(options: AppOptions = {}): AppOptions {
  return { clientAddress: denoClientAddress, proxyFetch, hostLookup: denoHostLookup, ...options };
}

/** Starts `Deno.serve` after start-up; throws when not running under Deno. */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (!deno) throw new Error('tubescribe/deno: Deno.serve is not available; run this under Deno.');
  const tubescribe = createTubescribe(withDeno(listeningOrigin(options)));
  await tubescribe.start();
  const server = deno.serve(
    { port: options.port ?? 8787, hostname: options.host ?? '127.0.0.1', onListen: () => {} },
    (request, info) => tubescribe.fetch(request, info),
  );
  let closing: Promise<void> | undefined;
  return {
    url: serverUrl(server.addr.hostname, server.addr.port),
    tubescribe,
    close() {
      closing ??= (async () => {
        await server.shutdown();
        await tubescribe.close();
      })();
      return closing;
    },
  };
}
