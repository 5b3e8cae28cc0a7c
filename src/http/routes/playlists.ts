/**
 * Playlist routes: GET /v1/playlists/{id} (first page with details) and the alternative's
 * GET /v1/playlists/{id}/videos.
 * @module
 */
import * as v from 'valibot';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route, type RouteContext, type RouteInput } from '../route.ts';
import { cursorOf, localeOf, localeQuery, pageQuery, playlistId } from '../schemas.ts';
import { playlistPageSchema, playlistVideosSchema } from '../schemas-lists.ts';

const params = v.object({ id: playlistId });
const query = v.object({ ...pageQuery, ...localeQuery });
const errors = [400, 404, 502, 503, 504];

/** The playlist routes. */
export function playlistRoutes({ services }: RouteDeps): Route[] {
  /** One page of the playlist a request names (both routes answer from it). */
  const page = (input: RouteInput<typeof params, typeof query, undefined>, ctx: RouteContext) =>
    services.playlists.page(
      input.params.id,
      cursorOf(input.query),
      ctx.call.localized(localeOf(input.query)),
    );
  return [
    defineRoute({
      method: 'get',
      path: '/v1/playlists/{id}',
      tags: ['Playlists'],
      summary: 'A page of a playlist (1 credit per page)',
      description:
        '`id` is a playlist ID (`PL…`, `UU…`, `OLAK5uy_…`) or a percent-encoded playlist URL; mixes (`RD…`) are refused. The first page carries the playlist details; later pages (`cursor` = the previous `next_cursor`) carry videos only.',
      auth: 'key',
      scope: 'data:read',
      params,
      query,
      operations: ['playlist_page'],
      operation: () => 'playlist_page',
      response: { description: 'A playlist page', schema: playlistPageSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await page(input, ctx);
        return { json: record, cache };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/playlists/{id}/videos',
      tags: ['Playlists'],
      summary: "A page of a playlist's videos (1 credit per page)",
      auth: 'key',
      scope: 'data:read',
      params,
      query,
      operations: ['playlist_page'],
      operation: () => 'playlist_page',
      response: {
        description: 'playlist_id, title, videos, has_more, next_cursor (null when done)',
        schema: playlistVideosSchema,
      },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await page(input, ctx);
        const title = typeof record.title === 'string' ? record.title : null;
        return {
          json: {
            playlist_id: record.playlist_id,
            title,
            videos: record.videos,
            has_more: record.has_more,
            next_cursor: record.next_cursor,
          },
          cache,
        };
      },
    }),
  ];
}
