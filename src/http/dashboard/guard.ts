/**
 * The dashboard's handler wrapper: every page and form handler runs inside it, so that any failure
 * becomes a readable page for browsers or the contract's JSON envelope for other clients, and
 * failures the server caused (5xx) still reach the app's error log.
 * @module
 */
import type { Hono } from 'hono';
import { asApiError } from '../../services/context.ts';
import type { Session } from '../../services/sessions.ts';
import type { AppContext, AppEnv, MountDeps } from '../context.ts';
import type { Viewer } from './layout.tsx';
import { failure, wantsHtml } from './respond.tsx';
import { currentSession } from './session.ts';

/** The viewer a session shows pages for. */
export function viewerOf(session: Session | undefined): Viewer {
  const subject = session?.record.subject;
  if (subject?.kind === 'account') return { kind: 'account', email: subject.email };
  if (subject?.kind === 'operator') return { kind: 'operator' };
  return { kind: 'visitor' };
}

/** A dashboard handler. */
export type DashHandler = (c: AppContext) => Promise<Response>;

/** Wraps a handler: failures become pages (browsers) or envelopes (others); 5xx JSON goes to the app's handler. */
export function guarded(deps: MountDeps, handler: DashHandler): DashHandler {
  return async (c) => {
    try {
      return await handler(c);
    } catch (error) {
      const e = asApiError(error);
      if (e.status >= 500 && !wantsHtml(c)) throw e;
      const session = await currentSession(c, deps).catch(() => undefined);
      return failure(c, e, viewerOf(session));
    }
  };
}

/** Mounts `handler` (guarded) for `method` and `path`. */
export function on(
  app: Hono<AppEnv>,
  deps: MountDeps,
  method: 'GET' | 'POST',
  path: string,
  handler: DashHandler,
): void {
  app.on(method, path, guarded(deps, handler));
}
