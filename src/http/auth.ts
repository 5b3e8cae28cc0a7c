/**
 * Authentication: the API key from `Authorization: Bearer` or `X-API-Key`, checked for its
 * checksum before any lookup; failed attempts are limited per client address, so guessing keys
 * earns 429s, not lookups.
 * @module
 */
import type { Context } from 'hono';
import { clientNetwork } from '../core/network.ts';
import { ApiError } from '../errors.ts';
import type { Principal } from '../services/accounts.ts';
import { clientAddress } from './client.ts';
import type { Runtime } from './runtime.ts';

/** The key a request presents, or undefined. Both headers with different keys → 400. */
export function presentedKey(c: Context): string | undefined {
  const authorization = c.req.header('authorization');
  let bearer: string | undefined;
  if (authorization !== undefined) {
    const m = /^\s*Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!m) throw new ApiError('invalid_api_key', 'The Authorization header must be "Bearer <API key>".');
    bearer = m[1];
  }
  const header = c.req.header('x-api-key')?.trim();
  if (bearer !== undefined && header !== undefined && header !== '' && bearer !== header) {
    throw new ApiError('invalid_request', 'Authorization and X-API-Key carry different keys; send one.');
  }
  return bearer ?? (header === '' ? undefined : header);
}

/** The counter of failed authentications of the client's address in the current window. */
function failureKey(rt: Runtime, c: Context): { key: string; ttlMs: number; limit: number } {
  const { limit, windowSeconds } = rt.deps.limits.authFailures;
  const address = clientAddress(c, rt.deps.trustProxy);
  const network = clientNetwork(address, { ipv4: 32, ipv6: 64 });
  const windowMs = windowSeconds * 1000;
  const start = Math.floor(rt.deps.clock.now() / windowMs) * windowMs;
  return { key: `authfail:${network}:${start}`, ttlMs: windowMs, limit };
}

function tooManyFailures(rt: Runtime): ApiError {
  const windowMs = rt.deps.limits.authFailures.windowSeconds * 1000;
  const now = rt.deps.clock.now();
  const retryAfter = Math.max(1, Math.ceil((Math.floor(now / windowMs) * windowMs + windowMs - now) / 1000));
  return new ApiError(
    'rate_limited',
    `Too many failed authentications from this address; retry in ${retryAfter} s.`,
    {
      retryAfter,
    },
  );
}

/** Authenticates a request with an API key; 401 / 429 as the contract says. */
export async function authenticate(rt: Runtime, c: Context): Promise<Principal> {
  const key = presentedKey(c);
  if (key === undefined) {
    throw new ApiError(
      'missing_api_key',
      'An API key is required: send "Authorization: Bearer <key>" or "X-API-Key".',
    );
  }
  const failures = failureKey(rt, c);
  if ((await rt.deps.ledger.counter(failures.key, 0, failures.ttlMs)) >= failures.limit)
    throw tooManyFailures(rt);
  try {
    return await rt.services.accounts.authenticate(key);
  } catch (error) {
    if (error instanceof ApiError && error.code === 'invalid_api_key') {
      const count = await rt.deps.ledger.counter(failures.key, 1, failures.ttlMs);
      if (count > failures.limit) throw tooManyFailures(rt);
    }
    throw error;
  }
}

/** True when `presented` equals the admin token (constant time). */
export function isAdminToken(rt: Runtime, presented: string): boolean {
  const expected = rt.deps.adminToken;
  if (!expected) return false;
  const a = new TextEncoder().encode(presented);
  const b = new TextEncoder().encode(expected);
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Authenticates an admin call: the admin token, or a key with the `admin` scope. */
export async function authenticateAdmin(rt: Runtime, c: Context): Promise<Principal | 'token'> {
  const key = presentedKey(c);
  if (key !== undefined && isAdminToken(rt, key)) return 'token';
  const principal = await authenticate(rt, c);
  if (!principal.scopes.includes('admin')) {
    throw new ApiError(
      'insufficient_scope',
      'This endpoint needs the admin token or a key with the admin scope.',
    );
  }
  return principal;
}
