/**
 * The Bun adapter: mounts tubescribe on `Bun.serve`.
 * @module
 */
import { type AppOptions, createTubescribe, type Tubescribe } from '../../src/app.ts';

interface BunServer {
  readonly port: number;
  readonly hostname: string;
  stop(closeActiveConnections?: boolean): void | Promise<void>;
}
interface BunGlobal {
  serve(options: {
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
    port?: number;
    hostname?: string;
  }): BunServer;
}

/** Options of {@link serve}. */
export interface ServeOptions {
  app?: AppOptions;
  /** Listening port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Listening address. Default 127.0.0.1. */
  host?: string;
}

/** A running Bun server. */
export interface RunningServer {
  url: string;
  tubescribe: Tubescribe;
  /** Stops accepting, lets requests in flight finish, closes storage. */
  stop(): Promise<void>;
}

/**
 * The `fetch` handler for a Bun entry (`export default { fetch: createHandler() }`). Pass the
 * server as the second argument so tubescribe sees client addresses.
 */
export function createHandler(
  options: AppOptions = {},
): (request: Request, server?: unknown) => Promise<Response> {
  const tubescribe = createTubescribe(options);
  return async (request, server) => tubescribe.fetch(request, server);
}

/** Starts `Bun.serve` once storage is ready; throws when not running under Bun. */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (!bun) throw new Error('tubescribe/bun: Bun.serve is not available; run this under Bun.');
  const tubescribe = createTubescribe(options.app ?? {});
  await tubescribe.ready;
  const server = bun.serve({
    fetch: (request, srv) => tubescribe.fetch(request, srv),
    port: options.port ?? 8787,
    hostname: options.host ?? '127.0.0.1',
  });
  return {
    url: `http://${server.hostname}:${server.port}`,
    tubescribe,
    stop: async () => {
      await server.stop(false);
      await tubescribe.close();
    },
  };
}
