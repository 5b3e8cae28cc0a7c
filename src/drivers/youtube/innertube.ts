/**
 * InnerTube calls: the request context and the headers of a client profile, visitorData obtained
 * once per client and reused until it expires, and JSON answers (a body that is not JSON is a
 * ParseError, so it becomes `upstream_error`, never "no data"). The Transport only sends.
 * @module
 */

import { Flights } from '../../core/flights.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
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
}

/** A JSON answer with its status (4xx answers carry InnerTube's error object). */
export interface JsonAnswer {
  status: number;
  json: unknown;
}

/** Talks InnerTube over a {@link Transport}. */
export class InnerTube {
  private readonly visitors = new Map<string, { value: string; expiresAt: number }>();
  private readonly pendingVisitors = new Flights<string | undefined>();

  constructor(
    readonly transport: Transport,
    private readonly clock: Clock,
    private readonly logger: Logger,
    /** How long a visitorData is reused. Default 6 hours. */
    private readonly visitorTtlMs: number = 6 * 3_600_000,
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
    const answer = await this.transport.request('POST', url, headers, payload, o.signal);
    return { status: answer.status, json: parseJson(answer.text, endpoint) };
  }

  /** The visitorData of a client: fetched once (`visitor_id`), then reused until it expires. */
  async visitorData(profile: ClientProfile, signal?: AbortSignal): Promise<string | undefined> {
    const cached = this.visitors.get(profile.name);
    if (cached && cached.expiresAt > this.clock.now()) return cached.value;
    return this.pendingVisitors.run(profile.name, signal, (shared) => this.fetchVisitor(profile, shared));
  }

  private async fetchVisitor(profile: ClientProfile, signal?: AbortSignal): Promise<string | undefined> {
    try {
      const answer = await this.call(
        profile,
        'visitor_id',
        {},
        { visitor: false, ...(signal ? { signal } : {}) },
      );
      const value = str(at(answer.json, 'responseContext', 'visitorData'));
      if (answer.status === 200 && value) {
        this.visitors.set(profile.name, { value, expiresAt: this.clock.now() + this.visitorTtlMs });
        return value;
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      this.logger.log('warn', 'visitor_id failed; continuing without visitorData', {
        client: profile.name,
        error: String(error),
      });
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

/** Parses a JSON body; anything else is a ParseError naming the endpoint. */
export function parseJson(text: string, endpoint: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ParseError(`${endpoint}: body is not JSON`);
  }
}
