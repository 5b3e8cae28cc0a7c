/**
 * What the runtime adapter knows about a request, read without building Web objects. On Node,
 * `@hono/node-server` makes a request's `Headers` (every header copied) on the first header read
 * and an `AbortController` on the first `signal` read; a cached answer needs neither, so the Node
 * adapter hands in readers of the `IncomingMessage` itself. Without them (Bun, Deno, `app.fetch`)
 * the Web objects are read as usual.
 *
 * The app keeps one {@link Edge} and puts it in each request's context (`edge`); helpers that
 * only have the context call {@link requestHeader} and {@link clientGone}.
 * @module
 */
import type { AppContext, Edge, EdgeHooks } from './context.ts';

/** An {@link Edge} over the adapter's hooks. */
export function createEdge(hooks: EdgeHooks): Edge {
  const { requestHeader, clientGone, mountPath, serverOrigin } = hooks;
  return {
    header: requestHeader
      ? (c, name) => requestHeader(c.req.raw, c.env, name)
      : (c, name) => c.req.raw.headers.get(name) ?? undefined,
    clientGone: clientGone ? (c) => clientGone(c.req.raw, c.env) : (c) => c.req.raw.signal.aborted,
    mountPath: mountPath ? (c) => mountPath(c.req.raw, c.env) : () => undefined,
    serverOrigin: serverOrigin ? (c) => serverOrigin(c.req.raw, c.env) : () => undefined,
  };
}

/** The edge of apps built without adapter hooks (and of contexts the app's middleware never saw). */
const WEB_EDGE: Edge = createEdge({});

/** The request's edge. */
export function edgeOf(c: AppContext): Edge {
  return c.get('edge') ?? WEB_EDGE;
}

/** A request header (lower-case `name`), or undefined. */
export function requestHeader(c: AppContext, name: string): string | undefined {
  return edgeOf(c).header(c, name);
}

/** Whether the client closed the connection before the answer. */
export function clientGone(c: AppContext): boolean {
  return edgeOf(c).clientGone(c);
}
