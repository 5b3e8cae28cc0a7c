/**
 * The client's address: the one the runtime adapter reports for the connection, or, behind
 * trusted reverse proxies, the `X-Forwarded-For` entry the nearest trusted proxy appended.
 * @module
 */
import type { ClientAddressOf } from '../options.ts';
import type { AppContext } from './context.ts';
import { requestHeader } from './edge.ts';

/**
 * The client address of a request, or `unknown`. Behind `trustProxy` reverse proxies, the
 * address is the entry that many hops from the right of `X-Forwarded-For`: each trusted proxy
 * appends the address it saw, so entries further left are the client's own claims.
 */
export function clientAddress(c: AppContext, trustProxy: number, socketAddress?: ClientAddressOf): string {
  if (trustProxy > 0) {
    const chain = (requestHeader(c, 'x-forwarded-for') ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    const entry = chain[chain.length - trustProxy];
    if (entry) return entry;
  }
  return socketAddress?.(c.req.raw, c.env) || 'unknown';
}
