/**
 * Video routes: basic-info (free), video-info (the full record), and the alternative's
 * GET /v1/videos/{id}?mode=fast|full.
 * @module
 */
import * as v from 'valibot';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import { localeOf, localeQuery, videoId } from '../schemas.ts';
import { basicInfoSchema, fullVideoSchema, videoRecordSchema } from '../schemas-videos.ts';
import { oneOf } from '../validate.ts';

const params = v.object({ id: videoId });
const locale = v.object({ ...localeQuery });
const modeQuery = v.object({ ...localeQuery, mode: v.optional(oneOf(['fast', 'full'] as const), 'fast') });
const errors = [400, 403, 404, 502, 503, 504];

/** The video routes. */
export function videoRoutes({ services }: RouteDeps): Route[] {
  return [
    defineRoute({
      method: 'get',
      path: '/v1/videos/{id}/basic-info',
      tags: ['Videos'],
      summary: 'Title, duration, channel and caption languages (free)',
      auth: 'key',
      scope: 'data:read',
      params,
      query: locale,
      operations: ['basic_info'],
      operation: () => 'basic_info',
      response: { description: 'The basic-info record', schema: basicInfoSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.videos.basicInfo(
          input.params.id,
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/videos/{id}/video-info',
      tags: ['Videos'],
      summary: 'Description, statistics, thumbnails, chapters, heatmap and more (the full record)',
      auth: 'key',
      scope: 'data:read',
      params,
      query: locale,
      operations: ['video_info'],
      operation: () => 'video_info',
      response: { description: 'The full video record', schema: fullVideoSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.videos.info(
          input.params.id,
          'full',
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/videos/{id}',
      tags: ['Videos'],
      summary: 'The fast (1 credit) or full (2 credits) video record',
      description:
        'Alternative lookup: `mode=fast` answers from the player data alone; `mode=full` adds the publish date, likes, chapters and heatmap. `country` is an alias of `gl`.',
      auth: 'key',
      scope: 'data:read',
      params,
      query: modeQuery,
      operations: ['video_fast', 'video_full'],
      operation: (input) => (input.query.mode === 'full' ? 'video_full' : 'video_fast'),
      response: { description: 'The fast or full video record', schema: videoRecordSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.videos.info(
          input.params.id,
          input.query.mode,
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
  ];
}
