/**
 * Dashboard sessions, the pure part: the session record, how ids and CSRF tokens are drawn (from
 * the injected CSPRNG), how an id is stored (only its SHA-256 digest, so a storage dump holds no
 * live cookie), expiry, the cookie's attributes and the same-origin test of a form POST.
 * @module
 */

import type { Random } from '../ports/random.ts';
import { encodeBase64Url } from './base64url.ts';
import { sha256Hex } from './digest.ts';

/** How long a signed-in session lasts: 7 days. */
export const SESSION_LIFETIME_MS: number = 7 * 24 * 3_600_000;
/** How long a signed-out visitor's session (sign-in forms, pending code) lasts: 1 hour. */
export const VISITOR_LIFETIME_MS: number = 3_600_000;
/** Random bytes of a session id and of a CSRF token (256 bits). */
const TOKEN_BYTES = 32;

/** Who a session belongs to: a visitor (signing in), an account, or the operator. */
export type SessionSubject =
  | { kind: 'visitor'; signupToken?: string; email?: string }
  | { kind: 'account'; accountId: string; email: string }
  | { kind: 'operator'; via: OperatorCredential };

/**
 * What an operator signed in with, so that the session ends with it: the SHA-256 of the admin
 * token (a changed token ends every operator session), or the admin-scoped key (revoking it does).
 */
export type OperatorCredential = { tokenDigest: string } | { accountId: string; keyId: string };

/** The stored session. Times are epoch ms. */
export interface SessionRecord {
  subject: SessionSubject;
  /** The per-session CSRF token every form of the session carries. */
  csrf: string;
  createdAt: number;
  expiresAt: number;
}

/** A fresh unguessable token (session id, CSRF token, form idempotency key). */
export function randomToken(random: Random): string {
  return encodeBase64Url(random.bytes(TOKEN_BYTES));
}

/** True for a string shaped like a {@link randomToken} (checked before any storage lookup). */
export function isWellFormedToken(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The storage key of a session id: its digest, never the id itself. */
export async function sessionStorageKey(id: string): Promise<string> {
  return `session:${await sha256Hex(id)}`;
}

/** A new session record for `subject`, valid from `now`. */
export function newSessionRecord(subject: SessionSubject, csrf: string, now: number): SessionRecord {
  const lifetime = subject.kind === 'visitor' ? VISITOR_LIFETIME_MS : SESSION_LIFETIME_MS;
  return { subject, csrf, createdAt: now, expiresAt: now + lifetime };
}

/** True while the session is valid at `now`. */
export function isLive(record: SessionRecord, now: number): boolean {
  return now < record.expiresAt;
}

/** Constant-time equality of two strings (CSRF tokens). */
export function tokensEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** The cookie's name: `__Host-` prefixed when it is Secure (browsers then pin it to this host). */
export function sessionCookieName(secure: boolean): string {
  return secure ? '__Host-tubescribe_session' : 'tubescribe_session';
}

/** A `Set-Cookie` value: HttpOnly, SameSite=Lax, Path=/, Secure over https; `maxAgeMs` 0 clears it. */
export function sessionCookie(id: string, maxAgeMs: number, secure: boolean): string {
  const parts = [
    `${sessionCookieName(secure)}=${id}`,
    'Path=/',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${Math.max(0, Math.floor(maxAgeMs / 1000))}`,
  ];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * Whether a state-changing request comes from our own pages: its `Origin` (else the origin of its
 * `Referer`) must equal `expected`. A request with neither is refused.
 */
export function isSameOrigin(
  origin: string | undefined,
  referer: string | undefined,
  expected: string,
): boolean {
  if (origin !== undefined && origin !== '') return origin === expected;
  if (referer === undefined || referer === '') return false;
  try {
    return new URL(referer).origin === expected;
  } catch {
    return false;
  }
}
