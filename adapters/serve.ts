/**
 * What every runtime adapter's `serve()` takes and returns, so that starting and stopping
 * tubescribe reads the same on Node, Bun and Deno.
 * @module
 */
import type { Tubescribe } from '../src/app.ts';
import type { AppOptions } from '../src/options.ts';

/** Options of an adapter's `serve()`. */
export interface ServeOptions {
  /** The app's options. */
  app?: AppOptions;
  /** Listening port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Listening address. Default 127.0.0.1. */
  host?: string;
}

/** A running server, as every adapter's `serve()` resolves it (once it listens). */
export interface RunningServer {
  /** `http://host:port` */
  url: string;
  tubescribe: Tubescribe;
  /** Stops accepting connections, lets the requests in flight finish, then closes storage. */
  close(): Promise<void>;
}

/** The URL of a listening address (IPv6 hosts in brackets). */
export function serverUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The app options of a `serve()` with `serverOrigin` set to the listening address when it is one
 * address (not `0.0.0.0`/`::`): links then name the server, never a client's `Host` header. A
 * caller's own `serverOrigin` or `publicUrl` wins.
 */
export function listeningOrigin(options: ServeOptions): AppOptions {
  const app = options.app ?? {};
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 8787;
  if (host === '0.0.0.0' || host === '::' || port === 0) return app;
  const origin = serverUrl(host, port);
  return { serverOrigin: () => origin, ...app };
}
