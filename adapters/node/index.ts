/**
 * The Node adapter: tubescribe as a `node:http` request listener, as Express/Connect middleware,
 * or as a ready server.
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer, getRequestListener } from '@hono/node-server';
import { type AppOptions, createApp } from '../../src/app.ts';

/** A `node:http` request listener (also usable as Connect/Express middleware). */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/** Builds a `node:http` request listener serving tubescribe. Global objects are not overridden. */
export function createHandler(options: AppOptions = {}): NodeHandler {
  const app = createApp(options);
  const listener = getRequestListener(app.fetch);
  return (req, res) => {
    void listener(req, res);
  };
}

/** Options of {@link serve}. */
export interface ServeOptions {
  app?: AppOptions;
  /** Listening port; 0 picks a free one. Default 8787. */
  port?: number;
  /** Listening address. Default 127.0.0.1. */
  host?: string;
}

/** A running server. */
export interface RunningServer {
  server: Server;
  /** `http://host:port` */
  url: string;
  close(): Promise<void>;
}

/** Starts an HTTP server; resolves once it listens. */
export function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const app = createApp(options.app ?? {});
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        server,
        url: `http://${shown}:${port}`,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
  });
}
