/**
 * Declarative routes. A route module lists {@link defineRoute} specs; each spec is mounted on the
 * Hono app with the same pipeline — authenticate, validate, admit (rate limits), charge (reserve →
 * work → commit or release), render — and feeds the OpenAPI document.
 * @module
 */
import type { Hono } from 'hono';
import type * as v from 'valibot';
import type { Operation } from '../core/pricing.ts';
import { rateLimitApiError, rateLimitHeaders } from '../core/ratelimit.ts';
import { ApiError } from '../errors.ts';
import { hasScope, type Principal, type Scope } from '../services/accounts.ts';
import type { CacheStatus } from '../services/cache.ts';
import { type CallContext, deadlineSignal } from '../services/context.ts';
import { type Auth, presentedKey } from './auth.ts';
import { queryRecord, readJsonBody } from './body.ts';
import type { AppContext, AppEnv, MountDeps } from './context.ts';
import { cacheHeaders } from './headers.ts';
import { type AnySchema, validate } from './validate.ts';

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
  /** The client's address (see `client.ts`). */
  address: string;
  c: AppContext;
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
  mount(app: Hono<AppEnv>, deps: MountDeps): void;
}

/** The caller of a route with `auth`: a key's principal, or none (the admin token, or no auth). */
async function callerOf(
  spec: { auth: Auth; scope?: Scope },
  c: AppContext,
  deps: MountDeps,
  address: string,
): Promise<Principal | undefined> {
  if (spec.auth === 'none') return undefined;
  const key = presentedKey(c);
  if (spec.auth === 'admin') {
    const admin = await deps.services.auth.authenticateAdmin(key, address);
    return admin === 'token' ? undefined : admin;
  }
  const principal = await deps.services.auth.authenticate(key, address);
  if (spec.scope && !hasScope(principal.scopes, spec.scope)) {
    throw new ApiError('insufficient_scope', `This key lacks the ${spec.scope} scope.`);
  }
  return principal;
}

/** The answer of a reply, with `headers` added. */
function respond(c: AppContext, reply: Reply, headers: Record<string, string>): Response {
  if ('empty' in reply) return c.body(null, 204, headers);
  Object.assign(headers, cacheHeaders(reply.cache), reply.headers);
  const status = (reply.status ?? 200) as 200;
  if ('text' in reply) {
    headers['Content-Type'] = reply.contentType;
    return c.body(reply.text, status, headers);
  }
  return c.json(reply.json, status, headers);
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
    mount(app, deps) {
      const { services, settings } = deps;
      const { limits } = settings;
      app.on(spec.method.toUpperCase(), honoPath, async (c) => {
        const requestId = c.get('requestId');
        const address = deps.address(c);
        const principal = await callerOf(spec, c, deps, address);
        const input = {
          params: spec.params ? validate(spec.params, c.req.param(), 'path') : undefined,
          query: spec.query ? validate(spec.query, queryRecord(c.req.url), 'query') : undefined,
          body: spec.body
            ? validate(spec.body, await readJsonBody(c, limits.maxBodyBytes), 'body')
            : undefined,
        } as RouteInput<P, Q, B>;
        const signal = spec.ownDeadline
          ? c.req.raw.signal
          : deadlineSignal(c.req.raw.signal, limits.deadlineMs);
        const baseUrl = settings.publicUrl ?? new URL(c.req.url).origin;
        const ctx: RouteContext = { principal, call: { signal }, requestId, baseUrl, address, c };
        if (spec.auth !== 'key' || !principal) return respond(c, await spec.handle(input, ctx), {});

        // Keyed: the rate-limit headers go on every answer from here on, the refusal included.
        const decision = await services.billing.admit(principal);
        const headers = rateLimitHeaders(decision, principal.plan.rules);
        let reply: Reply;
        let charged: number;
        try {
          if (!decision.allowed) throw rateLimitApiError(decision, principal.plan.rules);
          ({ result: reply, charged } = await services.billing.charge(
            principal,
            spec.operation?.(input) ?? 'account',
            requestId,
            () => spec.handle(input, ctx),
            (r) => ('cache' in r ? r.cache : undefined),
            signal,
          ));
        } catch (error) {
          for (const [name, value] of Object.entries(headers)) c.header(name, value);
          throw error;
        }
        const own = 'json' in reply ? (reply.charged ?? 0) : 0;
        headers['X-Credits-To-Deduct'] = String(charged + own);
        return respond(c, reply, headers);
      });
    },
  };
}
