/**
 * Upstream calls in the debug log: a fetch that writes one `debug` entry per call it makes
 * (`upstream call`: method, host, path, status or error, ms). The query string is never written:
 * YouTube's caption URLs carry signatures and PO tokens there, and a proxy's credentials live in
 * its URL, which is never logged either. Only at `TUBESCRIBE_LOG=debug`: `tubescribe serve` wraps
 * the YouTube driver's fetch with it then. Runtime-neutral (Web `fetch` types only).
 * @module
 */
import type { Clock } from '../ports/clock.ts';
import type { ProxyFetch, UpstreamFetch } from '../ports/fetch.ts';
import type { Logger } from '../ports/logger.ts';

/** `https://host/path?query#hash` → `{ host, path }`, nothing of the query or the user info. */
function target(url: string): { host: string; path: string } {
  try {
    const parsed = new URL(url);
    return { host: parsed.host, path: parsed.pathname };
  } catch {
    return { host: '', path: '' };
  }
}

/** The YouTube driver's `fetch`, logging each call at `debug` through `logger`. */
export function loggedFetch(
  fetch: UpstreamFetch,
  logger: Logger,
  clock: Clock,
  via?: 'proxy',
): UpstreamFetch {
  return async (input, init) => {
    const began = clock.now();
    const fields = { method: init.method ?? 'GET', ...target(input), ...(via ? { via } : {}) };
    try {
      const response = await fetch(input, init);
      logger.log('debug', 'upstream call', { ...fields, status: response.status, ms: clock.now() - began });
      return response;
    } catch (error) {
      const name = error instanceof Error ? error.name : 'Error';
      logger.log('debug', 'upstream call', { ...fields, error: name, ms: clock.now() - began });
      throw error;
    }
  };
}

/** A proxy fetch whose fetches log their calls (see {@link loggedFetch}). */
export function loggedProxyFetch(proxyFetch: ProxyFetch, logger: Logger, clock: Clock): ProxyFetch {
  return (proxyUrl) => loggedFetch(proxyFetch(proxyUrl), logger, clock, 'proxy');
}
