/**
 * Bodies a host app already read. Mounted after `express.json()` (or `express.text()`,
 * `express.raw()`), tubescribe finds the request stream consumed and the body in `req.body`;
 * reading the stream again would see no body, and `POST /admin/keys {"credits":100}` would create
 * a key with 0 credits. So the body is handed back to `@hono/node-server` as `rawBody` (the bytes
 * it reads instead of the stream): a Buffer as it is, a string as UTF-8, a parsed object as JSON.
 * The request's own `Content-Type` still decides whether tubescribe reads it as JSON.
 * @module
 */
import type { IncomingMessage } from 'node:http';

interface WithBody {
  body?: unknown;
  rawBody?: unknown;
}

/** The bytes of a body a parser left in `req.body`, or undefined when there is none to restore. */
export function parsedBodyBytes(req: IncomingMessage): Buffer | undefined {
  const { body, rawBody } = req as IncomingMessage & WithBody;
  if (rawBody instanceof Buffer || body === undefined) return undefined;
  // Only a consumed stream needs it: an unread stream still holds the body.
  if (!req.readableEnded && !req.readableDidRead) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return Buffer.from(JSON.stringify(body), 'utf8');
}

/** Sets `rawBody` on `req` when a parser consumed its stream (see the module comment). */
export function restoreParsedBody(req: IncomingMessage): void {
  const bytes = parsedBodyBytes(req);
  if (bytes !== undefined) (req as IncomingMessage & WithBody).rawBody = bytes;
}
