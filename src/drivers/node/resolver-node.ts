/**
 * A {@link Resolver} over `node:dns/promises` (`TUBESCRIBE_DNS=system` or `udp://HOST:PORT`), with
 * its own `Resolver` instance: the system's name servers, or the given ones.
 *
 * Error codes → reasons: `ENOTFOUND` → `nxdomain`, `ENODATA` → `nodata`, anything else (SERVFAIL,
 * REFUSED, timeouts, refused connections, bad answers) → `failure`. Two runtimes report less
 * precisely through their `node:dns` (checked against a fake server): Bun answers `ENOTFOUND` for
 * NODATA as well, so there it counts as `nodata` (the same verdict, and the caller still asks for
 * A/AAAA); Deno answers `ENOTFOUND` for NXDOMAIN, NODATA, SERVFAIL and REFUSED alike, so there it
 * counts as `failure` (the address is let through): on Deno use a DoH resolver instead.
 * @module
 */
import { Resolver as DnsResolver } from 'node:dns/promises';
import type { Lookup, MxRecord, Resolver } from '../../ports/dns.ts';
import { mergeAddressLookups } from '../resolver-doh.ts';

/** Options of {@link createNodeResolver}. */
export interface NodeResolverOptions {
  /**
   * Name servers: `HOST`, `HOST:PORT`, `[IPv6]:PORT` or `udp://HOST:PORT` (IP addresses only).
   * Default: the system's.
   */
  servers?: string[];
  /** Upper bound of one lookup in ms (A and AAAA run in parallel). Default 3,000. */
  timeoutMs?: number;
}

/** What `ENOTFOUND` means on a runtime (see the module docs). */
export type NotFoundMeaning = 'nxdomain' | 'nodata' | 'failure';

/** `ENOTFOUND`'s meaning on the running runtime: `failure` on Deno, `nodata` on Bun, else `nxdomain`. */
export function runtimeNotFound(): NotFoundMeaning {
  const runtime = globalThis as { Deno?: unknown; Bun?: unknown };
  if (runtime.Deno !== undefined) return 'failure';
  if (runtime.Bun !== undefined) return 'nodata';
  return 'nxdomain';
}

/** Maps a `node:dns` error to the reason of a failed {@link Lookup}. */
export function classifyDnsError(
  error: unknown,
  notFound: NotFoundMeaning = runtimeNotFound(),
): 'nxdomain' | 'nodata' | 'failure' {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 'ENOTFOUND') return notFound;
  if (code === 'ENODATA') return 'nodata';
  return 'failure';
}

/** `udp://HOST:PORT` → `HOST:PORT`; other forms unchanged. */
export function serverAddress(server: string): string {
  return server
    .trim()
    .replace(/^udp:\/\//i, '')
    .replace(/\/$/, '');
}

const DEFAULT_TIMEOUT_MS = 3_000;

/**
 * A {@link Resolver} over `node:dns/promises`. `mx` returns the records sorted by priority, a null
 * MX (`.`) as `{ exchange: '', priority: 0 }` and other exchanges without a trailing dot;
 * `addresses` asks A and AAAA in parallel (see `mergeAddressLookups`). Lookups never throw and end
 * within `timeoutMs`: the resolver's own per-try timeout and two tries, plus a hard deadline (a
 * query still running then is left to c-ares' own timeout).
 * @throws Error at creation when a server address is invalid.
 */
export function createNodeResolver(options: NodeResolverOptions = {}): Resolver {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const resolver = new DnsResolver({ timeout: Math.max(50, Math.floor(timeoutMs / 4)), tries: 2 });
  if (options.servers !== undefined) {
    try {
      resolver.setServers(options.servers.map(serverAddress));
    } catch (error) {
      throw new Error(`TUBESCRIBE_DNS: invalid name server (${(error as Error).message})`, { cause: error });
    }
  }
  const notFound = runtimeNotFound();

  async function lookup<T>(query: () => Promise<T[]>): Promise<Lookup<T>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<Lookup<T>>((resolve) => {
      timer = setTimeout(() => resolve({ ok: false, reason: 'failure' }), timeoutMs);
    });
    const answer = (async (): Promise<Lookup<T>> => {
      try {
        const records = await query();
        return records.length > 0 ? { ok: true, records } : { ok: false, reason: 'nodata' };
      } catch (error) {
        return { ok: false, reason: classifyDnsError(error, notFound) };
      }
    })();
    try {
      return await Promise.race([answer, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    async mx(domain: string): Promise<Lookup<MxRecord>> {
      return lookup(async () => {
        const records = await resolver.resolveMx(domain);
        return records
          .map((r) => ({ priority: r.priority, exchange: r.exchange.replace(/\.$/, '').toLowerCase() }))
          .sort((x, y) => x.priority - y.priority);
      });
    },
    async addresses(domain: string): Promise<Lookup<string>> {
      const [a, aaaa] = await Promise.all([
        lookup(() => resolver.resolve4(domain)),
        lookup(() => resolver.resolve6(domain)),
      ]);
      return mergeAddressLookups(a, aaaa);
    },
  };
}
