/**
 * Reading a request's input: the JSON body under a byte limit (counted while it streams in, so a
 * chunked body cannot pass the limit either; only a JSON `Content-Type` is read as JSON) and the
 * query string as a record.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { AppContext } from './context.ts';

/** The error of a body over `limit` bytes. */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError('payload_too_large', `The request body exceeds ${limit} bytes.`);
}

/** Query parameters as a record; a repeated parameter's values are joined with commas. */
export function queryRecord(url: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of new URL(url).searchParams)
    out[key] = key in out ? `${out[key]},${value}` : value;
  return out;
}

/** Reads the body as UTF-8, refusing it as soon as it passes `limit` bytes. */
async function readText(c: AppContext, limit: number): Promise<string> {
  const body = c.req.raw.body;
  if (!body) return '';
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(limit);
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** Whether a `Content-Type` names JSON: `application/json` or `application/…+json`, any parameters. */
export function isJsonMediaType(contentType: string | undefined): boolean {
  return /^\s*application\/(?:[\w.!#$&^-]+\+)?json\s*(?:;|$)/i.test(contentType ?? '');
}

/** The error of a body that is not JSON by its `Content-Type`. */
export function unsupportedMediaType(): ApiError {
  return new ApiError('unsupported_media_type', 'Send the body as application/json (Content-Type).');
}

/**
 * The JSON body (`{}` when empty); 415 `unsupported_media_type` when a body comes with another
 * `Content-Type` (a browser's cross-site `text/plain` or form POST never gets read as JSON);
 * `invalid_json` when it does not parse.
 */
export async function readJsonBody(c: AppContext, limit: number): Promise<unknown> {
  const json = isJsonMediaType(c.req.header('content-type'));
  // Refused unread when the request says it carries a body; a body of unknown length is read
  // (bounded) first, so an empty one with any type still counts as no body.
  if (!json && Number(c.req.header('content-length') ?? '0') > 0) throw unsupportedMediaType();
  const text = await readText(c, limit);
  if (text === '') return {};
  if (!json) throw unsupportedMediaType();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ApiError('invalid_json', 'The request body is not valid JSON.');
  }
}
