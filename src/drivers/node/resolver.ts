/**
 * Chooses the sign-up deliverability resolver from `TUBESCRIBE_DNS`.
 * @module
 */
import type { Resolver } from '../../ports/dns.ts';
import { createDohResolver } from '../resolver-doh.ts';
import { createNodeResolver } from './resolver-node.ts';

/** Options passed on to the resolver. */
export interface ResolverSpecOptions {
  /** Upper bound of one lookup in ms (default 3,000). */
  timeoutMs?: number;
}

const FORMS = '"system", "off", udp://IP:PORT or an https:// DNS-over-HTTPS JSON URL';

/**
 * The resolver a `TUBESCRIBE_DNS` value names:
 * - `system` (the default): `node:dns` with the system's name servers;
 * - `off`: `undefined`, meaning no deliverability lookups at all (every address that passes the
 *   other checks is let through, as if DNS had failed);
 * - `udp://IP:PORT` (port 53 when omitted; `[IPv6]:PORT` for IPv6): `node:dns` asking that server;
 * - `https://…` (or `http://…` for a local proxy): a DNS-over-HTTPS JSON endpoint such as
 *   `https://dns.google/resolve` or `https://cloudflare-dns.com/dns-query`. Use this on Deno
 *   (Deploy), whose `node:dns` cannot tell a missing domain from a failed lookup.
 *
 * Keywords and schemes are matched case-insensitively; surrounding whitespace is ignored.
 * @throws Error naming the accepted forms when `spec` is none of them or its address is invalid.
 */
export function createResolver(spec: string, options: ResolverSpecOptions = {}): Resolver | undefined {
  const value = spec.trim();
  const lower = value.toLowerCase();
  const timeout = options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs };
  if (lower === 'off') return undefined;
  if (lower === 'system') return createNodeResolver(timeout);
  if (lower.startsWith('udp://')) {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`TUBESCRIBE_DNS: not a valid udp://IP:PORT address; expected ${FORMS}`);
    }
    if (url.hostname === '' || (url.pathname !== '' && url.pathname !== '/') || url.search !== '') {
      throw new Error(`TUBESCRIBE_DNS: expected udp://IP:PORT; expected ${FORMS}`);
    }
    return createNodeResolver({ servers: [`${url.hostname}:${url.port || '53'}`], ...timeout });
  }
  if (lower.startsWith('https://') || lower.startsWith('http://')) return createDohResolver(value, timeout);
  const got = value === '' ? 'an empty value' : 'an unknown value';
  throw new Error(`TUBESCRIBE_DNS must be ${FORMS}; got ${got}`);
}
