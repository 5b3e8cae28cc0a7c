/**
 * The dashboard's session at the edge: the cookie (HttpOnly, SameSite=Lax, Path=/, Secure and
 * `__Host-` when the public URL is https, 7 days), the session it names, and the checks of every
 * form POST: a live session, the session's CSRF token in the form, and an Origin (or Referer) of
 * this site.
 * @module
 */

import { sha256Hex } from '../../core/digest.ts';
import {
  cookieValue,
  isSameOrigin,
  type SessionRecord,
  sessionCookie,
  sessionCookieName,
  tokensEqual,
} from '../../core/session.ts';
import { ApiError } from '../../errors.ts';
import type { Session } from '../../services/sessions.ts';
import type { Settings } from '../../settings.ts';
import type { AppContext, MountDeps } from '../context.ts';

/** A submitted form: one string per field, or several for repeated fields. */
export type FormFields = Record<string, string | string[]>;

/** Whether cookies carry `Secure` (the public URL is https). */
export function secureCookies(settings: Settings): boolean {
  return settings.publicUrl?.startsWith('https:') ?? false;
}

/** The origin our pages are served from: the public URL's, else the request's. */
export function siteOrigin(c: AppContext, settings: Settings): string {
  return new URL(settings.publicUrl ?? c.req.url).origin;
}

/** The live session the request's cookie names, or undefined. */
export async function currentSession(c: AppContext, deps: MountDeps): Promise<Session | undefined> {
  const id = cookieValue(c.req.header('cookie'), sessionCookieName(secureCookies(deps.settings)));
  return deps.services.dashboard.sessions.get(id);
}

/** Sets the cookie of `session` on the answer. */
export function setSessionCookie(c: AppContext, session: Session, deps: MountDeps): void {
  const maxAge = session.record.expiresAt - session.record.createdAt;
  c.header('Set-Cookie', sessionCookie(session.id, maxAge, secureCookies(deps.settings)), { append: true });
}

/** Clears the cookie. */
export function clearSessionCookie(c: AppContext, deps: MountDeps): void {
  c.header('Set-Cookie', sessionCookie('', 0, secureCookies(deps.settings)), { append: true });
}

/** The session of the request, or a new visitor session (its cookie set). */
export async function sessionOrVisitor(c: AppContext, deps: MountDeps): Promise<Session> {
  const existing = await currentSession(c, deps);
  if (existing) return existing;
  const session = await deps.services.dashboard.sessions.start({ kind: 'visitor' });
  setSessionCookie(c, session, deps);
  return session;
}

/** Reads a form POST and checks it: the origin first, then a live session and its CSRF token. */
export async function checkedForm(
  c: AppContext,
  deps: MountDeps,
): Promise<{ session: Session; form: FormFields }> {
  if (!isSameOrigin(c.req.header('origin'), c.req.header('referer'), siteOrigin(c, deps.settings))) {
    throw new ApiError('csrf_rejected', 'This form was not sent from this site.');
  }
  const session = await currentSession(c, deps);
  if (!session) throw new ApiError('session_required', 'Your session has ended; sign in again.');
  const type = c.req.header('content-type') ?? '';
  const form: FormFields = {};
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    const body = await c.req.parseBody({ all: true });
    for (const [name, value] of Object.entries(body)) {
      const list = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
      form[name] = list.length === 1 ? (list[0] as string) : list;
    }
  }
  const csrf = field(form, 'csrf');
  if (!tokensEqual(csrf, session.record.csrf)) {
    throw new ApiError(
      'csrf_rejected',
      'The form is stale or was not made by this site; reload the page and retry.',
    );
  }
  return { session, form };
}

/** One field of a form as a string ('' when absent; the first of several). */
export function field(form: FormFields, name: string): string {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

/** Every value of a repeated field. */
export function fields(form: FormFields, name: string): string[] {
  const value = form[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** The signed-in account of a session, or `session_required`. */
export function accountOf(session: Session | undefined): { accountId: string; email: string } {
  const subject = session?.record.subject;
  if (subject?.kind !== 'account') throw new ApiError('session_required', 'Sign in to see this page.');
  return subject;
}

/**
 * The operator's session record, or `session_required`: also when the credential it was opened
 * with no longer holds (the admin token changed, or the admin key was revoked).
 */
export async function requireOperator(session: Session | undefined, deps: MountDeps): Promise<SessionRecord> {
  const subject = session?.record.subject;
  const refused = () => new ApiError('session_required', 'Sign in as the operator to see this page.');
  if (!session || subject?.kind !== 'operator') throw refused();
  const via = subject.via;
  if ('tokenDigest' in via) {
    const token = deps.settings.adminToken;
    if (token === undefined || !tokensEqual(await sha256Hex(token), via.tokenDigest)) throw refused();
  } else {
    const account = await deps.services.accounts.view(via.accountId).catch(() => undefined);
    if (!account?.keys.some((k) => k.key_id === via.keyId && !k.revoked)) throw refused();
  }
  return session.record;
}
