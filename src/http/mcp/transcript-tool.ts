/**
 * The `get_transcript` tool: the transcript service (the same call as REST), rendered in an
 * agent-friendly format and paged under `max_chars` with signed cursors. The first page costs
 * what a REST transcript costs; later pages of the same transcript are free. A cursor is bound to
 * the account, the video and every option that shapes the pages, and carries the negotiated track,
 * so a tampered or foreign cursor is `invalid_cursor` before any work is done.
 * @module
 */
import type { CallToolResult, McpServer } from '@modelcontextprotocol/server';
import * as v from 'valibot';
import { parseVideoId } from '../../core/ids.ts';
import { TRACK_POLICIES, type TrackPolicy } from '../../core/tracks.ts';
import { ApiError } from '../../errors.ts';
import type { Services } from '../../services/index.ts';
import { type CallerInfo, type Charge, runTool } from './call.ts';
import { toolSchema } from './schema.ts';
import {
  isItemFormat,
  MCP_TRANSCRIPT_FORMATS,
  type PagePosition,
  pageOf,
  transcriptUnits,
} from './transcript-pages.ts';

/** `max_chars` when the call names none. */
export const DEFAULT_MAX_CHARS = 20_000;

const language = v.pipe(
  v.string(),
  v.regex(
    /^(\*|auto|[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*)$/,
    'expected language codes like en, en-GB, * or auto',
  ),
);

/** The arguments of `get_transcript`. */
const transcriptInput = v.object({
  video: v.pipe(
    v.string(),
    v.minLength(1),
    v.maxLength(2048),
    v.description('A video ID or any YouTube URL'),
  ),
  languages: v.optional(
    v.pipe(
      v.array(language),
      v.minLength(1),
      v.maxLength(20),
      v.description('Preferred languages in order; * (or auto) = the spoken language. Default ["*"]'),
    ),
  ),
  track_policy: v.optional(v.picklist(TRACK_POLICIES as TrackPolicy[])),
  translate_to: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})*$/, 'expected a language code like de or pt-BR'),
      v.description(
        "YouTube's machine translation of the chosen track into this language; language is then " +
          'the target and translated_from the source',
      ),
    ),
  ),
  format: v.optional(
    v.pipe(
      v.picklist(MCP_TRANSCRIPT_FORMATS),
      v.description('Default text: one line per segment with [mm:ss] timestamps'),
    ),
  ),
  max_chars: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(200),
      v.maxValue(200_000),
      v.description('Page size; default 20000'),
    ),
  ),
  cursor: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(8192),
      v.description('next_cursor of the previous page (later pages are free)'),
    ),
  ),
});

/** The structured result of `get_transcript`. */
const transcriptOutput = v.looseObject({
  video_id: v.string(),
  language: v.string(),
  translated_from: v.optional(v.string()),
  track_kind: v.picklist(['asr', 'manual']),
  format: v.picklist(MCP_TRANSCRIPT_FORMATS),
  title: v.nullable(v.string()),
  content: v.optional(v.string()),
  segments: v.optional(v.array(v.unknown())),
  has_more: v.boolean(),
  next_cursor: v.nullable(v.string()),
});

/** The arguments of `get_transcript` (the endpoint checks them first). */
export const TRANSCRIPT_TOOL_ARGS: v.GenericSchema = transcriptInput;

const inputSchema = toolSchema(transcriptInput);
const outputSchema = toolSchema(transcriptOutput);

interface CursorToken {
  unit: number;
  offset: number;
  language: string;
  kind: string;
}

/** Registers `get_transcript` on `server`, for `caller`. */
export function registerTranscriptTool(server: McpServer, services: Services, caller: CallerInfo): void {
  server.registerTool(
    'get_transcript',
    {
      title: 'Get a YouTube transcript',
      description:
        'The transcript of a YouTube video (1 credit for the first page; later pages of the same ' +
        'transcript, fetched with next_cursor, are free). Long transcripts come in pages of at most ' +
        "max_chars characters, cut at segment boundaries. translate_to asks for YouTube's machine " +
        'translation of the chosen track (translated_from then names the source language).',
      inputSchema,
      outputSchema,
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    (args) => getTranscript(services, caller, args),
  );
}

/** Runs `get_transcript` for `caller`. */
function getTranscript(
  services: Services,
  caller: CallerInfo,
  args: v.InferOutput<typeof transcriptInput>,
): Promise<CallToolResult> {
  const format = args.format ?? 'text';
  const maxChars = args.max_chars ?? DEFAULT_MAX_CHARS;
  const languages = (args.languages ?? ['*']).map((l) => (l.toLowerCase() === 'auto' ? '*' : l));
  const policy = args.track_policy ?? 'manual_first';
  const translateTo = args.translate_to;
  let videoId = '';
  let from: CursorToken | undefined;
  const filters = () => ({
    account: caller.principal.accountId,
    video: videoId,
    format,
    max_chars: String(maxChars),
    languages: languages.join(','),
    policy,
    ...(translateTo === undefined ? {} : { translate_to: translateTo }),
  });
  const charge = async (): Promise<Charge> => {
    videoId = parseVideoId(args.video);
    if (args.cursor === undefined) return { operation: 'transcript' };
    const token = await services.pager.decode('mcp.get_transcript', filters(), args.cursor);
    from = JSON.parse(token) as CursorToken;
    return 'free';
  };
  return runTool(
    services,
    caller,
    'transcripts:read',
    charge,
    async (call) => {
      const result = await services.transcripts.get(
        {
          videoId,
          languages,
          policy,
          format: format === 'markdown' ? 'markdown' : 'segments',
          wordLevel: false,
          ...(translateTo === undefined ? {} : { translateTo }),
        },
        call,
      );
      const { doc } = result;
      if (from && (from.language !== doc.language || from.kind !== doc.trackKind)) {
        throw new ApiError(
          'invalid_cursor',
          'The transcript changed since this cursor was issued; start again.',
        );
      }
      const units = transcriptUnits(doc, format);
      const position: PagePosition = from ? { unit: from.unit, offset: from.offset } : { unit: 0, offset: 0 };
      if (position.unit > units.length)
        throw new ApiError('invalid_cursor', 'The cursor points past the transcript.');
      const page = pageOf(units, isItemFormat(format), position, maxChars);
      const next = page.next
        ? await services.pager.encode(
            'mcp.get_transcript',
            filters(),
            JSON.stringify({
              ...page.next,
              language: doc.language,
              kind: doc.trackKind,
            } satisfies CursorToken),
          )
        : null;
      const data: Record<string, unknown> = {
        video_id: doc.videoId,
        language: doc.language,
        ...(doc.translatedFrom === undefined ? {} : { translated_from: doc.translatedFrom }),
        track_kind: doc.trackKind,
        format,
        title: doc.title ?? null,
      };
      if (page.content !== undefined) data.content = page.content;
      if (page.segments !== undefined) data.segments = page.segments;
      data.has_more = next !== null;
      data.next_cursor = next;
      return { data, cache: result.cache };
    },
    // A first page is read from memory when it can (then admitted and paid in one ledger step).
    true,
  );
}
