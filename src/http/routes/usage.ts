/**
 * GET /v1/usage?days=N (free, any key; decisions.md): the calling key's account's use per UTC day,
 * oldest first, days without use included with zeros.
 * @module
 */
import * as v from 'valibot';
import { MAX_USAGE_DAYS } from '../../core/usage.ts';
import { parseUsageDays } from '../../services/usage.ts';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import type { AnySchema } from '../validate.ts';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** One day of `GET /v1/usage`. */
const usageDaySchema = v.strictObject({
  date: v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/)),
  requests: count,
  credits: count,
  by_operation: v.record(v.string(), count),
});

/** `GET /v1/usage`'s body. */
export const usageSchema: AnySchema = v.strictObject({
  account_id: v.string(),
  days: v.pipe(v.array(usageDaySchema), v.minLength(1), v.maxLength(MAX_USAGE_DAYS)),
}) as AnySchema;

const usageQuery = v.object({
  days: v.optional(
    v.pipe(v.string(), v.metadata({ description: `Days to report, 1–${MAX_USAGE_DAYS} (default 30)` })),
  ),
});

/** `GET /v1/usage`. */
export function usageRoutes({ services }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/usage',
      tags: ['Account'],
      summary: "The calling key's account's use per UTC day (free)",
      description:
        '`days` (1–90, default 30) UTC days ending today, oldest first; days without use are included ' +
        'with zeros. Each day counts charged requests, the credits they cost, and requests per operation.',
      auth: 'key',
      query: usageQuery,
      operations: ['account'],
      operation: () => 'account',
      response: {
        description: '{account_id, days:[{date, requests, credits, by_operation}]}',
        schema: usageSchema,
      },
      errors: [400],
      handle: async (input, ctx) => ({
        json: await services.usage.report(ctx.principal!.accountId, parseUsageDays(input.query.days)),
      }),
    }),
  ];
}
