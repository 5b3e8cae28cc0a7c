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

/**
 * The client address of a request, or `unknown`. Behind `trustProxy` reverse proxies (true = 1),
 * the address is the entry that many hops from the right of `X-Forwarded-For`: each trusted proxy
 * appends the address it saw, so entries further left are the client's own claims.
 */
export function clientAddress(c: Context, trustProxy: boolean | number): string {
  const hops = trustProxy === true ? 1 : trustProxy === false ? 0 : Math.max(0, Math.floor(trustProxy));
  if (hops > 0) {
    const chain = (c.req.header('x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const entry = chain[chain.length - hops];
    if (entry) return entry;
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
