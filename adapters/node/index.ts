/**
 * The Node adapter: tubescribe as a `node:http` request listener, as Express/Connect
 * middleware, or as a ready server. Global objects are never overridden.
 * @module
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { type AppOptions, createTubescribe, type Tubescribe } from '../../src/app.ts';

export { createMailer } from '../../src/drivers/node/mailer.ts';
export { createSmtpMailer } from '../../src/drivers/node/mailer-smtp.ts';
export { createResolver } from '../../src/drivers/node/resolver.ts';
export { createNodeResolver } from '../../src/drivers/node/resolver-node.ts';

/** A `node:http` request listener; also Connect/Express middleware (`next` is never needed). */
export type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => void;

/** A handler plus the tubescribe behind it (for `close()`). */
export interface NodeApp {
  handler: NodeHandler;
  tubescribe: Tubescribe;
}

/** Builds the request listener and keeps the tubescribe instance for shutdown. */
export function createNodeApp(options: AppOptions = {}): NodeApp {
  const tubescribe = createTubescribe(options);
  const listener = getRequestListener(tubescribe.fetch, { overrideGlobalObjects: false });
  return {
    tubescribe,
    handler: (req, res, next) => {
      listener(req, res).catch((error: unknown) => (next ? next(error) : res.destroy(error as Error)));
    },
  };
}

/** A `node:http` request listener serving tubescribe (`http.createServer(createHandler())`). */
export function createHandler(options: AppOptions = {}): NodeHandler {
  return createNodeApp(options).handler;
}

/**
 * Express/Connect middleware: `app.use('/youtube', createMiddleware({ ... }))`. The mount path is
 * stripped by Express, so tubescribe's routes live under it (`/youtube/v1/transcripts`). Every
 * request under the mount path is answered by tubescribe (unknown paths get its 404 envelope).
 */
export function createMiddleware(options: AppOptions = {}): NodeHandler {
  return createHandler(options);
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
  tubescribe: Tubescribe;
  /** `http://host:port` */
  url: string;
  /** Stops accepting connections, finishes requests in flight, then closes storage. */
  close(): Promise<void>;
}

/** Starts an HTTP server; resolves once it listens (after storage is ready). */
export async function serve(options: ServeOptions = {}): Promise<RunningServer> {
  const { handler, tubescribe } = createNodeApp(options.app ?? {});
  await tubescribe.ready;
  const server = createServer(handler);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 8787, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    server,
    tubescribe,
    url: `http://${shown}:${port}`,
    close() {
      closing ??= (async () => {
        await new Promise<void>((resolve) => {
          // Stop accepting; keep-alive connections close as soon as their request in flight is done.
          const sweep = setInterval(() => server.closeIdleConnections(), 25);
          server.close(() => {
            clearInterval(sweep);
            resolve();
          });
          server.closeIdleConnections();
        });
        await tubescribe.close();
      })();
      return closing;
    },
  };
}
