/**
 * The signed-out pages: sign in (or sign up) by email code, the code form, and the operator's
 * sign-in with the admin token.
 * @module
 */
/** @jsxImportSource hono/jsx */

import { dashboardUrl } from './address.ts';
import { Csrf, type Html, Notice, Page } from './layout.tsx';

const VISITOR = { kind: 'visitor' } as const;

/** Step 1: the email address. */
export function SigninPage(props: { csrf: string; error?: string; note?: string }): Html {
  return (
    <Page title="Sign in to tubescribe" viewer={VISITOR}>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      {props.note ? <Notice kind="ok">{props.note}</Notice> : null}
      <p>
        Enter your email address and we send you a 6-digit code. A new address gets an account with free
        credits; an address that has one signs in.
      </p>
      <form method="post" action={dashboardUrl('/signin')} class="stack">
        <Csrf token={props.csrf} />
        <label for="email">Email address</label>
        <input id="email" name="email" type="email" autocomplete="email" required maxlength={254} />
        <button type="submit">Email me a code</button>
      </form>
    </Page>
  );
}

/** Step 2: the code that was mailed. */
export function CodePage(props: { csrf: string; email: string; error?: string }): Html {
  return (
    <Page title="Enter your code" viewer={VISITOR}>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <p>
        If <strong>{props.email}</strong> can receive mail, a 6-digit code is on its way. It is valid for 10
        minutes; three wrong codes end it.
      </p>
      <form method="post" action={dashboardUrl('/verify')} class="stack">
        <Csrf token={props.csrf} />
        <label for="code">6-digit code</label>
        <input
          id="code"
          name="code"
          type="text"
          inputmode="numeric"
          autocomplete="one-time-code"
          pattern="[0-9]{6}"
          maxlength={6}
          required
        />
        <button type="submit">Sign in</button>
      </form>
      <p>
        <a href={dashboardUrl('?again=1')}>Use another address or ask for a new code</a>
      </p>
    </Page>
  );
}

/** The operator's sign-in: the admin token (or a key with the `admin` scope). */
export function OperatorSigninPage(props: { csrf: string; error?: string }): Html {
  return (
    <Page title="Operator sign-in" viewer={VISITOR}>
      {props.error ? <Notice kind="error">{props.error}</Notice> : null}
      <p>
        Operators sign in with the server's admin token (<code>TUBESCRIBE_ADMIN_TOKEN</code>) or an API key
        with the <code>admin</code> scope. The token is checked once and never stored: the browser gets a
        7-day operator session.
      </p>
      <form method="post" action={dashboardUrl('/admin/signin')} class="stack">
        <Csrf token={props.csrf} />
        <label for="token">Admin token</label>
        <input id="token" name="token" type="password" autocomplete="current-password" required />
        <button type="submit">Sign in as operator</button>
      </form>
    </Page>
  );
}
