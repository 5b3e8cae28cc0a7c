/**
 * The Deno adapter: mounts tubescribe on `Deno.serve`, locally or on Deno Deploy.
 * @module
 */
import { type AppOptions, createTubescribe, type Tubescribe } from '../../src/app.ts';

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
 * The `fetch` handler for Deno Deploy (`export default { fetch: createHandler() }`). Deno passes
 * the connection info as the second argument, which tubescribe reads for client addresses.
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
