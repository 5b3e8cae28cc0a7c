/**
 * Proof-of-origin (PO) tokens from a bgutil provider (Brainicism/bgutil-ytdlp-pot-provider, the
 * HTTP server yt-dlp's `bgutil:http` plugin talks to), for the WEB caption URLs that YouTube gates
 * (`exp=xpe|xpv`; youtube-protocol.md §2.3, §13).
 *
 * - `POST <provider>/get_pot` with `{"content_binding": "<video id>"}` (yt-dlp binds a subtitle
 *   token to the video: `get_webpo_content_binding`, context SUBS) answers
 *   `{"poToken", "contentBinding", "expiresAt"}` (1.x; 0.x answered `{"po_token"}`), or an
 *   `{"error"}` with a 4xx/5xx. `GET <provider>/ping` answers `{"version", "server_uptime"}`.
 * - The token goes on the caption URL as `pot=<token>&potc=1&c=<client name>`, as yt-dlp does.
 * - Every call is bounded by a timeout; a failure answers "no token" (the caller falls back as it
 *   would without a provider) and is logged at warn once, after which the provider is left alone
 *   for a short while instead of costing every request its timeout. Tokens are cached per content
 *   binding until the expiry the provider reports (a bounded number of them); a token without a
 *   reported expiry is not kept.
 * - Nothing secret is logged: neither tokens nor the provider's URL (it may hold credentials,
 *   which are sent as HTTP Basic authentication instead).
 * @module
 */
import { Flights } from '../../core/flights.ts';
import type { Clock } from '../../ports/clock.ts';
import type { FetchLike } from '../../ports/fetch.ts';
import type { Logger } from '../../ports/logger.ts';
import { settingUrl } from '../setting-url.ts';
import { readCapped } from './egress.ts';

/** Default bound on one provider call, in ms. A warmed bgutil mints in milliseconds. */
export const POT_TIMEOUT_MS = 5000;
/** How long the provider is left alone after it failed, in ms. */
export const POT_DOWN_MS = 30_000;
/** Tokens kept at most (one per video), oldest dropped first. */
export const POT_CACHE_ENTRIES = 1024;
/** A token is dropped this long before the expiry the provider reports, in ms. */
const EXPIRY_MARGIN_MS = 60_000;
/** The largest provider answer read (a token is ~150 characters). */
const MAX_ANSWER_BYTES = 64 * 1024;

/** Options of {@link PoTokenProvider}. */
export interface PoTokenProviderOptions {
  /** The provider's base URL (`http://127.0.0.1:4416`), already validated. */
  url: URL;
  /** The fetch to reach it (default: the global fetch; never a YouTube proxy). */
  fetch?: FetchLike;
  clock: Clock;
  logger: Logger;
  /** Bound on one call in ms (default {@link POT_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** How long the provider is skipped after a failure in ms (default {@link POT_DOWN_MS}). */
  downMs?: number;
  /** Tokens cached at most (default {@link POT_CACHE_ENTRIES}). */
  maxEntries?: number;
}

/**
 * The URL of `TUBESCRIBE_POT_PROVIDER` (`youtube.potProvider`): http or https, checked like the
 * other URL settings; the message never echoes the value.
 */
export function potProviderUrl(value: string, variable = 'TUBESCRIBE_POT_PROVIDER'): URL {
  return settingUrl(variable, value, ['http:', 'https:'], 'http(s):// URL of a bgutil PO-token provider');
}

/** `url` with `pot=<token>&potc=1&c=<client>` (any earlier `pot`, `potc` and `c` replaced). */
export function withPoToken(url: string, token: string, client: string): string {
  const q = url.indexOf('?');
  const base = q < 0 ? url : url.slice(0, q);
  const kept = (q < 0 ? [] : url.slice(q + 1).split('&')).filter((pair) => {
    const key = pair.split('=', 1)[0];
    return pair !== '' && key !== 'pot' && key !== 'potc' && key !== 'c';
  });
  kept.push(`pot=${encodeURIComponent(token)}`, 'potc=1', `c=${encodeURIComponent(client)}`);
  return `${base}?${kept.join('&')}`;
}

/** A bgutil PO-token provider over HTTP. */
export class PoTokenProvider {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly flights = new Flights<string | undefined>();
  private readonly base: string;
  private readonly authorization: string | undefined;
  private downUntil = 0;
  /** Calls made to `/get_pot` (figures for tests). */
  calls = 0;

  constructor(private readonly options: PoTokenProviderOptions) {
    const u = new URL(options.url.href);
    this.authorization =
      u.username !== '' || u.password !== ''
        ? `Basic ${btoa(`${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`)}`
        : undefined;
    u.username = '';
    u.password = '';
    u.search = '';
    u.hash = '';
    this.base = u.href.replace(/\/+$/, '');
  }

  /**
   * A token bound to `contentBinding` (a video id), or undefined when the provider cannot give
   * one now (down, slow, refusing, or answering nonsense). Never throws, except the caller's
   * own abort.
   */
  async token(contentBinding: string, signal?: AbortSignal): Promise<string | undefined> {
    const now = this.options.clock.now();
    const cached = this.tokens.get(contentBinding);
    if (cached && cached.expiresAt > now) return cached.token;
    if (cached) this.tokens.delete(contentBinding);
    if (now < this.downUntil) return undefined;
    return this.flights.run(contentBinding, signal, (shared) => this.mint(contentBinding, shared));
  }

  /** The provider's version from `GET /ping`, or undefined when it does not answer. Never throws. */
  async ping(signal?: AbortSignal): Promise<string | undefined> {
    try {
      const answer = await this.send('GET', '/ping', undefined, signal);
      if (answer.status !== 200) return undefined;
      const version = (answer.json as { version?: unknown } | undefined)?.version;
      return typeof version === 'string' ? version : '';
    } catch {
      return undefined;
    }
  }

  private async mint(contentBinding: string, signal: AbortSignal): Promise<string | undefined> {
    this.calls++;
    let status = 0;
    try {
      const answer = await this.send('POST', '/get_pot', { content_binding: contentBinding }, signal);
      status = answer.status;
      const body = answer.json as { poToken?: unknown; po_token?: unknown; expiresAt?: unknown } | undefined;
      const token = body?.poToken ?? body?.po_token;
      if (status !== 200 || typeof token !== 'string' || token === '')
        throw new Error('no token in the answer');
      this.keep(contentBinding, token, body?.expiresAt);
      if (this.downUntil !== 0) this.options.logger.log('info', 'PO-token provider answers again');
      this.downUntil = 0;
      return token;
    } catch (error) {
      if (signal.aborted && !isTimeout(error)) throw error;
      this.downUntil = this.options.clock.now() + (this.options.downMs ?? POT_DOWN_MS);
      this.options.logger.log('warn', 'PO-token provider failed; WEB captions stay gated for now', {
        status,
        error: isTimeout(error) ? 'timeout' : error instanceof Error ? error.message : String(error),
        retryInMs: this.options.downMs ?? POT_DOWN_MS,
      });
      return undefined;
    }
  }

  /** Caches a token until the provider's `expiresAt` (minus a margin); none reported: not kept. */
  private keep(contentBinding: string, token: string, expiresAt: unknown): void {
    const until = (typeof expiresAt === 'string' ? Date.parse(expiresAt) : Number.NaN) - EXPIRY_MARGIN_MS;
    if (!Number.isFinite(until) || until <= this.options.clock.now()) return;
    const max = this.options.maxEntries ?? POT_CACHE_ENTRIES;
    this.tokens.delete(contentBinding);
    while (this.tokens.size >= max) {
      const oldest = this.tokens.keys().next().value;
      if (oldest === undefined) break;
      this.tokens.delete(oldest);
    }
    this.tokens.set(contentBinding, { token, expiresAt: until });
  }

  /** One provider call, bounded by the timeout and the caller's signal; the answer's JSON. */
  private async send(
    method: 'GET' | 'POST',
    path: string,
    body: Record<string, unknown> | undefined,
    signal: AbortSignal | undefined,
  ): Promise<{ status: number; json: unknown }> {
    const timeoutMs = this.options.timeoutMs ?? POT_TIMEOUT_MS;
    const controller = new AbortController();
    const onAbort = () => controller.abort(signal?.reason);
    const timer = setTimeout(() => controller.abort(new PotTimeout(timeoutMs)), timeoutMs);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const headers: Record<string, string> = { Accept: 'application/json' };
      if (body) headers['Content-Type'] = 'application/json';
      if (this.authorization) headers.Authorization = this.authorization;
      const init: RequestInit = { method, headers, redirect: 'manual', signal: controller.signal };
      if (body) init.body = JSON.stringify(body);
      const fetcher = this.options.fetch ?? ((input, i) => fetch(input, i));
      const response = await fetcher(`${this.base}${path}`, init);
      const text = await readCapped(response, MAX_ANSWER_BYTES).catch((error: unknown) => {
        if (controller.signal.aborted) throw error;
        throw new Error('the answer is too large or unreadable');
      });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      return { status: response.status, json };
    } catch (error) {
      throw controller.signal.aborted ? controller.signal.reason : error;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** The provider took longer than its timeout. */
class PotTimeout extends Error {
  override name = 'PotTimeout';
  constructor(ms: number) {
    super(`the PO-token provider took longer than ${ms} ms`);
  }
}

function isTimeout(error: unknown): boolean {
  return error instanceof PotTimeout;
}
