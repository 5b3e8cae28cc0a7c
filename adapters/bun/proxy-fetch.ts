/**
 * The proxy-capable fetch of Bun, for `TUBESCRIBE_PROXY` / `youtube.proxies`: Bun's own fetch
 * takes the proxy as `fetch(url, { proxy })` (it sends absolute-form requests for http targets
 * and CONNECT tunnels for https ones).
 * @module
 */
import type { FetchLike } from '../../src/ports/fetch.ts';

/**
 * A fetch that sends every request through the HTTP(S) proxy at `proxyUrl`, with Bun's
 * `fetch(url, { proxy })`. Throws when not running under Bun: another runtime's fetch would
 * ignore `proxy` and connect directly.
 */
export function proxyFetch(proxyUrl: string): FetchLike {
  if (!(globalThis as { Bun?: unknown }).Bun) {
    throw new Error('tubescribe/bun: proxyFetch needs the fetch of Bun; run this under Bun.');
  }
  return (input, init) => fetch(input, { ...init, proxy: proxyUrl } as RequestInit);
}
