/**
 * `tubescribe/node`: tubescribe on Node as a `node:http` request listener, as Express/Connect
 * middleware, or as a ready server; and the drivers that need Node (fs storage and its lock, the
 * SMTP mailer, the `node:dns` resolver, the fixtures upstream). The adapter hands the app what only
 * Node knows: the socket's client address, a proxy-capable fetch and DNS lookups (to check webhook
 * targets).
 *
 * Global objects: `@hono/node-server` answers fast only for its own lightweight `Response` (the
 * status, headers and bytes are written to the socket as they are). A real undici `Response` costs
 * more to build, and `@hono/node-server` reads it back through a stream. With the host's globals, a
 * route's plain answer is therefore made for this adapter without its body and written to the
 * socket as it is, its headers too unless something read them (plain-answer.ts): a cached
 * transcript costs within 10 % of its CPU on the lightweight path (with a whole undici `Response`
 * it cost twice as much), and errors are written the same way; documents go the undici way
 * (`npm run bench` prints both paths). The lightweight path means replacing the global `Request`
 * and `Response` classes for the whole process. Since `@hono/node-server` 2.1.9 the host's
 * `fetch()` results and the lightweight objects pass `instanceof` both ways, but the classes are
 * still not the host's own: fine for a server tubescribe owns, the host's call for an application
 * that embeds it. So {@link serve} (the CLI's server) installs them unless told not to, while
 * {@link createHandler} and {@link createMiddleware} leave the host's globals alone unless asked
 * (`overrideGlobalObjects`).
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import { routeTable } from '../../src/http/route-table.ts';
import type { AppOptions } from '../../src/options.ts';
import { type RunningServer, type ServeOptions, serverUrl } from '../serve.ts';
import { nodeClientAddress } from './client-address.ts';
import { nodeHostLookup } from './host-lookup.ts';
import { restoreParsedBody } from './parsed-body.ts';
import { writingPlainAnswers } from './plain-answer.ts';
import { proxyFetch } from './proxy-fetch.ts';
import { nodeClientGone, nodeMountPath, nodeRequestHeader, nodeServerOrigin } from './request-env.ts';
import { nodeUpstreamFetch } from './upstream-fetch.ts';

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
export { nodeClientGone, nodeMountPath, nodeRequestHeader, nodeServerOrigin } from './request-env.ts';
export {
  createNodeUpstreamFetch,
  type NodeUpstreamFetchOptions,
  nodeUpstreamFetch,
} from './upstream-fetch.ts';

/**
 * A `node:http` request listener; also Connect/Express middleware: given `next`, requests
 * tubescribe has no route for are handed to it (the host app's later routes and 404).
 */
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

/** How the Node listener answers. */
export interface NodeListenerOptions {
  /**
   * Install `@hono/node-server`'s lightweight global `Request`/`Response` (the fast answer path).
   * Process-wide: the global classes become `@hono/node-server`'s (`fetch()` results still pass
   * `instanceof Response`). Default false for handlers and middleware (they live in someone else's
   * process), true for {@link serve}.
   */
  overrideGlobalObjects?: boolean;
}

/** Options of the Node {@link serve}. */
export interface NodeServeOptions extends ServeOptions, NodeListenerOptions {
  /**
   * On `close()`, how long requests in flight may take to finish before their connections are
   * cut (ms). Default 8,000, so a SIGTERM ends within 10 s.
   */
  shutdownGraceMs?: number;
}

/** A running Node server. */
export interface NodeRunningServer extends RunningServer {
  server: Server;
}

/** `options` with what Node knows filled in (the caller's own choices win). */
export function withNode(options: AppOptions = {}): AppOptions {
  return {
    clientAddress: nodeClientAddress,
    mountPath: nodeMountPath,
    serverOrigin: nodeServerOrigin,
    requestHeader: nodeRequestHeader,
    clientGone: nodeClientGone,
    proxyFetch,
    upstreamFetch: nodeUpstreamFetch,
    hostLookup: nodeHostLookup,
    ...options,
  };
}

/** Builds the request listener and keeps the tubescribe instance for shutdown. */
export function createNodeApp(options: AppOptions = {}, listenerOptions: NodeListenerOptions = {}): NodeApp {
  const tubescribe = createTubescribe(withNode(options));
  const lightweight = listenerOptions.overrideGlobalObjects ?? false;
  // With the host's own globals, plain answers skip @hono/node-server's stream read (plain-answer.ts).
  const fetch: typeof tubescribe.fetch = lightweight
    ? tubescribe.fetch
    : writingPlainAnswers(tubescribe.fetch);
  const listener = getRequestListener(fetch, { overrideGlobalObjects: lightweight });
  const table = routeTable(tubescribe.app);
  return {
    tubescribe,
    handler: (req, res, next) => {
      if (next && table.methods((req.url ?? '/').split('?', 1)[0] || '/').length === 0) {
        next();
        return;
      }
      restoreParsedBody(req);
      listener(req, res).catch((error: unknown) => (next ? next(error) : res.destroy(error as Error)));
    },
  };
}

/** A `node:http` request listener serving tubescribe (`http.createServer(createHandler())`). */
export function createHandler(
  options: AppOptions = {},
  listenerOptions: NodeListenerOptions = {},
): NodeHandler {
  return createNodeApp(options, listenerOptions).handler;
}

/**
 * Express/Connect middleware: `app.use('/youtube', createMiddleware({ ... }))`. The mount path is
 * stripped by Express, so tubescribe's routes live under it (`/youtube/v1/transcripts`); links in
 * answers and the request log (`mount`) name it. A path tubescribe has no route for goes to
 * `next()`. A body a parser mounted before it already read (`express.json()`) is used as it is.
 */
export function createMiddleware(
  options: AppOptions = {},
  listenerOptions: NodeListenerOptions = {},
): NodeHandler {
  return createHandler(options, listenerOptions);
}

/**
 * Starts an HTTP server; resolves once it listens (after start-up). Installs the lightweight
 * globals (fast answers) unless `overrideGlobalObjects: false`.
 */
export async function serve(options: NodeServeOptions = {}): Promise<NodeRunningServer> {
  const { handler, tubescribe } = createNodeApp(options.app ?? {}, {
    overrideGlobalObjects: options.overrideGlobalObjects ?? true,
  });
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
        // Batch work stops first: running tasks are handed back while the requests drain.
        tubescribe.services.batchJobs.stop();
        await new Promise<void>((resolve) => {
          // Stop accepting; keep-alive connections close as soon as their request in flight is done.
          const sweep = setInterval(() => server.closeIdleConnections(), 25);
          const cut = setTimeout(() => server.closeAllConnections(), options.shutdownGraceMs ?? 8_000);
          server.close(() => {
            clearInterval(sweep);
            clearTimeout(cut);
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
