/**
 * Writing tubescribe's plain answers straight to Node's `ServerResponse` when the process keeps its
 * own global `Response` (embedded, `overrideGlobalObjects` off). `@hono/node-server` writes only
 * its lightweight `Response` as it is; a real undici `Response` it reads back through a stream
 * reader, a turn of the event loop at least: about a sixth of a cached answer's CPU in the bench. A
 * route's plain answer carries the body it was made from (src/http/plain-body.ts), so the status,
 * the headers (as the middleware left them) and that body go out at once, and the listener is told
 * the answer was sent.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { PLAIN_BODY, type PlainAnswer } from '../../src/http/plain-body.ts';

/**
 * Sends `res` on the request's `ServerResponse` (its `@hono/node-server` environment's `outgoing`)
 * when it is a plain answer still unread; else returns it as it is.
 */
export function sendPlainAnswer(res: Response, env: unknown): Response {
  const body = (res as PlainAnswer)[PLAIN_BODY];
  const outgoing = (env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (body === undefined || outgoing === undefined || res.bodyUsed) return res;
  const head: Record<string, string | string[] | number> = {};
  for (const [name, value] of res.headers) head[name] = value;
  const cookies = res.headers.getSetCookie();
  if (cookies.length > 0) head['set-cookie'] = cookies;
  head['content-length'] ??= typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  outgoing.writeHead(res.status, head);
  outgoing.end(body);
  return RESPONSE_ALREADY_SENT;
}
