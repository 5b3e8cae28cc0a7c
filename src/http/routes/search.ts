/**
 * Search routes: GET /v1/search (every filter, limit 1–50, cursors) and suggestions (free).
 * @module
 */
import * as v from 'valibot';
import type { SearchFilters } from '../../ports/upstream.ts';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import { localeOf, localeQuery, pageQuery } from '../schemas.ts';
import { searchSchema, suggestionsSchema } from '../schemas-lists.ts';
import { oneOf, queryInteger, text } from '../validate.ts';

const searchQuery = v.object({
  q: text(500, 'a search query'),
  type: v.optional(oneOf(['video', 'channel', 'playlist', 'movie', 'shorts'] as const), 'video'),
  upload_date: v.optional(oneOf(['hour', 'today', 'week', 'month', 'year'] as const)),
  duration: v.optional(oneOf(['short', 'medium', 'long'] as const)),
  sort_by: v.optional(
    oneOf(['relevance', 'rating', 'upload_date', 'view_count'] as const, { date: 'upload_date' }),
    'relevance',
  ),
  limit: v.optional(queryInteger(1, 50), '20'),
  ...pageQuery,
  ...localeQuery,
});

const suggestQuery = v.object({ q: text(200, 'a partial query'), ...localeQuery });

/** The search routes. */
export function searchRoutes({ services }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/search',
      tags: ['Search'],
      summary: 'Search videos, channels, playlists, movies or shorts (1 credit per page)',
      description:
        'YouTube dropped server-side sorting by upload date and by rating in 2026: `sort_by=upload_date` ' +
        '(alias `date`) orders each returned page by its relative dates, and `rating` falls back to ' +
        'relevance. `upload_date=hour` maps to `today`, the finest filter YouTube still offers. ' +
        '`duration` maps to the nearest filter YouTube offers: short = under 3 minutes, medium = ' +
        '3 to 20 minutes, long = over 20 minutes.',
      auth: 'key',
      scope: 'data:read',
      query: searchQuery,
      operations: ['search_page'],
      operation: () => 'search_page',
      response: {
        description: 'query, total_results (items in this response), results, has_more, next_cursor',
        schema: searchSchema,
      },
      errors: [400, 502, 503, 504],
      handle: async (input, ctx) => {
        const q = input.query;
        const filters: SearchFilters = { type: q.type, sortBy: q.sort_by };
        if (q.upload_date) filters.uploadDate = q.upload_date;
        if (q.duration) filters.duration = q.duration;
        const cursor = q.cursor ?? q.continuation;
        const { record, cache } = await services.search.search(
          q.q,
          filters,
          cursor === undefined ? { limit: q.limit } : { limit: q.limit, cursor },
          ctx.call.localized(localeOf(q)),
        );
        return { json: record, cache };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/search/suggestions',
      tags: ['Search'],
      summary: 'Autocomplete suggestions (free)',
      auth: 'key',
      scope: 'data:read',
      query: suggestQuery,
      operations: ['suggestions'],
      operation: () => 'suggestions',
      response: { description: 'query and suggestions, ranked', schema: suggestionsSchema },
      errors: [400, 502, 503, 504],
      handle: async (input, ctx) => {
        const { record, cache } = await services.search.suggestions(
          input.query.q,
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
  ];
}
