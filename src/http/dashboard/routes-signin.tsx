/**
 * Signing in and out at `/dashboard`: the email form, the code form, the code check (a new
 * session id on success, so a session cannot be fixed), and sign-out (the record is deleted and
 * the cookie cleared).
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { Hono } from 'hono';
import { ApiError } from '../../errors.ts';
import type { SignupClient } from '../../services/signup.ts';
import type { AppContext, AppEnv, MountDeps } from '../context.ts';
import { apiBase } from './address.ts';
import { on } from './guard.ts';
import { KeysPage } from './pages-keys.tsx';
import { CodePage, SigninPage } from './pages-signin.tsx';
import { html, seeOther } from './respond.tsx';
import { checkedForm, clearSessionCookie, field, sessionOrVisitor, setSessionCookie } from './session.ts';

/** Errors after which the pending code is dead: start again with a new one. */
const DEAD_CODE = new Set(['invalid_signup_token', 'code_expired', 'too_many_attempts', 'account_exists']);

function clientOf(c: AppContext, deps: MountDeps): SignupClient {
  const base = apiBase(c, deps.settings);
  return { address: deps.address(c), baseUrl: base, verifyUrl: `${base}/api/agent/verify` };
}

/** Mounts the sign-in pages. */
export function mountSignin(app: Hono<AppEnv>, deps: MountDeps): void {
  const { sessions, signin, data } = deps.services.dashboard;

  on(app, deps, 'POST', '/dashboard/signin', async (c) => {
    const { session, form } = await checkedForm(c, deps);
    if (session.record.subject.kind !== 'visitor') return seeOther(c, '');
    const email = field(form, 'email');
    try {
      const sent = await signin.request(email, clientOf(c, deps));
      await sessions.update(session, { kind: 'visitor', signupToken: sent.token, email: sent.email });
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) throw error;
      return html(c, <SigninPage csrf={session.record.csrf} error={error.message} />, error.status);
    }
    return seeOther(c, '/code');
  });

  on(app, deps, 'GET', '/dashboard/code', async (c) => {
    const session = await sessionOrVisitor(c, deps);
    const subject = session.record.subject;
    if (subject.kind !== 'visitor' || subject.signupToken === undefined) return seeOther(c, '');
    return html(c, <CodePage csrf={session.record.csrf} email={subject.email ?? ''} />);
  });

  on(app, deps, 'POST', '/dashboard/verify', async (c) => {
    const { session, form } = await checkedForm(c, deps);
    const subject = session.record.subject;
    if (subject.kind !== 'visitor' || subject.signupToken === undefined) return seeOther(c, '');
    const code = field(form, 'code').trim();
    let result: Awaited<ReturnType<typeof signin.verify>>;
    try {
      if (!/^\d{6}$/.test(code)) throw new ApiError('invalid_code', 'The code is 6 digits.');
      result = await signin.verify(subject.signupToken, code, clientOf(c, deps));
    } catch (error) {
      if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429) throw error;
      if (DEAD_CODE.has(error.code)) {
        await sessions.update(session, { kind: 'visitor' });
        return html(c, <SigninPage csrf={session.record.csrf} error={error.message} />, error.status);
      }
      return html(
        c,
        <CodePage csrf={session.record.csrf} email={subject.email ?? ''} error={error.message} />,
        error.status,
      );
    }
    const next = await sessions.rotate(session, {
      kind: 'account',
      accountId: result.accountId,
      email: result.email,
    });
    setSessionCookie(c, next, deps);
    if (result.kind === 'signed_in') return seeOther(c, '');
    const { keys } = await data.account(result.accountId);
    const first = keys[0];
    if (first) await data.nameKey(result.accountId, first.key_id, 'First key');
    const named = (await data.account(result.accountId)).keys;
    return html(
      c,
      <KeysPage
        email={result.email}
        csrf={next.record.csrf}
        keys={named}
        lastUsed={{}}
        fresh={{ apiKey: result.apiKey, name: 'First key', welcomeCredits: result.credits }}
      />,
      201,
    );
  });

  on(app, deps, 'POST', '/dashboard/signout', async (c) => {
    const { session } = await checkedForm(c, deps);
    await sessions.end(session.id);
    clearSessionCookie(c, deps);
    return seeOther(c, '');
  });
}
