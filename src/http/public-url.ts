/**
 * The public base URL of a request: the one place that decides what the links and `next` texts
 * of answers name (sign-up `next`, `example_request` and `docs`, MCP resource metadata, the
 * OpenAPI `servers`, `/docs`, batch `Location`).
 *
 * In order:
 * 1. `publicUrl` (`TUBESCRIBE_PUBLIC_URL`) when configured: it is the whole base, prefix included.
 * 2. Behind trusted reverse proxies (`trustProxy` > 0): the forwarded host and protocol
 *    (`Forwarded: host=…;proto=…`, else `X-Forwarded-Host` / `X-Forwarded-Proto`, else the `Host`
 *    the proxy passed on), plus the mount prefix.
 * 3. A request whose host is a loopback name or address (`localhost`, `127.x.x.x`, `[::1]`): its own
 *    origin plus the prefix. A link to the reader's own machine leads nowhere an attacker chose.
 * 4. The origin the connection reached, as the runtime adapter reports it (Node: the socket's
 *    local address and port, `http://10.0.0.5:8787`), plus the prefix.
 * 5. Anything else (an in-process `fetch` with no runtime behind it): a relative base (the mount
 *    prefix alone, `''` at the root), so links read `/docs`.
 * A `Host` header is the client's to choose: reflecting it would let anyone put their own host
 * into answers (and into caches in front of the server), so it is used only in 2 and 3.
 * Forwarded values must look like a host (`name[:port]`) and a protocol (`http`/`https`), else they
 * are ignored.
 * @module
 */
import { basePath, baseRoutePath } from 'hono/route';
import type { Settings } from '../settings.ts';
import type { AppContext } from './context.ts';
import { edgeOf } from './edge.ts';

const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const LOOPBACK = /^(?:localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/** The entry a trusted proxy wrote in a comma-separated list: `hops` from the right. */
function trustedEntry(list: string | undefined, hops: number): string | undefined {
  if (list === undefined) return undefined;
  const entries = list
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return entries[Math.max(0, entries.length - hops)];
}

/** One parameter (`host`, `proto`) of a `Forwarded` element (RFC 7239), unquoted. */
function forwardedParam(element: string | undefined, name: string): string | undefined {
  for (const pair of element?.split(';') ?? []) {
    const eq = pair.indexOf('=');
    if (eq > 0 && pair.slice(0, eq).trim().toLowerCase() === name) {
      return pair
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1');
    }
  }
  return undefined;
}

/** The origin the trusted proxies forwarded, or undefined when they forwarded nothing usable. */
function forwardedOrigin(c: AppContext, hops: number): string | undefined {
  const element = trustedEntry(c.req.header('forwarded'), hops);
  const host =
    forwardedParam(element, 'host') ??
    trustedEntry(c.req.header('x-forwarded-host'), hops) ??
    c.req.header('host');
  const proto = (
    forwardedParam(element, 'proto') ??
    trustedEntry(c.req.header('x-forwarded-proto'), hops) ??
    new URL(c.req.url).protocol.slice(0, -1)
  ).toLowerCase();
  if (host === undefined || !HOST.test(host) || (proto !== 'http' && proto !== 'https')) return undefined;
  return `${proto}://${host}`;
}

/**
 * The prefix the app is mounted under, as far as the request shows it: Hono `app.route('/api', …)`
 * keeps it in the route's base path; Express/Connect strip it and the Node adapter reports it
 * (`mountPath`); Hono `app.mount` hides it entirely.
 */
export function mountPrefix(c: AppContext, base: string = baseRoutePath(c)): string {
  const adapter = edgeOf(c).mountPath(c)?.replace(/\/+$/, '') ?? '';
  return adapter + routePrefix(c, base);
}

/** The part of {@link mountPrefix} that Hono's `app.route` adds: still in the request's path. */
export function routePrefix(c: AppContext, base: string = baseRoutePath(c)): string {
  // basePath() keeps a per-context WeakMap entry; a base without parameters is its own value.
  return (/[:*]/.test(base) ? basePath(c) : base).replace(/\/+$/, '');
}

/** The public base URL of a request (no trailing slash; `''` or a bare prefix when relative). */
export function publicBase(c: AppContext, settings: Pick<Settings, 'publicUrl' | 'trustProxy'>): string {
  if (settings.publicUrl !== undefined) return settings.publicUrl;
  const prefix = mountPrefix(c);
  if (settings.trustProxy > 0) {
    const origin = forwardedOrigin(c, settings.trustProxy);
    if (origin !== undefined) return origin + prefix;
  }
  const url = new URL(c.req.url);
  if (LOOPBACK.test(url.hostname)) return url.origin + prefix;
  const server = edgeOf(c).serverOrigin(c);
  return server === undefined ? prefix : server + prefix;
}

/** Whether a base from {@link publicBase} is an absolute URL (else links are paths). */
export function isAbsolute(base: string): boolean {
  return /^https?:\/\//.test(base);
}
