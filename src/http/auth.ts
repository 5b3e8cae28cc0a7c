/**
 * Authentication at the edge: the key a request presents (`Authorization: Bearer` or
 * `X-API-Key`) and the client address it comes from, handed to the AuthGuard service.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { AppContext } from './context.ts';
import { requestHeader } from './edge.ts';

/** The token of an `Authorization: Bearer <token>` header value, or undefined for any other value. */
export function bearerToken(authorization: string | undefined): string | undefined {
  return authorization === undefined ? undefined : /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
}

/** The key a request presents, or undefined. Both headers with different keys → 400. */
export function presentedKey(c: AppContext): string | undefined {
  const authorization = requestHeader(c, 'authorization');
  let bearer: string | undefined;
  if (authorization !== undefined) {
    bearer = bearerToken(authorization);
    if (bearer === undefined) {
      throw new ApiError('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
    }
  }
  const header = requestHeader(c, 'x-api-key')?.trim();
  if (bearer !== undefined && header !== undefined && header !== '' && bearer !== header) {
    throw new ApiError('invalid_request', 'Authorization and X-API-Key carry different keys; send one.');
  }
  return bearer ?? (header === '' ? undefined : header);
}

/** Who may call a route: a key, the admin (token or `admin` key), or anyone. */
export type Auth = 'key' | 'admin' | 'none';
