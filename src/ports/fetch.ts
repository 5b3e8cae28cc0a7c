/**
 * How drivers reach the network: a fetch function, and a factory of fetches that go through an
 * HTTP(S) proxy. Each runtime reaches a proxy its own way (undici's `ProxyAgent` on Node, the
 * `proxy` option of Bun's fetch, a `Deno.HttpClient` on Deno), so the runtime adapters hand a
 * {@link ProxyFetch} in and no driver ever looks at which runtime it runs on.
 * @module
 */

/** A fetch function: the global one, one that goes through a proxy, or a test fake. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Builds a fetch that sends every request through the HTTP(S) proxy at `proxyUrl`. It MUST NOT
 * fall back to a direct connection: a request it cannot send through the proxy fails.
 */
export type ProxyFetch = (proxyUrl: string) => FetchLike;
