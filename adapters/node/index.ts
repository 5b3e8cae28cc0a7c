/**
 * `tubescribe/node`: tubescribe on Node as a `node:http` request listener, as Express/Connect
 * middleware, or as a ready server; and the drivers that need Node (fs storage and its lock, the
 * SMTP mailer, the `node:dns` resolver, the fixtures upstream). Global objects are never
 * overridden. The adapter hands the app what only Node knows: the socket's client address, a
 * proxy-capable fetch and DNS lookups (to check webhook targets).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import type { AppOptions } from '../../src/options.ts';
import { type RunningServer, type ServeOptions, serverUrl } from '../serve.ts';
import { nodeClientAddress } from './client-address.ts';
import { nodeHostLookup } from './host-lookup.ts';
import { proxyFetch } from './proxy-fetch.ts';

export { createFixturesUpstream } from '../../src/drivers/node/fixtures-upstream.ts';
export { lockFolder } from '../../src/drivers/node/fs-lock.ts';
export { createFsKv } from '../../src/drivers/node/kv-fs.ts';
export { createMailer, type MailerSpecOptions } from '../../src/drivers/node/mailer.ts';
export { createSmtpMailer, type SmtpMailerOptions } from '../../src/drivers/node/mailer-smtp.ts';
export { createResolver, type ResolverSpecOptions } from '../../src/drivers/node/resolver.ts';
export { createNodeResolver, type NodeResolverOptions } from '../../src/drivers/node/resolver-node.ts';
export type { RunningServer, ServeOptions } from '../serve.ts';
export { nodeClientAddress } from './client-address.ts';
export { nodeHostLookup } from './host-lookup.ts';
export { proxyFetch } from './proxy-fetch.ts';

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

/** A running Node server. */
export interface NodeRunningServer extends RunningServer {
  server: Server;
}

/** `options` with what Node knows filled in (the caller's own choices win). */
export function withNode(options: AppOptions = {}): AppOptions {
  return { clientAddress: nodeClientAddress, proxyFetch, hostLookup: nodeHostLookup, ...options };
}

/** Builds the request listener and keeps the tubescribe instance for shutdown. */
export function createNodeApp(options: AppOptions = {}): NodeApp {
  const tubescribe = createTubescribe(withNode(options));
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

/** Starts an HTTP server; resolves once it listens (after start-up). */
export async function serve(options: ServeOptions = {}): Promise<NodeRunningServer> {
  const { handler, tubescribe } = createNodeApp(options.app ?? {});
  await tubescribe.start();
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
  let closing: Promise<void> | undefined;
  return {
    server,
    tubescribe,
    url: serverUrl(host, port),
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
