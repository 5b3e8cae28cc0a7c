/**
 * The operator's pages under `/dashboard/admin`. Operators sign in in the browser with the admin
 * token (or a key with the `admin` scope), checked by the same AuthGuard as `/admin/*` (its
 * failures count toward the per-network 401 limit); success starts a new operator session, and
 * the token is never stored. Grants carry the idempotency key of the form they were made on.
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { sha256Hex } from '../../core/digest.ts';
import { isWellFormedToken, type OperatorCredential } from '../../core/session.ts';
import { DEFAULT_USAGE_DAYS } from '../../core/usage.ts';
import { ApiError } from '../../errors.ts';
import type { AppEnv, MountDeps } from '../context.ts';
import { on } from './guard.ts';
import { AccountsPage, OperatorAccountPage, OperatorHome } from './pages-operator.tsx';
import { OperatorSigninPage } from './pages-signin.tsx';
import { html, seeOther } from './respond.tsx';
import {
  checkedForm,
  currentSession,
  field,
  requireOperator,
  sessionOrVisitor,
  setSessionCookie,
} from './session.ts';

const NOTICES: Record<string, string> = {
  granted: 'Credits granted.',
  repeated: 'This form was already submitted: nothing was granted twice.',
  revoked: 'The key was revoked; it stops working at once.',
};

/** Mounts the operator pages. */
export function mountOperatorPages(app: Hono<AppEnv>, deps: MountDeps): void {
  const { services, settings } = deps;
  const { sessions, data } = services.dashboard;

  on(app, deps, 'GET', '/dashboard/admin/signin', async (c) => {
    const session = await sessionOrVisitor(c, deps);
    if (session.record.subject.kind === 'operator') return seeOther(c, '/admin');
    return html(c, <OperatorSigninPage csrf={session.record.csrf} />);
  });

  on(app, deps, 'POST', '/dashboard/admin/signin', async (c) => {
    const { session, form } = await checkedForm(c, deps);
    const token = field(form, 'token');
    let via: OperatorCredential;
    try {
      const admin = await services.auth.authenticateAdmin(token || undefined, () => deps.address(c));
      via =
        admin === 'token'
          ? { tokenDigest: await sha256Hex(token) }
          : { accountId: admin.accountId, keyId: admin.keyId };
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) throw error;
      const message = 'That is not the admin token (nor a key with the admin scope).';
      return html(c, <OperatorSigninPage csrf={session.record.csrf} error={message} />, 401);
    }
    const next = await sessions.rotate(session, { kind: 'operator', via });
    setSessionCookie(c, next, deps);
    return seeOther(c, '/admin');
  });

  on(app, deps, 'GET', '/dashboard/admin', async (c) => {
    const session = await currentSession(c, deps);
    const { csrf } = await requireOperator(session, deps);
    const totals = await services.usage.totals(DEFAULT_USAGE_DAYS);
    const clients = services.upstream.upstreamHealth().clients;
    return html(
      c,
      <OperatorHome csrf={csrf} totals={totals} clients={clients} signupMode={settings.signupMode} />,
    );
  });

  on(app, deps, 'GET', '/dashboard/admin/accounts', async (c) => {
    const { csrf } = await requireOperator(await currentSession(c, deps), deps);
    const query = (c.req.query('q') ?? '').slice(0, 254);
    return html(c, <AccountsPage csrf={csrf} query={query} rows={await data.searchAccounts(query)} />);
  });

  on(app, deps, 'GET', '/dashboard/admin/accounts/:id', async (c) => {
    const { csrf } = await requireOperator(await currentSession(c, deps), deps);
    const accountId = c.req.param('id') ?? '';
    const { view, keys } = await data.account(accountId);
    const usage = await services.usage.report(accountId, DEFAULT_USAGE_DAYS);
    const notice = NOTICES[c.req.query('notice') ?? ''];
    return html(
      c,
      <OperatorAccountPage
        csrf={csrf}
        accountId={view.account_id}
        email={view.email ?? ''}
        credits={view.credits}
        plan={view.plan}
        keys={keys}
        days={usage.days}
        packs={{ ...settings.packs }}
        idempotencyKey={sessions.token()}
        {...(notice ? { notice } : {})}
      />,
    );
  });

  on(app, deps, 'POST', '/dashboard/admin/accounts/:id/grant', async (c) => {
    const { session, form } = await checkedForm(c, deps);
    await requireOperator(session, deps);
    const accountId = c.req.param('id') ?? '';
    const idempotencyKey = field(form, 'idempotency_key');
    if (!isWellFormedToken(idempotencyKey)) {
      throw new ApiError('invalid_request', 'The form lacks its idempotency key; reload the page.');
    }
    const pack = field(form, 'pack');
    const amountText = field(form, 'amount').trim();
    let input: { amount: number } | { pack: string };
    if (pack !== '') input = { pack };
    else if (
      /^\d{1,10}$/.test(amountText) &&
      Number(amountText) >= 1 &&
      Number(amountText) <= 1_000_000_000
    ) {
      input = { amount: Number(amountText) };
    } else {
      throw new ApiError(
        'invalid_request',
        'Give a number of credits from 1 to 1,000,000,000, or choose a pack.',
        {
          details: { field: 'amount' },
        },
      );
    }
    const result = await services.accounts.grant(accountId, input, `dashboard:${idempotencyKey}`);
    return seeOther(c, `/admin/accounts/${accountId}?notice=${result.applied ? 'granted' : 'repeated'}`);
  });

  on(app, deps, 'POST', '/dashboard/admin/keys/:id/revoke', async (c) => {
    const { session, form } = await checkedForm(c, deps);
    await requireOperator(session, deps);
    await services.accounts.revoke(c.req.param('id') ?? '');
    const accountId = field(form, 'account_id');
    const back = /^acc_[A-Za-z0-9]{1,64}$/.test(accountId) ? `/admin/accounts/${accountId}` : '/admin';
    return seeOther(c, `${back}?notice=revoked`);
  });
}
