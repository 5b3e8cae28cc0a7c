/**
 * The body a route's plain answer was made from, kept on its `Response` (route.ts) so that a
 * runtime adapter that owns the socket can write it as it is. On Node without
 * `@hono/node-server`'s lightweight globals, reading a real undici `Response` back through its
 * stream costs about a sixth of a cached answer's CPU (adapters/node/plain-answer.ts).
 * @module
 */

/** The key of the body on a plain answer. */
export const PLAIN_BODY: unique symbol = Symbol('tubescribe.plainBody');

/** A `Response` that may carry the body it was made from (a string or bytes; never a Blob). */
export type PlainAnswer = Response & { [PLAIN_BODY]?: string | Uint8Array };
