/**
 * Declarative routes. A route module lists {@link defineRoute} specs; each spec is mounted on the
 * Hono app with the same pipeline — authenticate, validate, admit (rate limits), charge (reserve →
 * work → commit or release), render — and feeds the OpenAPI document.
 * @module
 */
import type { Context, Hono } from 'hono';
import type * as v from 'valibot';
import { newId } from '../core/api-keys.ts';
import type { Operation } from '../core/pricing.ts';
import { rateLimitHeaders } from '../core/ratelimit.ts';
import { ApiError } from '../errors.ts';
import type { RateDecision } from '../ports/ledger.ts';
import { hasScope, type Principal, type Scope } from '../services/accounts.ts';
import type { CacheStatus } from '../services/cache.ts';
import { asApiError, type CallContext, deadlineSignal } from '../services/context.ts';
import { authenticate, authenticateAdmin } from './auth.ts';
import type { Runtime } from './runtime.ts';
import { type AnySchema, validate } from './validate.ts';

/** How a route authenticates. */
export type Auth = 'key' | 'admin' | 'none';

/** What a handler answers. */
export type Reply =
  | {
      json: unknown;
      status?: number;
      cache?: CacheStatus;
      headers?: Record<string, string>;
      /** Credits the handler charged itself (per-item charging, batches). */
      charged?: number;
    }
  | {
      text: string;
      contentType: string;
      status?: number;
      cache?: CacheStatus;
      headers?: Record<string, string>;
    }
  | { empty: true; status: 204 };

/** What a handler gets besides its validated input. */
export interface RouteContext {
  principal: Principal | undefined;
  call: CallContext;
  requestId: string;
  /** The public base URL (configured, else the request's origin). */
  baseUrl: string;
  c: Context;
}

type Out<S> = S extends AnySchema ? v.InferOutput<S> : undefined;

/** The validated input of a route. */
export interface RouteInput<P, Q, B> {
  params: Out<P>;
  query: Out<Q>;
  body: Out<B>;
}

/** A route's description, used for mounting and for the OpenAPI document. */
export interface RouteMeta {
  method: 'get' | 'post' | 'delete';
  /** OpenAPI-style path, `/v1/videos/{id}`. */
  path: string;
  tags: string[];
  summary: string;
  description?: string;
  auth: Auth;
  scope?: Scope;
  params?: AnySchema;
  query?: AnySchema;
  body?: AnySchema;
  /** The operations this route may be priced as (for the docs). */
  operations?: Operation[];
  response: { status: number; description: string; contentTypes: string[]; schema?: AnySchema };
  /** Error statuses the route can answer, besides the common ones. */
  errors: number[];
  /** The handler sets deadlines itself (batches: one per task); the call only ends with the client. */
  ownDeadline?: boolean;
}

/** The full spec of a route. */
export interface RouteSpec<
  P extends AnySchema | undefined,
  Q extends AnySchema | undefined,
  B extends AnySchema | undefined,
> extends Omit<RouteMeta, 'params' | 'query' | 'body' | 'response'> {
  params?: P;
  query?: Q;
  body?: B;
  response: { status?: number; description: string; contentTypes?: string[]; schema?: AnySchema };
  /** The priced operation of a call (for `auth: 'key'` routes). */
  operation?: (input: RouteInput<P, Q, B>) => Operation;
  handle(input: RouteInput<P, Q, B>, ctx: RouteContext): Promise<Reply>;
}

/** A mountable route. */
export interface Route {
  meta: RouteMeta;
  mount(app: Hono, rt: Runtime): void;
}

/** Query parameters as a record; a repeated parameter's values are joined with commas. */
function queryRecord(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(url).searchParams)
    out[key] = key in out ? `${out[key]},${value}` : value;
  return out;
}

/** The error of a body over `limit` bytes. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`);
}

/** Reads the body as UTF-8, refusing it as soon as it passes `limit` bytes. */
async function readText(c: Context, limit: number): Promise<string> {
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

async function readBody(c: Context, limit: number): Promise<unknown> {
  const text = await readText(c, limit);
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}

/** Headers describing a cache status. */
export function cacheHeaders(status: CacheStatus | undefined): Record<string, string> {
  if (status === undefined) return {};
  if (status === 'HIT') return { 'X-Cache': 'HIT', 'X-Cache-Tier': 'L1_MEMORY' };
  if (status === 'L2' || status === 'STALE') return { 'X-Cache': status, 'X-Cache-Tier': 'L2_PERSISTENT' };
  return { 'X-Cache': 'MISS' };
}

/** The public base URL of a request. */
export function baseUrlOf(rt: Runtime, c: Context): string {
  return rt.deps.publicUrl ?? new URL(c.req.url).origin;
}

/** Defines a route. */
export function defineRoute<
  P extends AnySchema | undefined = undefined,
  Q extends AnySchema | undefined = undefined,
  B extends AnySchema | undefined = undefined,
>(spec: RouteSpec<P, Q, B>): Route {
  const { params, query, body, operation: _op, handle: _h, ...rest } = spec;
  const meta: RouteMeta = {
    ...rest,
    ...(params ? { params } : {}),
    ...(query ? { query } : {}),
    ...(body ? { body } : {}),
    response: {
      status: spec.response.status ?? 200,
      description: spec.response.description,
      contentTypes: spec.response.contentTypes ?? ['application/json'],
      ...(spec.response.schema ? { schema: spec.response.schema } : {}),
    },
  };
  const honoPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
  return {
    meta,
    mount(app, rt) {
      app.on(spec.method.toUpperCase(), honoPath, async (c) => {
        const requestId = c.get('requestId' as never) as string;
        let principal: Principal | undefined;
        if (spec.auth === 'key') {
          principal = await authenticate(rt, c);
          if (spec.scope && !hasScope(principal.scopes, spec.scope)) {
            throw new ApiError('insufficient_scope', `This key lacks the ${spec.scope} scope.`);
          }
        } else if (spec.auth === 'admin') {
          const admin = await authenticateAdmin(rt, c);
          if (admin !== 'token') principal = admin;
        }
        const input = {
          params: spec.params ? validate(spec.params, c.req.param(), 'path') : undefined,
          query: spec.query ? validate(spec.query, queryRecord(c.req.url), 'query') : undefined,
          body: spec.body
            ? validate(spec.body, await readBody(c, rt.deps.limits.maxBodyBytes), 'body')
            : undefined,
        } as RouteInput<P, Q, B>;
        const signal = spec.ownDeadline
          ? c.req.raw.signal
          : deadlineSignal(c.req.raw.signal, rt.deps.limits.deadlineMs);
        const ctx: RouteContext = { principal, call: { signal }, requestId, baseUrl: baseUrlOf(rt, c), c };

        let decision: RateDecision | undefined;
        let reply: Reply;
        let charged = 0;
        try {
          if (spec.auth === 'key' && principal) {
            decision = await rt.services.billing.admit(principal);
            const op = spec.operation?.(input) ?? 'account';
            const outcome = await rt.services.billing.charge(
              principal,
              op,
              requestId,
              () => spec.handle(input, ctx),
              (r) => ('cache' in r ? r.cache : undefined),
              signal,
            );
            reply = outcome.result;
            charged = outcome.charged;
          } else {
            reply = await spec.handle(input, ctx);
          }
        } catch (error) {
          const e = asApiError(error);
          if (decision && principal) {
            for (const [k, val] of Object.entries(rateLimitHeaders(decision, principal.plan.rules)))
              c.header(k, val);
          }
          throw e;
        }
        const headers: Record<string, string> = {};
        if (decision && principal) Object.assign(headers, rateLimitHeaders(decision, principal.plan.rules));
        if (spec.auth === 'key') {
          const own = 'json' in reply ? (reply.charged ?? 0) : 0;
          headers['X-Credits-To-Deduct'] = String(charged + own);
        }
        if ('empty' in reply) return c.body(null, 204, headers);
        Object.assign(headers, cacheHeaders(reply.cache), reply.headers);
        const status = (reply.status ?? 200) as 200;
        if ('text' in reply) {
          headers['Content-Type'] = reply.contentType;
          return c.body(reply.text, status, headers);
        }
        return c.json(reply.json, status, headers);
      });
    },
  };
}

/** A fresh request id. */
export function requestIdFor(rt: Runtime): string {
  return newId('req', rt.deps.random, 16);
}
