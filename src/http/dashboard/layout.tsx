/**
 * The dashboard's page shell: document head (own style sheet, no CDN), a skip link, the top bar
 * with the navigation of whoever is signed in and a sign-out form, the main landmark, and the
 * small building blocks every page shares (notices, the CSRF field, the copy-once secret).
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { Child } from 'hono/jsx';
import type { HtmlEscapedString } from 'hono/utils/html';
import { dashboardUrl } from './address.ts';

/** What a component renders to. */
export type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

/** Who the page is for: nobody yet, an account, or the operator. */
export type Viewer = { kind: 'visitor' } | { kind: 'account'; email: string } | { kind: 'operator' };

/** A page's frame. */
export interface PageProps {
  title: string;
  viewer: Viewer;
  /** The session's CSRF token (for the sign-out form). */
  csrf?: string;
  children?: Child;
}

/** The hidden CSRF field every form carries. */
export function Csrf(props: { token: string }): Html {
  return <input type="hidden" name="csrf" value={props.token} />;
}

/** A message box; `error` ones are announced to screen readers at once. */
export function Notice(props: { kind?: 'info' | 'ok' | 'error'; children?: Child }): Html {
  const kind = props.kind ?? 'info';
  return (
    <div class={`notice ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {props.children}
    </div>
  );
}

/**
 * A box that scrolls sideways when its content is wider than a phone's screen; focusable and
 * named, so keyboard users can scroll it too.
 */
export function Scroll(props: { label: string; class?: string; children?: Child }): Html {
  return (
    <section class={props.class ?? 'scroll'} aria-label={props.label} tabindex={0}>
      {props.children}
    </section>
  );
}

/** A secret shown once, with a copy button (visible only when the script runs). */
export function SecretOnce(props: { id: string; value: string; label: string }): Html {
  return (
    <div class="secret">
      <span class="muted">{props.label}:</span>
      <code id={props.id}>{props.value}</code>
      <button type="button" class="secondary" data-copy={props.id} hidden>
        Copy
      </button>
    </div>
  );
}

function Nav(props: { viewer: Viewer }): Html {
  if (props.viewer.kind === 'account') {
    return (
      <nav aria-label="Dashboard">
        <ul>
          <li>
            <a href={dashboardUrl()}>Overview</a>
          </li>
          <li>
            <a href={dashboardUrl('/keys')}>API keys</a>
          </li>
          <li>
            <a href={dashboardUrl('/start')}>Quick start</a>
          </li>
        </ul>
      </nav>
    );
  }
  if (props.viewer.kind === 'operator') {
    return (
      <nav aria-label="Operator">
        <ul>
          <li>
            <a href={dashboardUrl('/admin')}>Operator overview</a>
          </li>
          <li>
            <a href={dashboardUrl('/admin/accounts')}>Accounts</a>
          </li>
        </ul>
      </nav>
    );
  }
  return (
    <nav aria-label="Sign in">
      <ul>
        <li>
          <a href={dashboardUrl()}>Sign in</a>
        </li>
        <li>
          <a href={dashboardUrl('/admin/signin')}>Operator sign-in</a>
        </li>
      </ul>
    </nav>
  );
}

/** The whole HTML document of a page. */
export function Page(props: PageProps): Html {
  const signedIn = props.viewer.kind !== 'visitor';
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${props.title} · tubescribe`}</title>
        <link rel="stylesheet" href={dashboardUrl('/style.css')} />
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <a class="brand" href={dashboardUrl()}>
            tubescribe
          </a>
          <Nav viewer={props.viewer} />
          {signedIn && props.csrf !== undefined ? (
            <form method="post" action={dashboardUrl('/signout')} class="inline">
              <Csrf token={props.csrf} />
              {props.viewer.kind === 'account' ? <span class="muted">{props.viewer.email} </span> : null}
              <button type="submit" class="secondary">
                Sign out
              </button>
            </form>
          ) : null}
        </header>
        <main id="main">
          <h1>{props.title}</h1>
          {props.children}
        </main>
        <script src={dashboardUrl('/copy.js')} defer></script>
      </body>
    </html>
  );
}
