/**
 * CORS (decisions.md "HTTP edges"): off unless origins are configured (`TUBESCRIBE_CORS_ORIGINS`,
 * a comma-separated list or `*`). Then a preflight from an allowed origin is answered 204 with the
 * methods and request headers the API takes, and every answer to an allowed origin carries
 * `Access-Control-Allow-Origin` and exposes the headers clients read (request id, rate limits,
 * credits, cache, `Retry-After`, `Location`). A request from any other origin gets no CORS header
 * at all (but `Vary: Origin`). Credentials (cookies) are never allowed: keys travel in headers.
 * @module
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './context.ts';
import { requestHeader } from './edge.ts';

/** The request headers a browser may send. */
export const CORS_ALLOW_HEADERS: readonly string[] = [
  'Authorization',
  'X-API-Key',
  'Content-Type',
  'Idempotency-Key',
  'X-Request-Id',
];

/** The answer headers a browser script may read. */
export const CORS_EXPOSE_HEADERS: readonly string[] = [
  'X-Request-Id',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Credits-To-Deduct',
  'X-Cache',
  'X-Cache-Tier',
  'X-Translated-From',
  'Retry-After',
  'Location',
];

/** The methods the API answers. */
const ALLOW_METHODS = 'GET, POST, DELETE';

/** How long a browser may cache a preflight answer (seconds). */
export const CORS_MAX_AGE = 600;

/** The CORS middleware over `origins`, or undefined when CORS is off. */
export function corsMiddleware(origins: readonly string[] | '*'): MiddlewareHandler<AppEnv> | undefined {
  if (origins !== '*' && origins.length === 0) return undefined;
  const allowed = origins === '*' ? () => true : (origin: string) => origins.includes(origin);
  const exposed = CORS_EXPOSE_HEADERS.join(', ');
  // With a list, every answer varies by origin: a cache in front must not hand a CORS-less answer
  // to an allowed origin, nor one origin's answer to another.
  const vary = origins !== '*';
  const varyOnly = { Vary: 'Origin' } as const;
  return async (c, next) => {
    const origin = requestHeader(c, 'origin');
    if (origin === undefined || !allowed(origin)) {
      if (vary) c.set('answerHeaders', varyOnly);
      return next();
    }
    const allowOrigin = origins === '*' ? '*' : origin;
    const preflight = c.req.method === 'OPTIONS' && c.req.header('access-control-request-method');
    if (preflight) {
      const headers: Record<string, string> = {
        'Access-Control-Allow-Origin': allowOrigin,
        'Access-Control-Allow-Methods': ALLOW_METHODS,
        'Access-Control-Allow-Headers': CORS_ALLOW_HEADERS.join(', '),
        'Access-Control-Max-Age': String(CORS_MAX_AGE),
      };
      if (vary) headers.Vary = 'Origin';
      return c.body(null, 204, headers);
    }
    const headers: Record<string, string> = {
      'Access-Control-Allow-Origin': allowOrigin,
      'Access-Control-Expose-Headers': exposed,
    };
    if (vary) headers.Vary = 'Origin';
    // A route's plain answer takes them into its record; tubescribe's first middleware (app.ts)
    // puts them on any other answer.
    c.set('answerHeaders', headers);
    return next();
  };
}
