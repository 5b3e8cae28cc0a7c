/**
 * `GET /metrics`: the Prometheus text format, for a scraper holding the admin token or
 * `TUBESCRIBE_METRICS_TOKEN` as a Bearer token (decisions.md, Operator interface); anything else
 * is 401 with `WWW-Authenticate: Bearer`. With neither token configured, metrics are off (401).
 * @module
 */
import { constantTimeEquals } from '../../core/constant-time.ts';
import { ApiError } from '../../errors.ts';
import { bearerToken } from '../auth.ts';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';

/** The content type of the Prometheus text exposition format. */
export const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/** The metrics route. */
export function metricsRoutes({ services, settings }: RouteDeps): Route[] {
  const tokens = [settings.metricsToken, settings.adminToken].filter((t): t is string => !!t);
  return [
    defineRoute({
      method: 'get',
      path: '/metrics',
      tags: ['System'],
      summary: 'Prometheus metrics (Bearer: the admin token or TUBESCRIBE_METRICS_TOKEN)',
      auth: 'none',
      response: { description: 'The Prometheus text format (0.0.4)', contentTypes: ['text/plain'] },
      errors: [401],
      handle: async (_input, ctx) => {
        const presented = bearerToken(ctx.c.req.header('authorization'));
        if (presented === undefined || !tokens.some((t) => constantTimeEquals(presented, t))) {
          const challenge = { challenge: 'Bearer realm="metrics"' };
          throw presented === undefined
            ? new ApiError(
                'missing_api_key',
                'GET /metrics needs the admin token or the metrics token.',
                challenge,
              )
            : new ApiError('invalid_api_key', 'That token does not open /metrics.', challenge);
        }
        return { text: services.metrics.registry.render(), contentType: PROMETHEUS_TEXT };
      },
    }),
  ];
}
