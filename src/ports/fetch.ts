/**
 * How drivers reach the network: a fetch function, and a factory of fetches that go through an
 * HTTP(S) proxy. Each runtime reaches a proxy its own way (undici's `ProxyAgent` on Node, the
 * `proxy` option of Bun's fetch, a `Deno.HttpClient` on Deno), so the runtime adapters hand a
 * {@link ProxyFetch} in and no driver ever looks at which runtime it runs on.
 * @module
 */

/** A fetch function: the global one, one that goes through a proxy, or a test fake. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** What the YouTube driver reads of a body: its chunks in order, or nothing more. */
export interface UpstreamBody {
  getReader(): {
    read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
    cancel(): Promise<void>;
  };
  cancel(): Promise<void>;
}

/**
 * What the YouTube driver reads of an answer. A `Response` is one; the Node adapter's direct
 * fetch makes a lighter one, without the Web streams and objects a `Response` carries.
 */
export interface UpstreamAnswer {
  readonly status: number;
  /** The URL answered (the request's: redirects are never followed). */
  readonly url: string;
  /** `opaqueredirect` when a fetch held a redirect back; anything else is not read. */
  readonly type?: string;
  readonly headers: { get(name: string): string | null };
  readonly body: UpstreamBody | null;
  text(): Promise<string>;
}

/** A fetch as the YouTube driver uses it: every {@link FetchLike} is one. */
export type UpstreamFetch = (input: string, init: RequestInit) => Promise<UpstreamAnswer>;

/**
 * Builds a fetch that sends every request through the HTTP(S) proxy at `proxyUrl`. It MUST NOT
 * fall back to a direct connection: a request it cannot send through the proxy fails.
 */
export type ProxyFetch = (proxyUrl: string) => UpstreamFetch;
