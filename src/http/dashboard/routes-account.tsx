/**
 * A signed-in account's pages at `/dashboard`: the overview (or the sign-in form for a visitor),
 * API keys (create: the secret shown once on the answer; revoke), one batch job, the quick start,
 * and the two static assets. Every id in a path is checked against the session's account.
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { planOf, requestsPerDay, requestsPerSecond } from '../../core/plans.ts';
import { DEFAULT_USAGE_DAYS } from '../../core/usage.ts';
import { isScope, type Scope } from '../../services/accounts.ts';
import type { AppEnv, MountDeps } from '../context.ts';
import { apiBase } from './address.ts';
import { COPY_JS, STYLE_CSS } from './assets.ts';
import { on } from './guard.ts';
import { JobPage, OverviewPage, QuickStartPage } from './pages-account.tsx';
import { KeysPage, PERSON_SCOPES } from './pages-keys.tsx';
import { CodePage, SigninPage } from './pages-signin.tsx';
import { html, seeOther } from './respond.tsx';
import { accountOf, checkedForm, currentSession, field, fields, sessionOrVisitor } from './session.ts';

/** Mounts the account pages and the assets. */
export function mountAccountPages(app: Hono<AppEnv>, deps: MountDeps): void {
  const { services, settings } = deps;
  const { data } = services.dashboard;

  app.get('/dashboard/style.css', (c) =>
    c.body(STYLE_CSS, 200, {
      'Content-Type': 'text/css; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  );
  app.get('/dashboard/copy.js', (c) =>
    c.body(COPY_JS, 200, {
      'Content-Type': 'text/javascript; charset=utf-8',
      'Cache-Control': 'public, max-age=3600',
    }),
  );

  on(app, deps, 'GET', '/dashboard', async (c) => {
    const session = await sessionOrVisitor(c, deps);
    const subject = session.record.subject;
    const csrf = session.record.csrf;
    if (subject.kind === 'operator') return seeOther(c, '/admin');
    if (subject.kind === 'visitor') {
      if (subject.signupToken !== undefined && c.req.query('again') === undefined) {
        return html(c, <CodePage csrf={csrf} email={subject.email ?? ''} />);
      }
      return html(c, <SigninPage csrf={csrf} />);
    }
    const { view } = await data.account(subject.accountId);
    const plan = planOf(settings.plans, view.plan);
    const [usage, jobs] = await Promise.all([
      services.usage.report(subject.accountId, DEFAULT_USAGE_DAYS),
      data.recentJobs(subject.accountId),
    ]);
    return html(
      c,
      <OverviewPage
        email={subject.email}
        csrf={csrf}
        accountId={view.account_id}
        credits={view.credits}
        plan={view.plan}
        perSecond={requestsPerSecond(plan)}
        perDay={requestsPerDay(plan)}
        days={usage.days}
        jobs={jobs}
      />,
    );
  });

  on(app, deps, 'GET', '/dashboard/keys', async (c) => {
    const session = await currentSession(c, deps);
    const { accountId, email } = accountOf(session);
    const { keys } = await data.account(accountId);
    const lastUsed = await services.usage.lastUsed(keys.map((k) => k.key_id));
    const notice =
      c.req.query('revoked') !== undefined ? 'The key was revoked; it stops working at once.' : undefined;
    return html(
      c,
      <KeysPage
        email={email}
        csrf={session!.record.csrf}
        keys={keys}
        lastUsed={lastUsed}
        {...(notice ? { notice } : {})}
      />,
    );
  });

  on(app, deps, 'POST', '/dashboard/keys', async (c) => {
    const { session, form } = await checkedForm(c, deps);
    const { accountId, email } = accountOf(session);
    const asked = fields(form, 'scopes').filter(isScope);
    const scopes: Scope[] = asked.filter((s) => PERSON_SCOPES.includes(s));
    const name = field(form, 'name');
    const created = await data.createKey(accountId, email, name, scopes.length > 0 ? scopes : PERSON_SCOPES);
    const { keys } = await data.account(accountId);
    const lastUsed = await services.usage.lastUsed(keys.map((k) => k.key_id));
    return html(
      c,
      <KeysPage
        email={email}
        csrf={session.record.csrf}
        keys={keys}
        lastUsed={lastUsed}
        fresh={{ apiKey: created.api_key, name: name.trim() }}
      />,
      201,
    );
  });

  on(app, deps, 'POST', '/dashboard/keys/:id/revoke', async (c) => {
    const { session } = await checkedForm(c, deps);
    const { accountId } = accountOf(session);
    await data.revokeOwnKey(accountId, c.req.param('id') ?? '');
    return seeOther(c, '/keys?revoked=1');
  });

  on(app, deps, 'GET', '/dashboard/jobs/:id', async (c) => {
    const session = await currentSession(c, deps);
    const { accountId, email } = accountOf(session);
    const job = await data.job(accountId, c.req.param('id') ?? '');
    return html(c, <JobPage email={email} csrf={session!.record.csrf} job={job} />);
  });

  on(app, deps, 'GET', '/dashboard/start', async (c) => {
    const session = await currentSession(c, deps);
    const { email } = accountOf(session);
    const baseUrl = apiBase(c, settings);
    return html(c, <QuickStartPage email={email} csrf={session!.record.csrf} baseUrl={baseUrl} />);
  });
}
