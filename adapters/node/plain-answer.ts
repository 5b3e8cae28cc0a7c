/**
 * Writing tubescribe's plain answers straight to Node's `ServerResponse` when the process keeps its
 * own global `Response` (embedded, `overrideGlobalObjects` off). `@hono/node-server` writes only
 * its lightweight `Response` as it is; a real undici `Response` it reads back through a stream
 * reader (a turn of the event loop at least), and undici builds that stream as the answer is made.
 * So the request's env says the adapter writes plain bodies itself (src/http/plain-body.ts): a
 * route's plain answer then carries its body unmade, and the status, the headers (as the middleware
 * left them) and that body go out at once; the listener is told the answer was sent. Headers
 * nothing read on the way go out as the route's record, without ever becoming `Headers`. In the
 * bench, writing the body took a cached answer from 55–57 to 42–52 µs of CPU on one machine,
 * leaving it unmade from 108–113 to 78–83 µs on another, and sending the untouched record from
 * 44–60 to 39–55 µs on a third.
 * @module
 */
import type { ServerResponse } from 'node:http';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import {
  PLAIN_BODY,
  type PlainAnswer,
  untouchedHeaders,
  WRITES_PLAIN_BODY,
} from '../../src/http/plain-body.ts';

/** A fetch handler as `@hono/node-server` calls it (env: `{ incoming, outgoing }`). */
type NodeFetch = (request: Request, env: unknown) => Response | Promise<Response>;

/** `fetch`, with its plain answers written by {@link sendPlainAnswer}. */
export function writingPlainAnswers(fetch: NodeFetch): NodeFetch {
  return async (request, env) => {
    (env as { [WRITES_PLAIN_BODY]?: boolean })[WRITES_PLAIN_BODY] = true;
    return sendPlainAnswer(await fetch(request, env), env);
  };
}

/**
 * Sends `res` on the request's `ServerResponse` (its `@hono/node-server` environment's `outgoing`)
 * when it is a plain answer still unread; else returns it as it is.
 */
export function sendPlainAnswer(res: Response, env: unknown): Response {
  const body = (res as PlainAnswer)[PLAIN_BODY];
  const outgoing = (env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (body === undefined || outgoing === undefined || res.bodyUsed) return res;
  // Headers nothing touched since the route made them go out as they are (as `serve()` sends
  // them); headers the middleware changed are read back from the answer's `Headers`.
  const head: Record<string, string | string[] | number> = untouchedHeaders(res) ?? headerRecord(res.headers);
  if (head['content-length'] === undefined && head['Content-Length'] === undefined) {
    head['Content-Length'] = typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
  }
  outgoing.writeHead(res.status, head);
  outgoing.end(body);
  return RESPONSE_ALREADY_SENT;
}

/** `headers` as Node's `writeHead` takes them (lower-case names; each cookie its own line). */
function headerRecord(headers: Headers): Record<string, string | string[] | number> {
  const head: Record<string, string | string[] | number> = {};
  for (const [name, value] of headers) head[name] = value;
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) head['set-cookie'] = cookies;
  return head;
}
