/**
 * The proxy-capable fetch of Node, for `TUBESCRIBE_PROXY` / `youtube.proxies`: undici's `fetch`
 * with a `ProxyAgent` dispatcher (HTTP(S) proxies, CONNECT tunnels for https targets). Node's
 * global fetch cannot take a proxy, so the `undici` package is needed; it is imported on the first
 * request, so a server without proxies never loads it.
 * @module
 */
import type { FetchLike } from '../../src/ports/fetch.ts';

/** Said when the `undici` package cannot be loaded. */
const MISSING_UNDICI = 'install undici to use TUBESCRIBE_PROXY on Node';

/** undici's fetch bound to a ProxyAgent on one proxy. */
interface Proxied {
  fetch: (input: string, init: RequestInit & { dispatcher: unknown }) => Promise<Response>;
  dispatcher: unknown;
}

/** What is used of the `undici` package. */
interface Undici {
  fetch: unknown;
  ProxyAgent: new (proxyUrl: string) => unknown;
}

async function load(proxyUrl: string): Promise<Proxied> {
  let undici: Undici;
  try {
    undici = await import('undici');
  } catch (cause) {
    throw new Error(`${MISSING_UNDICI} (npm install undici).`, { cause });
  }
  return {
    fetch: undici.fetch as unknown as Proxied['fetch'],
    dispatcher: new undici.ProxyAgent(proxyUrl),
  };
}

/**
 * A fetch that sends every request through the HTTP(S) proxy at `proxyUrl`, with undici's
 * `ProxyAgent`. undici is imported on first use; when it is missing, each request rejects with
 * "install undici to use TUBESCRIBE_PROXY on Node" (never a direct connection).
 */
export function proxyFetch(proxyUrl: string): FetchLike {
  let proxied: Promise<Proxied> | undefined;
  return async (input, init) => {
    proxied ??= load(proxyUrl);
    const { fetch, dispatcher } = await proxied;
    return fetch(input, { ...init, dispatcher });
  };
}
