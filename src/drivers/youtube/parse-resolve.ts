/**
 * `navigation/resolve_url` → the channel's `UC…` id, and the InnerTube JSON error body that every
 * endpoint may answer with (`{"error":{"code":404,"status":"NOT_FOUND",…}}`).
 * @module
 */
import { ApiError } from '../../errors.ts';
import { at, type Json, num, obj, ParseError, str } from './json.ts';

/** An InnerTube API-level error (`error` object of a 4xx/5xx JSON body). */
export interface InnertubeError {
  code: number;
  /** `NOT_FOUND`, `INVALID_ARGUMENT`, `FAILED_PRECONDITION`, … */
  status: string;
  message: string;
}

/** The API-level error a response body carries, if any. */
export function innertubeError(json: Json): InnertubeError | undefined {
  const error = obj(at(json, 'error'));
  if (!error) return undefined;
  return {
    code: num(error.code) ?? 0,
    status: str(error.status) ?? '',
    message: str(error.message) ?? '',
  };
}

/**
 * True for the error bodies that mean "no such entity" for a browse or resolve call: 404
 * `NOT_FOUND` (unknown handle) and 400 `INVALID_ARGUMENT` (malformed browse id).
 */
export function isNotFoundError(error: InnertubeError | undefined): boolean {
  if (!error) return false;
  return error.code === 404 || error.status === 'NOT_FOUND' || error.status === 'INVALID_ARGUMENT';
}

/**
 * The `UC…` channel id a `navigation/resolve_url` answer points at.
 * @throws ApiError `channel_not_found` for the 404 body, or when the URL resolves to something
 *   that is not a channel (a video, a playlist, an external link).
 * @throws ParseError when the body is neither an error nor an endpoint.
 */
export function parseResolveUrl(json: Json): string {
  const error = innertubeError(json);
  if (error) {
    if (isNotFoundError(error))
      throw new ApiError('channel_not_found', 'No channel with this handle or URL.');
    throw new ParseError('error', `resolve_url answered ${error.code} ${error.status}`);
  }
  const endpoint = obj(at(json, 'endpoint'));
  if (!endpoint) throw new ParseError('endpoint');
  const browseId = str(at(endpoint, 'browseEndpoint', 'browseId'));
  if (browseId?.startsWith('UC')) return browseId;
  throw new ApiError('channel_not_found', 'The URL does not name a channel.');
}
