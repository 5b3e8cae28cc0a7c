/**
 * The Bun adapter: mounts tubescribe on `Bun.serve`.
 * @module
 */
import { type AppOptions, createApp } from '../../src/app.ts';

interface BunServer {
  readonly port: number;
  readonly hostname: string;
  stop(closeActiveConnections?: boolean): void | Promise<void>;
}
interface BunGlobal {
  serve(options: {
    fetch: (request: Request) => Response | Promise<Response>;
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
  stop(): Promise<void>;
}

/** The `fetch` handler to export from a Bun entry (`export default { fetch }`). */
export function createHandler(options: AppOptions = {}): (request: Request) => Promise<Response> {
  const app = createApp(options);
  return async (request) => app.fetch(request);
}

/** Starts `Bun.serve`; throws when not running under Bun. */
export function serve(options: ServeOptions = {}): RunningServer {
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (!bun) throw new Error('tubescribe/bun: Bun.serve is not available; run this under Bun.');
  const fetch = createHandler(options.app ?? {});
  const server = bun.serve({ fetch, port: options.port ?? 8787, hostname: options.host ?? '127.0.0.1' });
  return {
    url: `http://${server.hostname}:${server.port}`,
    stop: async () => {
      await server.stop(true);
    },
  };
}
