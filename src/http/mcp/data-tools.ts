/**
 * The MCP tools besides `get_transcript`: each calls the same service method and is priced as the
 * same operation as its REST route (`routes/*.ts`). `video`, `channel` and `playlist` take what
 * REST takes (IDs, handles, URLs), parsed with the same `core/ids.ts` functions.
 * @module
 */
import type { CallToolResult, McpServer, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import * as v from 'valibot';
import { parseChannel, parsePlaylistId, parseVideoId } from '../../core/ids.ts';
import type { Operation } from '../../core/pricing.ts';
import type { SearchFilters } from '../../ports/upstream.ts';
import type { Scope } from '../../services/accounts.ts';
import type { CallContext } from '../../services/context.ts';
import type { Services } from '../../services/index.ts';
import { type CallerInfo, runTool, type ToolOutput } from './call.ts';
import { toolSchema } from './schema.ts';

const ref = (what: string) => v.pipe(v.string(), v.minLength(1), v.maxLength(2048), v.description(what));
const VIDEO = 'A video ID or any YouTube video URL';
const CHANNEL = 'A channel ID (UC…), an @handle or a channel URL';
const cursor = v.optional(
  v.pipe(v.string(), v.maxLength(8192), v.description('next_cursor of the previous page')),
);
const videoInput = v.object({ video: ref(VIDEO) });
const channelInput = v.object({ channel: ref(CHANNEL) });

const searchInput = v.object({
  query: v.pipe(v.string(), v.minLength(1), v.maxLength(500), v.description('What to search for')),
  type: v.optional(v.picklist(['video', 'channel', 'playlist', 'movie', 'shorts'])),
  upload_date: v.optional(v.picklist(['hour', 'today', 'week', 'month', 'year'])),
  duration: v.optional(
    v.pipe(
      v.picklist(['short', 'medium', 'long']),
      v.description('short < 3 min, medium 3–20 min, long > 20 min'),
    ),
  ),
  sort_by: v.optional(v.picklist(['relevance', 'rating', 'upload_date', 'view_count', 'date'])),
  limit: v.optional(
    v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(50), v.description('1–50, default 20')),
  ),
  cursor,
});

const commentsInput = v.object({
  video: ref(VIDEO),
  sort_by: v.optional(v.picklist(['top', 'newest'])),
  cursor,
});

const playlistInput = v.object({
  playlist: ref('A playlist ID (PL…, UU…, OLAK5uy_…) or a playlist URL'),
  cursor,
});

/** A loose output schema naming the fields every result has. */
const output = (fields: Record<string, v.GenericSchema>) => toolSchema(v.looseObject(fields));
const pageFields = { has_more: v.boolean(), next_cursor: v.nullable(v.string()) };

/** The JSON Schema-carrying input and output schemas of a tool. */
type Schema = StandardSchemaWithJSON;

/** A data tool: its wire description, scope, price and the service call. */
interface DataTool<A> {
  name: string;
  title: string;
  description: string;
  input: Schema;
  /** The valibot schema behind `input` (the endpoint checks arguments with it first). */
  args: v.GenericSchema;
  output: Schema;
  scope: Scope;
  operation: Operation;
  work(args: A, ctx: ToolCtx): Promise<ToolOutput>;
}

/** What a tool's work uses. */
interface ToolCtx {
  services: Services;
  call: CallContext;
}

const tool = <S extends v.GenericSchema>(
  schema: S,
  spec: Omit<DataTool<v.InferOutput<S>>, 'input' | 'args'>,
): DataTool<v.InferOutput<S>> => ({ ...spec, input: toolSchema(schema), args: schema });

const videoInfo = (name: string, title: string) =>
  tool(videoInput, {
    name,
    title,
    description: `${title}: the full metadata record of a video (title, channel, duration, views, likes, publish date, chapters, caption languages…). 1 credit.`,
    output: output({ video_id: v.string() }),
    scope: 'data:read',
    operation: 'video_info',
    work: async (args, c) => {
      const { record, cache } = await c.services.videos.info(parseVideoId(args.video), 'full', c.call);
      return { data: record as unknown as Record<string, unknown>, cache };
    },
  });

const TOOLS = [
  tool(videoInput, {
    name: 'list_transcript_languages',
    title: 'List transcript languages',
    description:
      'The caption tracks of a video: language codes, names and kind (asr = automatic, manual). Free.',
    output: output({ video_id: v.string(), languages: v.array(v.unknown()) }),
    scope: 'transcripts:read',
    operation: 'transcript_languages',
    work: async (args, c) => ({
      data: await c.services.transcripts.languages(parseVideoId(args.video), c.call),
    }),
  }),
  videoInfo('get_video_metadata', 'Get video metadata'),
  videoInfo('get_video_info', 'Get video info (alias of get_video_metadata)'),
  tool(searchInput, {
    name: 'search_youtube',
    title: 'Search YouTube',
    description:
      'Search videos, channels, playlists, movies or shorts; 1 credit per page. sort_by upload_date (alias date) orders each page by date; rating falls back to relevance.',
    output: output({ query: v.string(), results: v.array(v.unknown()), ...pageFields }),
    scope: 'data:read',
    operation: 'search_page',
    work: async (args, c) => {
      const filters: SearchFilters = {
        type: args.type ?? 'video',
        sortBy: args.sort_by === 'date' ? 'upload_date' : (args.sort_by ?? 'relevance'),
      };
      if (args.upload_date) filters.uploadDate = args.upload_date;
      if (args.duration) filters.duration = args.duration;
      const limit = args.limit ?? 20;
      const options = args.cursor === undefined ? { limit } : { limit, cursor: args.cursor };
      const { record, cache } = await c.services.search.search(args.query, filters, options, c.call);
      return { data: record as unknown as Record<string, unknown>, cache };
    },
  }),
  tool(channelInput, {
    name: 'list_latest_videos',
    title: 'List the latest videos of a channel',
    description: "A channel's newest uploads (up to 15, newest first). 1 credit.",
    output: output({ channel_id: v.string(), videos: v.array(v.unknown()) }),
    scope: 'data:read',
    operation: 'channel_latest',
    work: async (args, c) => c.services.channels.latest(parseChannel(args.channel), c.call).then(asOutput),
  }),
  tool(channelInput, {
    name: 'get_channel',
    title: 'Get a channel',
    description: 'A channel profile: title, handle, description, subscribers, counts, links. 1 credit.',
    output: output({ channel_id: v.string() }),
    scope: 'data:read',
    operation: 'channel',
    work: async (args, c) => c.services.channels.profile(parseChannel(args.channel), c.call).then(asOutput),
  }),
  tool(playlistInput, {
    name: 'get_playlist',
    title: 'Get a playlist page',
    description:
      'A page of a playlist: details on the first page, then videos; pass next_cursor for the next page. 1 credit per page.',
    output: output({ playlist_id: v.string(), videos: v.array(v.unknown()), ...pageFields }),
    scope: 'data:read',
    operation: 'playlist_page',
    work: async (args, c) => {
      const options = args.cursor === undefined ? {} : { cursor: args.cursor };
      return c.services.playlists.page(parsePlaylistId(args.playlist), options, c.call).then(asOutput);
    },
  }),
  tool(commentsInput, {
    name: 'get_comments',
    title: 'Get video comments',
    description:
      "A page of a video's comments (sort_by top or newest); pass next_cursor for the next page, or a comment's replies_cursor as cursor for its replies. 1 credit per page.",
    output: output({ video_id: v.string(), comments: v.array(v.unknown()), ...pageFields }),
    scope: 'data:read',
    operation: 'comments_page',
    work: async (args, c) => {
      const query =
        args.cursor === undefined
          ? { sort: args.sort_by ?? 'top' }
          : { sort: args.sort_by ?? 'top', cursor: args.cursor };
      return c.services.comments.page(parseVideoId(args.video), query, c.call).then(asOutput);
    },
  }),
];

/** The argument schema of each data tool, by name. */
export const DATA_TOOL_ARGS: ReadonlyMap<string, v.GenericSchema> = new Map(
  (TOOLS as DataTool<unknown>[]).map((t) => [t.name, t.args]),
);

/** A service answer as a tool output. */
function asOutput(answer: { record: object; cache: ToolOutput['cache'] }): ToolOutput {
  const out: ToolOutput = { data: answer.record as Record<string, unknown> };
  if (answer.cache !== undefined) out.cache = answer.cache;
  return out;
}

/** Registers every data tool (or only the one called `only`) on `server`, for `caller`. */
export function registerDataTools(
  server: McpServer,
  services: Services,
  caller: CallerInfo,
  only?: string,
): void {
  for (const t of TOOLS as DataTool<unknown>[]) {
    if (only !== undefined && t.name !== only) continue;
    server.registerTool(
      t.name,
      {
        title: t.title,
        description: t.description,
        inputSchema: t.input,
        outputSchema: t.output,
        annotations: { readOnlyHint: true, openWorldHint: true },
      },
      (args: unknown): Promise<CallToolResult> =>
        runTool(services, caller, t.scope, { operation: t.operation }, () =>
          t.work(args, { services, call: caller.call }),
        ),
    );
  }
}
