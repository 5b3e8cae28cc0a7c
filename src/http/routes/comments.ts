/**
 * Comment routes: GET /v1/videos/{id}/comments (1 credit per page), `sort_by` `top` (default) or
 * `newest`, and `cursor` (a page's `next_cursor`, or a comment's `replies_cursor` for its replies).
 * @module
 */
import * as v from 'valibot';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import { cursorOf, localeOf, localeQuery, pageQuery, videoId } from '../schemas.ts';
import { commentsPageSchema } from '../schemas-videos.ts';
import { oneOf } from '../validate.ts';

const params = v.object({ id: videoId });
const query = v.object({
  ...pageQuery,
  ...localeQuery,
  sort_by: v.optional(oneOf(['top', 'newest'] as const), 'top'),
});
const errors = [400, 403, 404, 502, 503, 504];

/** The comment routes. */
export function commentRoutes({ services }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/videos/{id}/comments',
      tags: ['Videos'],
      summary: "A page of a video's comments, or of a comment's replies (1 credit per page)",
      description:
        "`sort_by`: `top` (default) or `newest`. `cursor`: the previous page's `next_cursor` (with the same `sort_by`), or a comment's `replies_cursor` for a page of its replies (each with `parent_id`). A video whose comments are turned off answers 404 `comments_disabled`.",
      auth: 'key',
      scope: 'data:read',
      params,
      query,
      operations: ['comments_page'],
      operation: () => 'comments_page',
      response: { description: 'A page of comments', schema: commentsPageSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.comments.page(
          input.params.id,
          { sort: input.query.sort_by, ...cursorOf(input.query) },
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
  ];
}
