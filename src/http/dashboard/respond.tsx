/**
 * How the dashboard answers: HTML pages with its security headers (no caching, no framing, a
 * content security policy that allows only the app's own style sheet and script), and errors as a
 * readable page for browsers or the contract's JSON envelope for everything else.
 * @module
 */
/** @jsxImportSource hono/jsx */
import { toEnvelope } from '../../errors.ts';
import { asApiError } from '../../services/context.ts';
import type { AppContext } from '../context.ts';
import { DashboardPath, dashboardAt, dashboardUrl } from './address.ts';
import { type Html, Notice, Page, type Viewer } from './layout.tsx';

const SECURITY_HEADERS: Record<string, string> = {
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  'Content-Security-Policy':
    "default-src 'none'; style-src 'self' 'unsafe-inline'; script-src 'self'; img-src 'self'; " +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
};

/** An HTML answer with the dashboard's headers; the page's addresses are under the request's dashboard. */
export async function html(c: AppContext, page: Html, status = 200): Promise<Response> {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  const document = <DashboardPath.Provider value={dashboardAt(c)}>{page}</DashboardPath.Provider>;
  return c.html(`<!DOCTYPE html>${await document}`, status as 200);
}

/**
 * A 303 to `path` under the dashboard (`''` the overview, `'/keys'`, …) after a form POST, with the
 * dashboard's headers.
 */
export function seeOther(c: AppContext, path: string): Response {
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
  return c.redirect(`${dashboardAt(c)}${path}`, 303);
}

/** True when the client asked for a page rather than data. */
export function wantsHtml(c: AppContext): boolean {
  return (c.req.header('accept') ?? '').includes('text/html');
}

const TITLES: Record<number, string> = {
  400: 'That did not work',
  401: 'Please sign in',
  403: 'Not allowed',
  404: 'Not found',
  409: 'Already done',
  429: 'Slow down',
};

/** The answer for a failure: a page for browsers, else the JSON envelope; `Retry-After` on both. */
export async function failure(c: AppContext, error: unknown, viewer: Viewer): Promise<Response> {
  const e = asApiError(error);
  if (e.retryAfter !== undefined) c.header('Retry-After', String(Math.max(1, Math.ceil(e.retryAfter))));
  if (!wantsHtml(c)) {
    c.header('Cache-Control', 'no-store');
    return c.json(toEnvelope(e), e.status as 400);
  }
  const title = TITLES[e.status] ?? 'Something went wrong';
  const signIn = e.code === 'session_required';
  return html(
    c,
    <Page title={title} viewer={signIn ? { kind: 'visitor' } : viewer}>
      <Notice kind="error">
        <p>{e.message}</p>
        <p class="muted">
          Error code: <code>{e.code}</code>
          {e.retryable ? ' (you may retry)' : ''}
        </p>
      </Notice>
      <p>
        {signIn ? <a href={dashboardUrl()}>Sign in</a> : <a href={dashboardUrl()}>Back to the dashboard</a>}
      </p>
    </Page>,
    e.status,
  );
}
