/**
 * Sending YouTube calls through an HTTP(S) proxy, each runtime with its own mechanism:
 * Bun's `fetch(url, { proxy })`, Deno's `Deno.createHttpClient({ proxy })`, and on Node the
 * `undici` package's `ProxyAgent` (loaded only when a proxy is configured).
 * @module
 */
import type { FetchLike } from './transport.ts';

interface DenoLike {
  createHttpClient(options: { proxy: { url: string } }): unknown;
}

/** A fetch that sends every request through `proxyUrl`. */
export function proxiedFetch(proxyUrl: string): FetchLike {
  const g = globalThis as { Bun?: unknown; Deno?: DenoLike };
  if (g.Bun) {
    return (input, init) => fetch(input, { ...init, proxy: proxyUrl } as RequestInit);
  }
  if (g.Deno) {
    const client = g.Deno.createHttpClient({ proxy: { url: proxyUrl } });
    return (input, init) => fetch(input, { ...init, client } as RequestInit);
  }
  let undici: Promise<{ fetch: FetchLike; agent: unknown }> | undefined;
  return async (input, init) => {
    undici ??= import('undici').then((u) => ({
      fetch: u.fetch as unknown as FetchLike,
      agent: new u.ProxyAgent(proxyUrl),
    }));
    const { fetch: ufetch, agent } = await undici;
    return ufetch(input, { ...init, dispatcher: agent } as RequestInit);
  };
}
