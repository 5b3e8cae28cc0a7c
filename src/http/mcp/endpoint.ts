/**
 * The `/mcp` endpoint: Streamable HTTP, stateless, served by the official MCP SDK's
 * `createMcpHandler` (the 2026-07-28 per-request protocol) and, for 2025-era requests, the SDK's
 * stateless Streamable HTTP transport answering in JSON (see {@link serveLegacy}). In front of
 * it: `Origin` validation when a request carries one (the Hono adapter's middleware: a browser
 * origin other than the server's own is refused with 403) and the API key (Bearer or
 * `X-API-Key`, through the same AuthGuard as REST; a missing or invalid key is 401 with a
 * `WWW-Authenticate` challenge naming the RFC 9728 document). Only `tools/call` costs anything or
 * counts toward limits (see `call.ts`); `initialize`, the lists and `ping` are free.
 * @module
 */
import { originValidation } from '@modelcontextprotocol/hono';
import {
  type AuthInfo,
  createMcpHandler,
  isLegacyRequest,
  McpServer,
  type McpServerFactory,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { Hono } from 'hono';
import { ApiError, isApiError, toEnvelope } from '../../errors.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Principal } from '../../services/accounts.ts';
import { asApiError, deadlineSignal } from '../../services/context.ts';
import type { Services } from '../../services/index.ts';
import { presentedKey } from '../auth.ts';
import { readJsonBody } from '../body.ts';
import type { AppContext, AppEnv, MountDeps } from '../context.ts';
import { clientGone } from '../edge.ts';
import { isAbsolute, publicBase } from '../public-url.ts';
import { LazyCall } from '../route-call.ts';
import type { CallerInfo } from './call.ts';
import { registerDataTools } from './data-tools.ts';
import { MCP_PATH, mcpChallenge } from './metadata.ts';
import { calledTool, invalidToolArguments } from './tool-arguments.ts';
import { registerTranscriptTool } from './transcript-tool.ts';

/** The server's name and version in `initialize` / `server/discover`. */
export const MCP_SERVER_INFO: { name: string; version: string } = { name: 'tubescribe', version: '0.1.0' };

const INSTRUCTIONS =
  'YouTube data: transcripts, video metadata, channels, playlists and search. Each successful call ' +
  'costs what the REST API charges (get_transcript 1 credit for its first page, later pages free; ' +
  'list_transcript_languages free; the others 1 credit); failed calls are free. Results are in ' +
  'structuredContent and, as JSON, in the text block.';

/**
 * A new MCP server for one request of `caller`: every tool, or only `only` when the request is a
 * `tools/call` of that tool (a fresh server serves one request; the others would go unused).
 */
export function toolServer(services: Services, caller: CallerInfo, only?: string): McpServer {
  const server = new McpServer(MCP_SERVER_INFO, {
    capabilities: { tools: {} },
    instructions: INSTRUCTIONS,
  });
  if (only === undefined || only === 'get_transcript') registerTranscriptTool(server, services, caller);
  if (only !== 'get_transcript') registerDataTools(server, services, caller, only);
  return server;
}

/** The principal of a request, or the 401 answer with the challenge. */
async function authenticate(
  c: AppContext,
  deps: MountDeps,
  baseUrl: string,
): Promise<{ principal: Principal; key: string } | Response> {
  try {
    const key = presentedKey(c);
    const principal = await deps.services.auth.authenticate(key, () => deps.address(c));
    return { principal, key: key ?? '' };
  } catch (error) {
    const e = asApiError(error);
    if (e.status !== 401) throw error;
    return c.json(toEnvelope(e), 401, { 'WWW-Authenticate': mcpChallenge(baseUrl) });
  }
}

/**
 * The JSON body of a POST, read once here (bounded like every body) so the SDK neither clones nor
 * re-reads the request. A body with another `Content-Type` is 415 `unsupported_media_type` (like
 * every route's); a JSON body that does not parse is a JSON-RPC parse error.
 */
async function parsedBody(c: AppContext, limit: number): Promise<{ parsedBody?: unknown } | Response> {
  if (c.req.method !== 'POST') return {};
  try {
    return { parsedBody: await readJsonBody(c, limit) };
  } catch (error) {
    if (!isApiError(error, 'invalid_json')) throw error;
    return c.json(
      { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: Invalid JSON' }, id: null },
      400,
    );
  }
}

/**
 * Runs `build` with `console.warn` sent to the logger at debug level: `createMcpHandler` warns on
 * the console that JSON answers drop mid-call notifications (tubescribe's tools send none), and
 * tubescribe's logs are JSON lines. `build` is synchronous, so nothing else warns meanwhile.
 */
function quietly<T>(logger: Logger, build: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) =>
    logger.log('debug', 'mcp sdk', { message: args.map(String).join(' ') });
  try {
    return build();
  } finally {
    console.warn = warn;
  }
}

/**
 * A 2025-era request (`initialize`, and the calls of a client that negotiated 2025-06-18 or
 * 2025-11-25), served the way the SDK's own stateless fallback serves it (a fresh server on a
 * fresh `WebStandardStreamableHTTPServerTransport` without sessions, closed after the answer), but
 * answering in JSON like the modern leg: the fallback always opens an SSE stream, which costs a
 * stream per call (about 1.7× the time of a JSON answer) for the one message a call sends. The
 * SDK documents this composition: `isLegacyRequest` in front of a `legacy: 'reject'` handler.
 */
async function serveLegacy(
  request: Request,
  server: McpServer,
  authInfo: AuthInfo,
  parsedBody: unknown,
  maxRequestBodySize: number,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
    maxRequestBodySize,
  });
  try {
    await server.connect(transport);
    return await transport.handleRequest(request, { authInfo, parsedBody });
  } finally {
    // A JSON answer is complete when it is returned: nothing of the exchange is left to stream.
    void transport.close().catch(() => {});
    void server.close().catch(() => {});
  }
}

/** Mounts `/mcp` on the app. */
export function mountMcp(app: Hono<AppEnv>, deps: MountDeps, logger: Logger): void {
  const { services, settings } = deps;
  const factory: McpServerFactory = (ctx) => {
    const caller = ctx.authInfo?.extra?.caller as CallerInfo | undefined;
    if (!caller) throw new ApiError('missing_api_key', 'An API key is required.');
    return toolServer(services, caller, ctx.authInfo?.extra?.tool as string | undefined);
  };
  const handler = quietly(logger, () =>
    // JSON answers: a tool call has exactly one message to send (no progress or log
    // notifications), and a JSON body costs the SDK far less than an SSE stream per call.
    createMcpHandler(factory, {
      legacy: 'reject', // served by serveLegacy
      maxRequestBodySize: settings.limits.maxBodyBytes,
      responseMode: 'json',
    }),
  );

  app.all(MCP_PATH, async (c) => {
    // Stateless: no GET stream, no session to DELETE; a HEAD never reaches a key or a tool.
    if (c.req.method !== 'POST') {
      const refusal = new ApiError('method_not_allowed', `${c.req.method} is not allowed here; use POST.`);
      return c.json(toEnvelope(refusal), 405, { Allow: 'POST' });
    }
    const baseUrl = publicBase(c, settings);
    // Only browsers send Origin; without one the SDK's check passes, so it is not built.
    if (c.req.header('origin')) {
      const own = new Set([new URL(c.req.url).hostname]);
      if (isAbsolute(baseUrl)) own.add(new URL(baseUrl).hostname);
      const refused = await originValidation([...own])(c, async () => {});
      if (refused instanceof Response) return refused;
    }

    const auth = await authenticate(c, deps, baseUrl);
    if (auth instanceof Response) return auth;
    const caller: CallerInfo = {
      principal: auth.principal,
      // The ledger's id for this call: generated, never the client's X-Request-Id.
      requestId: c.get('reservationId'),
      call: new LazyCall(() => deadlineSignal(c.req.raw.signal, settings.limits.deadlineMs)),
      gone: () => clientGone(c),
      baseUrl,
    };
    const authInfo: AuthInfo = {
      token: auth.key,
      clientId: auth.principal.accountId,
      scopes: [...auth.principal.scopes],
      extra: { caller },
    };
    const body = await parsedBody(c, settings.limits.maxBodyBytes);
    if (body instanceof Response) return body;
    const invalid = invalidToolArguments(body.parsedBody);
    if (invalid) return c.json(invalid, 200);
    const tool = calledTool(body.parsedBody);
    if (tool !== undefined) authInfo.extra = { caller, tool };
    if (await isLegacyRequest(c.req.raw, body.parsedBody)) {
      const server = toolServer(services, caller, tool);
      return serveLegacy(c.req.raw, server, authInfo, body.parsedBody, settings.limits.maxBodyBytes);
    }
    return handler.fetch(c.req.raw, { authInfo, ...body });
  });
}
