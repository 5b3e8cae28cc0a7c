/**
 * Channel routes: profile, latest uploads, videos (sorted), streams, shorts and playlists.
 * `{id}` is a `UC…` ID, an `@handle`, or a percent-encoded channel URL.
 * @module
 */
import * as v from 'valibot';
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import { channel, cursorOf, localeOf, localeQuery, pageQuery } from '../schemas.ts';
import {
  channelLatestSchema,
  channelPlaylistPageSchema,
  channelProfileSchema,
  channelVideoPageSchema,
} from '../schemas-lists.ts';
import { oneOf } from '../validate.ts';

const params = v.object({ id: channel });
const errors = [400, 404, 502, 503, 504];
const sortBy = v.optional(
  oneOf(['newest', 'popular', 'oldest'] as const, { latest: 'newest', date: 'newest' }),
  'newest',
);

/** The channel routes. */
export function channelRoutes({ services }: RouteDeps): Route[] {
  const tab = (name: 'videos' | 'streams' | 'shorts', summary: string) =>
    defineRoute({
      method: 'get',
      path: `/v1/channels/{id}/${name}`,
      tags: ['Channels'],
      summary,
      auth: 'key',
      scope: 'data:read',
      params,
      query: v.object({ ...pageQuery, ...localeQuery, sort_by: sortBy }),
      operations: [
        name === 'videos'
          ? 'channel_videos_page'
          : name === 'streams'
            ? 'channel_streams_page'
            : 'channel_shorts_page',
      ],
      operation: () =>
        name === 'videos'
          ? 'channel_videos_page'
          : name === 'streams'
            ? 'channel_streams_page'
            : 'channel_shorts_page',
      response: {
        description: 'channel_id, channel_title, videos, has_more, next_cursor, continuation (alias)',
        schema: channelVideoPageSchema,
      },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.channels.videos(
          input.params.id,
          name,
          { sort: input.query.sort_by, ...cursorOf(input.query) },
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    });
  return [
    defineRoute({
      method: 'get',
      path: '/v1/channels/{id}',
      tags: ['Channels'],
      summary: 'The channel profile',
      auth: 'key',
      scope: 'data:read',
      params,
      query: v.object({ ...localeQuery }),
      operations: ['channel'],
      operation: () => 'channel',
      response: { description: 'The channel profile', schema: channelProfileSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.channels.profile(
          input.params.id,
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/v1/channels/{id}/latest',
      tags: ['Channels'],
      summary: 'The newest uploads (up to 15, newest first)',
      auth: 'key',
      scope: 'data:read',
      params,
      operations: ['channel_latest'],
      operation: () => 'channel_latest',
      response: { description: 'channel_id and videos', schema: channelLatestSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.channels.latest(input.params.id, ctx.call);
        return { json: record, cache };
      },
    }),
    tab('videos', 'A page of uploads, sorted newest, popular or oldest (1 credit per page)'),
    tab('streams', 'A page of the live tab: current and past streams (1 credit per page)'),
    tab('shorts', 'A page of shorts (1 credit per page)'),
    defineRoute({
      method: 'get',
      path: '/v1/channels/{id}/playlists',
      tags: ['Channels'],
      summary: "A page of the channel's playlists (1 credit per page)",
      auth: 'key',
      scope: 'data:read',
      params,
      query: v.object({ ...pageQuery, ...localeQuery }),
      operations: ['channel_playlists_page'],
      operation: () => 'channel_playlists_page',
      response: { description: 'playlists, has_more, next_cursor', schema: channelPlaylistPageSchema },
      errors,
      handle: async (input, ctx) => {
        const { record, cache } = await services.channels.playlists(
          input.params.id,
          cursorOf(input.query),
          ctx.call.localized(localeOf(input.query)),
        );
        return { json: record, cache };
      },
    }),
  ];
}
