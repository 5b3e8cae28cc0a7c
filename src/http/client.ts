/**
 * The client's address, from whatever the runtime adapter passed as the request's environment:
 * Node (`{ incoming }`), Bun (the server, `requestIP`), Deno (`{ remoteAddr }`); behind a trusted
 * proxy, the first `X-Forwarded-For` hop.
 * @module
 */
import type { Context } from 'hono';

interface NodeEnv {
  incoming?: { socket?: { remoteAddress?: string } };
}
interface BunEnv {
  requestIP?: (request: Request) => { address: string } | null;
}
interface DenoEnv {
  remoteAddr?: { hostname?: string };
}

/** The client address of a request, or `unknown`. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for');
    const first = forwarded?.split(',')[0]?.trim();
    if (first) return first;
  }
  const env = c.env as (NodeEnv & BunEnv & DenoEnv) | undefined;
  if (!env || typeof env !== 'object') return 'unknown';
  const node = env.incoming?.socket?.remoteAddress;
  if (node) return node;
  if (typeof env.requestIP === 'function') {
    try {
      const ip = env.requestIP(c.req.raw)?.address;
      if (ip) return ip;
    } catch {
      // not a Bun server
    }
  }
  return env.remoteAddr?.hostname ?? 'unknown';
}
