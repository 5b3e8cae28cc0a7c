/**
 * The YouTube transport: every HTTP request the driver makes goes through here.
 *
 * - Hosts: `www.youtube.com`, `youtubei.googleapis.com`, `suggestqueries-clients6.youtube.com`,
 *   all replaced by `origin` when set (`TUBESCRIBE_YOUTUBE_ORIGIN`).
 * - Egress: an injected `fetch`, or proxies rotated per request (`TUBESCRIBE_PROXY`), each reached
 *   through the runtime's {@link ProxyFetch} that the adapter hands in (the driver never sniffs
 *   the runtime).
 * - Retries live here and nowhere else: network errors and 5xx are retried with full jitter;
 *   a 429 is retried once after YouTube's Retry-After when that is within the cap, else it is
 *   `upstream_blocked` with the Retry-After. Other statuses go back to the caller.
 * - Identical requests in flight are coalesced.
 * - Bounded work: at most `maxConcurrent` requests (after coalescing) in flight, a short wait
 *   queue, then `503 upstream_busy` ({@link Gate}). Bodies are read up to `maxBodyBytes`.
 * - Only YouTube and Google hosts over https, or the origin override, are requested (caption URLs
 *   come from YouTube's answers), and redirects are not followed: a 3xx is `upstream_error`.
 * @module
 */

import { Flights } from '../../core/flights.ts';
import { parseRetryAfter } from '../../core/retry-after.ts';
import { ApiError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { ProxyFetch, UpstreamAnswer, UpstreamFetch } from '../../ports/fetch.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Random } from '../../ports/random.ts';
import { backgroundTurn } from '../background-turn.ts';
import { assertAllowedUpstreamUrl, DEFAULT_MAX_BODY_BYTES, readCapped } from './egress.ts';
import { Gate } from './gate.ts';
import type { YouTubeHost } from './profiles.ts';

/** Thrown at construction when proxies are set without a {@link ProxyFetch} to reach them. */
export const PROXY_FETCH_REQUIRED =
  'TUBESCRIBE_PROXY needs a proxy-capable fetch: pass proxyFetch from tubescribe/node, tubescribe/bun or tubescribe/deno';

/** Options of {@link Transport}. */
export interface TransportOptions {
  /** The fetch to use when no proxy is set. Default: the global fetch. */
  fetch?: UpstreamFetch;
  /** Replaces every YouTube scheme+host (tests, reverse proxies). */
  origin?: string;
  /** Proxy URLs, rotated per request. They need {@link TransportOptions.proxyFetch}. */
  proxies?: readonly string[];
  /** Builds the fetch of each proxy (the runtime adapter's `proxyFetch`). Required with `proxies`. */
  proxyFetch?: ProxyFetch;
  clock: Clock;
  random: Random;
  logger: Logger;
  /** Retries after the first attempt for retryable outcomes. Default 2. */
  retries?: number;
  /** Base of the exponential backoff (full jitter). Default 250 ms. */
  backoffMs?: number;
  /** Longest Retry-After of YouTube's that is waited for. Default 3 s. */
  maxRetryAfterMs?: number;
  /** Default language and country. */
  hl?: string;
  gl?: string;
  /** Requests in flight at once (after coalescing). Default 32. */
  maxConcurrent?: number;
  /** Requests waiting for a slot before `upstream_busy`. Default 64. */
  maxQueued?: number;
  /** Longest wait for a slot before `upstream_busy`. Default 2 s. */
  maxQueueWaitMs?: number;
  /** Cap on a response body, in bytes; past it the answer is `upstream_error`. Default 16 MiB. */
  maxBodyBytes?: number;
}

/** A response as the driver sees it. */
export interface RawResponse {
  status: number;
  headers: UpstreamAnswer['headers'];
  text: string;
  url: string;
}

const HOSTS: Record<YouTubeHost, string> = {
  www: 'https://www.youtube.com',
  youtubei: 'https://youtubei.googleapis.com',
  suggest: 'https://suggestqueries-clients6.youtube.com',
};

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** The transport. */
export class Transport {
  private readonly fetchers: UpstreamFetch[] | undefined;
  private next = 0;
  private readonly inflight = new Flights<RawResponse>();
  /** The bound on concurrent requests (figures for tests). */
  readonly gate: Gate;
  /** Requests sent (after coalescing), for tests and figures. */
  sent = 0;

  /** Throws when `proxies` are set without a `proxyFetch` to reach them ({@link PROXY_FETCH_REQUIRED}). */
  constructor(private readonly options: TransportOptions) {
    const { proxies, proxyFetch } = options;
    if (proxies?.length && !proxyFetch) throw new Error(PROXY_FETCH_REQUIRED);
    this.fetchers = proxies?.length && proxyFetch ? proxies.map((p) => proxyFetch(p)) : undefined;
    this.gate = new Gate({
      ...(options.maxConcurrent !== undefined ? { maxConcurrent: options.maxConcurrent } : {}),
      ...(options.maxQueued !== undefined ? { maxQueued: options.maxQueued } : {}),
      ...(options.maxQueueWaitMs !== undefined ? { maxWaitMs: options.maxQueueWaitMs } : {}),
    });
  }

  /** Default `hl`. */
  get hl(): string {
    return this.options.hl ?? 'en';
  }

  /** Default `gl`. */
  get gl(): string {
    return this.options.gl ?? 'US';
  }

  /** The configured origin override, if any. */
  get origin(): string | undefined {
    return this.options.origin;
  }

  /** The absolute URL of `path` on a YouTube host (or the origin override). */
  url(host: YouTubeHost, path: string): string {
    return (this.options.origin?.replace(/\/+$/, '') ?? HOSTS[host]) + path;
  }

  /**
   * Sends a request with retries; coalesces identical requests in flight. A caller's abort
   * rejects only that caller; the request itself is aborted once every caller has gone.
   * A URL off the allowed hosts is refused with `upstream_error` before anything is sent; a full
   * gate answers `upstream_busy`.
   */
  request(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal?: AbortSignal,
  ): Promise<RawResponse> {
    try {
      assertAllowedUpstreamUrl(url, this.options.origin);
    } catch (error) {
      this.options.logger.log('warn', 'youtube request to a host off the allowed list refused', {
        host: URL.canParse(url) ? new URL(url).host : '',
      });
      return Promise.reject(error);
    }
    return this.inflight.run(`${method} ${url}\n${body ?? ''}`, signal, (shared) =>
      this.gate.run(shared, () => this.send(method, url, headers, body, shared)),
    );
  }

  private fetcher(): UpstreamFetch {
    if (this.fetchers) return this.fetchers[this.next++ % this.fetchers.length]!;
    return this.options.fetch ?? ((input, init) => fetch(input, init));
  }

  private backoff(attempt: number): number {
    const base = this.options.backoffMs ?? 250;
    const cap = base * 2 ** attempt;
    const [a = 0, b = 0] = this.options.random.bytes(2);
    return Math.floor((((a << 8) | b) / 65536) * cap);
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    headers: Record<string, string>,
    body: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<RawResponse> {
    const retries = this.options.retries ?? 2;
    const maxRetryAfter = this.options.maxRetryAfterMs ?? 3000;
    const path = new URL(url).pathname;
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      let response: UpstreamAnswer;
      try {
        this.sent++;
        const init: RequestInit = { method, headers, redirect: 'manual' };
        if (body !== undefined) init.body = body;
        if (signal) init.signal = signal;
        response = await this.fetcher()(url, init);
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        if (attempt < retries) {
          this.options.logger.log('warn', 'youtube request failed; retrying', {
            path,
            attempt,
            error: String(error),
          });
          await sleep(this.backoff(attempt), signal);
          continue;
        }
        throw new ApiError('upstream_error', 'YouTube could not be reached; retry later.', { cause: error });
      }
      const status = response.status;
      if (status === 429) {
        const seconds = parseRetryAfter(response.headers.get('retry-after'), this.options.clock.now());
        await response.body?.cancel();
        if (attempt < retries && seconds !== undefined && seconds * 1000 <= maxRetryAfter) {
          await sleep(Math.max(seconds * 1000, this.backoff(attempt)), signal);
          continue;
        }
        this.options.logger.log('warn', 'youtube rate-limited us', { path, retryAfter: seconds });
        throw new ApiError('upstream_blocked', 'YouTube is rate-limiting this server; retry later.', {
          retryAfter: Math.max(1, seconds ?? 60),
        });
      }
      if (status >= 500) {
        await response.body?.cancel();
        if (attempt < retries) {
          await sleep(this.backoff(attempt), signal);
          continue;
        }
        this.options.logger.log('warn', 'youtube answered 5xx', { path, status });
        throw new ApiError('upstream_error', `YouTube answered ${status}; retry later.`);
      }
      if (response.type === 'opaqueredirect' || (status >= 300 && status < 400)) {
        await response.body?.cancel();
        this.options.logger.log('warn', 'youtube answered a redirect; not followed', { path, status });
        throw new ApiError('upstream_error', `YouTube answered a redirect (${status}); retry later.`);
      }
      const text = await readCapped(response, this.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES);
      // The caller parses it next: in a slice of its own when answers arrive together.
      await backgroundTurn();
      return { status, headers: response.headers, text, url: response.url || url };
    }
  }
}
