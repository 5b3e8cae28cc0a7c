/**
 * The proxy-capable fetch of Deno, for `TUBESCRIBE_PROXY` / `youtube.proxies`: an HTTP client made
 * by `Deno.createHttpClient({ proxy: { url } })`, passed to Deno's fetch as `client`.
 * @module
 */
import type { FetchLike } from '../../src/ports/fetch.ts';

interface DenoHttp {
  createHttpClient?(options: { proxy: { url: string } }): unknown;
}

/**
 * A fetch that sends every request through the HTTP(S) proxy at `proxyUrl`, over one
 * `Deno.createHttpClient({ proxy: { url: proxyUrl } })` client (made now, reused by every
 * request). Throws when not running under Deno.
 */
export function proxyFetch(proxyUrl: string): FetchLike {
  const deno = (globalThis as { Deno?: DenoHttp }).Deno;
  if (!deno?.createHttpClient) {
    throw new Error('tubescribe/deno: Deno.createHttpClient is not available; run this under Deno.');
  }
  const client = deno.createHttpClient({ proxy: { url: proxyUrl } });
  return (input, init) => fetch(input, { ...init, client } as RequestInit);
}
