/**
 * InnerTube calls: the request context and the headers of a client profile, visitorData obtained
 * once per client and reused until it expires, and JSON answers (a body that is not JSON is a
 * ParseError, so it becomes `upstream_error`, never "no data"). The Transport only sends.
 *
 * visitorData is fetched lazily by the first call that needs it, unless {@link InnerTube.keepFresh}
 * was called (at the app's start-up): then the clients' visitorData is fetched at once and
 * refreshed in the background before it expires, so requests find it ready. The refresh timers
 * are `unref`'d where the runtime has that (they never keep a process alive) and stopped by
 * {@link InnerTube.stop}; a failed refresh is retried with a growing delay and, once the value
 * has expired, the request path fetches it lazily again.
 * @module
 */

import { Flights } from '../../core/flights.ts';
import { isApiError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { UpstreamObserver, UpstreamOutcome } from '../../ports/upstream.ts';
import { at, ParseError, str } from './json.ts';
import type { ClientProfile } from './profiles.ts';
import type { Transport } from './transport.ts';

/** Options of one InnerTube call. */
export interface CallOptions {
  signal?: AbortSignal;
  hl?: string;
  gl?: string;
  /** Extra query parameters (`$fields`, `t`, `id`). */
  query?: Record<string, string>;
  /** Send the client's visitorData (default true for mobile clients). */
  visitor?: boolean;
  /** Path instead of `/youtubei/v1/<endpoint>`. */
  path?: string;
  /** Extra `context.client` fields of this call (WEB browse/search: `originalUrl`, as NewPipe sends). */
  client?: Record<string, string>;
  /**
   * `false`: the caller tells the observer how an answer went, once it has read it (the player
   * call: a bot check or PO-gated tracks hide in a 200). Failures are told here either way.
   */
  observeAnswer?: false;
}

/** A JSON answer with its status (4xx answers carry InnerTube's error object). */
export interface JsonAnswer {
  status: number;
  json: unknown;
}

/** A refresh is due after this share of a visitorData's lifetime. */
const REFRESH_AT = 0.8;
/** First retry delay of a failed background refresh, in ms (doubling, at most {@link RETRY_MAX_MS}). */
const RETRY_MIN_MS = 60_000;
const RETRY_MAX_MS = 30 * 60_000;
/** setTimeout's longest delay. */
const MAX_TIMER_MS = 2_147_483_647;
/**
 * Bound on one `visitor_id` call, in ms: a call that hangs ends as "no visitorData" (requests go
 * on without one), so a hung warm-up never holds the requests that share it.
 */
export const VISITOR_TIMEOUT_MS = 5000;

/** Talks InnerTube over a {@link Transport}. */
export class InnerTube {
  private readonly visitors = new Map<string, { value: string; expiresAt: number }>();
  private readonly pendingVisitors = new Flights<string | undefined>();
  /** Background refresh: on between {@link keepFresh} and {@link stop}. */
  private background: AbortController | undefined;
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly retries = new Map<string, number>();

  constructor(
    readonly transport: Transport,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** How long a visitorData is reused. Default 6 hours. */
    private readonly visitorTtlMs: number = 6 * 3_600_000,
    /** Told of every request's outcome (the operator's metrics). */
    readonly observe: UpstreamObserver = () => {},
  ) {}

  /** The `context` object of a request. */
  context(profile: ClientProfile, hl: string, gl: string, visitorData?: string): Record<string, unknown> {
    const client: Record<string, unknown> = {
      clientName: profile.name,
      clientVersion: profile.version,
      ...profile.context,
      hl,
      gl,
      utcOffsetMinutes: 0,
    };
    if (visitorData) client.visitorData = visitorData;
    return {
      client,
      request: { internalExperimentFlags: [], useSsl: true },
      user: { lockedSafetyMode: false },
    };
  }

  /** POSTs `body` (plus the context) to `endpoint` with `profile`. */
  async call(
    profile: ClientProfile,
    endpoint: string,
    body: Record<string, unknown>,
    o: CallOptions = {},
  ): Promise<JsonAnswer> {
    const hl = o.hl ?? this.transport.hl;
    const gl = o.gl ?? this.transport.gl;
    const visitorData = (o.visitor ?? !profile.web) ? await this.visitorData(profile, o.signal) : undefined;
    const query = new URLSearchParams({ prettyPrint: 'false', ...o.query });
    const url = `${this.transport.url(profile.host, o.path ?? `/youtubei/v1/${endpoint}`)}?${query
      .toString()
      .replace(/%24fields/g, '$fields')
      .replace(/%2C/g, ',')}`;
    const context = this.context(profile, hl, gl, visitorData);
    if (o.client) Object.assign(context.client as Record<string, unknown>, o.client);
    const payload = JSON.stringify({ context, ...body });
    const headers = innertubeHeaders(profile, hl, visitorData);
    let answer: JsonAnswer;
    try {
      const raw = await this.transport.request('POST', url, headers, payload, o.signal);
      answer = { status: raw.status, json: parseJson(raw.text, endpoint) };
    } catch (error) {
      const outcome = failureOutcome(error, o.signal);
      if (outcome) this.observe(profile.name, endpoint, outcome);
      throw error;
    }
    if (o.observeAnswer !== false)
      this.observe(profile.name, endpoint, answer.status === 200 ? 'ok' : 'error');
    return answer;
  }

  /** The visitorData of a client: fetched once (`visitor_id`), then reused until it expires. */
  async visitorData(profile: ClientProfile, signal?: AbortSignal): Promise<string | undefined> {
    const cached = this.visitors.get(profile.name);
    if (cached && cached.expiresAt > this.clock.now()) return cached.value;
    return this.pendingVisitors.run(profile.name, signal, (shared) => this.fetchVisitor(profile, shared));
  }

  /**
   * Fetches the visitorData of `profiles` now and keeps it fresh in the background until
   * {@link stop}. Resolves when the first fetches have settled, with the clients that got one;
   * never rejects (a client without visitorData is fetched lazily again by the request path).
   */
  async keepFresh(profiles: readonly ClientProfile[]): Promise<string[]> {
    this.background ??= new AbortController();
    const signal = this.background.signal;
    const got = await Promise.all(
      profiles.map(async (profile) => {
        const cached = this.visitors.get(profile.name);
        const left = cached ? cached.expiresAt - this.clock.now() : 0;
        if (left > 0) {
          this.schedule(profile, left - this.visitorTtlMs * (1 - REFRESH_AT));
          return [profile.name];
        }
        const value = await this.pendingVisitors
          .run(profile.name, signal, (shared) => this.fetchVisitor(profile, shared))
          .catch(() => undefined);
        // Failed at start-up: retried in the background like a failed refresh.
        if (value === undefined) this.schedule(profile, this.retryDelay(profile.name));
        return value === undefined ? [] : [profile.name];
      }),
    );
    return got.flat();
  }

  /** Stops the background refresh (cached values stay usable until they expire). */
  stop(): void {
    this.background?.abort(new Error('stopped'));
    this.background = undefined;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.retries.clear();
  }

  /** Schedules a background refresh of `profile`'s visitorData in `delayMs`. */
  private schedule(profile: ClientProfile, delayMs: number): void {
    const background = this.background;
    if (!background) return;
    clearTimeout(this.timers.get(profile.name));
    const timer = setTimeout(
      () => {
        this.timers.delete(profile.name);
        if (background.signal.aborted) return;
        this.pendingVisitors
          .run(profile.name, background.signal, (shared) => this.fetchVisitor(profile, shared))
          .then(
            (value) => {
              if (value === undefined) this.schedule(profile, this.retryDelay(profile.name));
            },
            () => {},
          );
      },
      Math.min(Math.max(0, delayMs), MAX_TIMER_MS),
    );
    (timer as { unref?: () => void }).unref?.();
    this.timers.set(profile.name, timer);
  }

  /** The delay before the next retry of a client whose visitorData could not be fetched. */
  private retryDelay(name: string): number {
    const n = this.retries.get(name) ?? 0;
    this.retries.set(name, n + 1);
    return Math.min(RETRY_MIN_MS * 2 ** n, RETRY_MAX_MS);
  }

  /**
   * One `visitor_id` call, bounded by {@link VISITOR_TIMEOUT_MS}. Any failure (the timeout
   * included) is "no visitorData", logged at warn; only `shared` aborting (every caller gone)
   * rejects.
   */
  private async fetchVisitor(profile: ClientProfile, shared?: AbortSignal): Promise<string | undefined> {
    const controller = new AbortController();
    const onAbort = () => controller.abort(shared?.reason);
    if (shared?.aborted) onAbort();
    else shared?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () => controller.abort(new Error(`visitor_id took longer than ${VISITOR_TIMEOUT_MS} ms`)),
      VISITOR_TIMEOUT_MS,
    );
    (timer as { unref?: () => void }).unref?.();
    try {
      const answer = await this.call(
        profile,
        'visitor_id',
        {},
        { visitor: false, signal: controller.signal },
      );
      const value = str(at(answer.json, 'responseContext', 'visitorData'));
      if (answer.status === 200 && value) {
        this.visitors.set(profile.name, { value, expiresAt: this.clock.now() + this.visitorTtlMs });
        this.retries.delete(profile.name);
        this.schedule(profile, this.visitorTtlMs * REFRESH_AT);
        return value;
      }
    } catch (error) {
      if (shared?.aborted) throw error;
      this.logger.log('warn', 'visitor_id failed; continuing without visitorData', {
        client: profile.name,
        error: controller.signal.aborted ? String(controller.signal.reason) : String(error),
      });
    } finally {
      clearTimeout(timer);
      shared?.removeEventListener('abort', onAbort);
    }
    return undefined;
  }
}

/**
 * Headers of an InnerTube call with `profile`: JSON, the language, the client's user agent; WEB
 * clients add the browser's Origin, Referer, consent cookie and `X-YouTube-Client-*`, the others
 * `X-Goog-Api-Format-Version`; `X-Goog-Visitor-Id` when a visitorData is sent.
 */
export function innertubeHeaders(
  profile: ClientProfile,
  hl: string,
  visitorData?: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Accept-Language': `${hl}, en;q=0.9`,
  };
  if (profile.userAgent) headers['User-Agent'] = profile.userAgent;
  if (profile.web) {
    headers.Origin = 'https://www.youtube.com';
    headers.Referer = 'https://www.youtube.com/';
    headers.Cookie = 'SOCS=CAE=';
    headers['X-YouTube-Client-Name'] = String(profile.id);
    headers['X-YouTube-Client-Version'] = profile.version;
  } else {
    headers['X-Goog-Api-Format-Version'] = '2';
  }
  if (visitorData) headers['X-Goog-Visitor-Id'] = visitorData;
  return headers;
}

/**
 * The outcome of a request that threw: `timeout` once `signal` aborted, `blocked` for a bot check
 * or a 429, else `error`; undefined when nothing was sent (the gate was full).
 */
export function failureOutcome(error: unknown, signal: AbortSignal | undefined): UpstreamOutcome | undefined {
  if (signal?.aborted) return 'timeout';
  if (isApiError(error, 'upstream_busy')) return undefined;
  return isApiError(error, 'upstream_blocked') ? 'blocked' : 'error';
}

/** Parses a JSON body; anything else is a ParseError naming the endpoint. */
export function parseJson(text: string, endpoint: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ParseError(`${endpoint}: body is not JSON`);
  }
}
