/**
 * The request log line: one `info` entry per request, as a JSON line, with what an operator needs
 * to read traffic and cost: `route` (the declared path, `/v1/videos/:id`, so lines group by route),
 * `path` (without the query string, which may carry a key or a sign-up token), `status`, `ms`,
 * `account` (the account id once a key was checked; never the key), `credits` (what the call
 * charged: `X-Credits-To-Deduct`; null for unpriced routes) and `cache` (`X-Cache`: HIT, L2,
 * STALE or MISS; null where nothing is cached).
 * @module
 */
import type { AppContext } from './context.ts';

/**
 * The fields of the request log line of a finished request; `route` is the pattern of the route
 * that answered (Hono's `routePath`).
 */
export function requestLogFields(
  c: AppContext,
  requestId: string,
  ms: number,
  route: string,
): Record<string, unknown> {
  return {
    id: requestId,
    method: c.req.method,
    route: route === '' || route === '*' || route === '/*' ? null : route,
    path: c.req.path,
    status: c.res.status,
    ms,
    account: c.get('accountId') ?? null,
    credits: c.get('charged') ?? null,
    cache: c.get('cacheStatus') ?? null,
  };
}
