/**
 * The proxy-capable fetch of Node, for `TUBESCRIBE_PROXY` / `youtube.proxies`: undici's `request`
 * API with a `ProxyAgent` dispatcher (HTTP(S) proxies, CONNECT tunnels for https targets),
 * answering as the Node adapter's direct fetch does (`upstream-fetch.ts`: no `Response` or Web
 * streams per request). Node's global fetch cannot take a proxy, so the `undici` package is
 * needed; it is imported on the first request, so a server without proxies never loads it.
 * @module
 */
import type { UpstreamFetch } from '../../src/ports/fetch.ts';
import { requestFetch } from './upstream-fetch.ts';

/** Said when the `undici` package cannot be loaded. */
const MISSING_UNDICI = 'install undici to use TUBESCRIBE_PROXY on Node';

/**
 * A fetch that sends every request through the HTTP(S) proxy at `proxyUrl`, with undici's
 * `ProxyAgent`. undici is imported on first use; when it is missing, each request rejects with
 * "install undici to use TUBESCRIBE_PROXY on Node" (never a direct connection).
 */
export function proxyFetch(proxyUrl: string): UpstreamFetch {
  return requestFetch(
    (undici) => new undici.ProxyAgent(proxyUrl),
    (cause) => () => Promise.reject(new Error(`${MISSING_UNDICI} (npm install undici).`, { cause })),
  );
}
