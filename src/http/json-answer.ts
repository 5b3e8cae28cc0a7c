/**
 * A JSON answer with the headers prepared on the context (`c.header`), as Hono's `c.json` makes it;
 * for an adapter that writes plain bodies itself (Node with the host's globals) its body is left
 * unmade (plain-body.ts), so an error or a 404 is not turned into an undici body stream and read
 * back. Errors come in floods (a client without a key, over its limit, a scanner): on that path a
 * 401 cost about twice what it costs through `serve()`.
 * @module
 */
import type { AppContext } from './context.ts';
import { deferredBodyAnswer, writesPlainBody } from './plain-body.ts';

/** `json` answered with `status`, with the headers prepared on the context. */
export function jsonAnswer(c: AppContext, json: unknown, status: number): Response {
  if (!writesPlainBody(c.env)) return c.json(json, status as 400);
  // A body-less answer carries the prepared headers; the body goes in unmade beside them.
  const shell = c.body(null, status as 400, { 'Content-Type': 'application/json' });
  return deferredBodyAnswer(JSON.stringify(json), status, shell.headers);
}
