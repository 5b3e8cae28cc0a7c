/**
 * The Deno adapter: mounts tubescribe on `Deno.serve`, locally or on Deno Deploy.
 * @module
 */
import { type AppOptions, createApp } from '../../src/app.ts';

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
    handler: (request: Request) => Response | Promise<Response>,
  ): DenoServer;
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
  shutdown(): Promise<void>;
}

/** The `fetch` handler for Deno Deploy (`export default { fetch: createHandler() }`). */
export function createHandler(options: AppOptions = {}): (request: Request) => Promise<Response> {
  const app = createApp(options);
  return async (request) => app.fetch(request);
}

/** Starts `Deno.serve`; throws when not running under Deno. */
export function serve(options: ServeOptions = {}): RunningServer {
  const deno = (globalThis as { Deno?: DenoGlobal }).Deno;
  if (!deno) throw new Error('tubescribe/deno: Deno.serve is not available; run this under Deno.');
  const fetch = createHandler(options.app ?? {});
  const server = deno.serve(
    { port: options.port ?? 8787, hostname: options.host ?? '127.0.0.1', onListen: () => {} },
    fetch,
  );
  return { url: `http://${server.addr.hostname}:${server.addr.port}`, shutdown: () => server.shutdown() };
}
