/**
 * What a Node request's `{ incoming }` environment (from `@hono/node-server`) tells about where the
 * request arrived, for links and logs:
 * - the mount path: Express/Connect strip the path a middleware is mounted under from `req.url`
 *   (`app.use('/api', …)`: `/api/docs` arrives as `/docs`). Express keeps it in `req.baseUrl`,
 *   Connect in the difference between `req.originalUrl` and `req.url`;
 * - the server origin: the socket's local address and port (`http://10.0.0.5:8787`; `https:` on
 *   a TLS socket). Unlike the `Host` header it is not the client's to choose, so links may name it
 *   when no public URL is configured (`src/http/public-url.ts`).
 * @module
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

interface Mounted {
  baseUrl?: unknown;
  originalUrl?: unknown;
  url?: string | undefined;
}

/** A path of plain segments, nothing that could break out of a link. */
const SAFE_PATH = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

const pathOf = (url: string): string => url.split('?', 1)[0] ?? '';

/** The path `incoming` was mounted under (`/api`), or undefined at the root. */
export function mountPathOfIncoming(incoming: IncomingMessage | undefined): string | undefined {
  const req = incoming as (IncomingMessage & Mounted) | undefined;
  if (!req) return undefined;
  let mount: string | undefined;
  if (typeof req.baseUrl === 'string') {
    mount = req.baseUrl;
  } else if (typeof req.originalUrl === 'string' && req.url !== undefined) {
    const original = pathOf(req.originalUrl);
    const path = pathOf(req.url);
    if (path === '/') mount = original.replace(/\/+$/, '');
    else if (original.endsWith(path)) mount = original.slice(0, original.length - path.length);
  }
  mount = mount?.replace(/\/+$/, '');
  return mount !== undefined && SAFE_PATH.test(mount) ? mount : undefined;
}

/** The app's `mountPath` option on Node: the mount path of the request's `incoming`. */
export function nodeMountPath(_request: Request, env: unknown): string | undefined {
  return mountPathOfIncoming((env as { incoming?: IncomingMessage } | undefined)?.incoming);
}

interface NodeEnv {
  incoming?: Pick<IncomingMessage, 'socket'>;
}

/** The origin of the socket's local end, or undefined when the runtime does not say. */
export function nodeServerOrigin(_request: Request, env: unknown): string | undefined {
  const socket = (env as NodeEnv | undefined)?.incoming?.socket as
    | (IncomingMessage['socket'] & { encrypted?: boolean })
    | undefined;
  let address = socket?.localAddress;
  const port = socket?.localPort;
  if (address === undefined || port === undefined || isIP(address) === 0) return undefined;
  // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
  if (address.startsWith('::ffff:') && isIP(address.slice(7)) === 4) address = address.slice(7);
  const host = isIP(address) === 6 ? `[${address}]` : address;
  const scheme = socket?.encrypted ? 'https' : 'http';
  const defaultPort = scheme === 'https' ? 443 : 80;
  return `${scheme}://${host}${port === defaultPort ? '' : `:${port}`}`;
}

interface NodeExchange {
  incoming?: Pick<IncomingMessage, 'headers'>;
  outgoing?: { destroyed?: boolean };
}

/**
 * A request header from `IncomingMessage.headers` (Node keeps one value of a singleton header such
 * as `authorization`, and joins repeats of others with `, `), so the request's `Headers` object is
 * never built; through the Web request when the runtime passed no `incoming`.
 */
export function nodeRequestHeader(request: Request, env: unknown, name: string): string | undefined {
  const headers = (env as NodeExchange | undefined)?.incoming?.headers;
  if (!headers) return request.headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Whether the response's connection closed before the answer (no `AbortSignal` made for it). */
export function nodeClientGone(request: Request, env: unknown): boolean {
  const outgoing = (env as NodeExchange | undefined)?.outgoing;
  return outgoing ? outgoing.destroyed === true : request.signal.aborted;
}
