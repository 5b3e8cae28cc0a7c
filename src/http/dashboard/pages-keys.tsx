/**
 * The API keys page: the account's keys (name, prefix, scopes, created, last used, state) with a
 * revoke button each, and the form that creates one. A new key's secret appears once, on the
 * answer to the form (or to a sign-up), and is never stored or shown again.
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { Scope } from '../../services/accounts.ts';
import type { KeyRow } from '../../services/dashboard.ts';
import { dashboardUrl } from './address.ts';
import { Csrf, type Html, Notice, Page, Scroll, SecretOnce } from './layout.tsx';

/** The scopes a person may give a key (admin keys are the operator's). */
export const PERSON_SCOPES: readonly Scope[] = ['transcripts:read', 'transcripts:stream', 'data:read'];

/** A secret that was just created, to show once. */
export interface FreshKey {
  apiKey: string;
  name: string;
  /** Set when the key came with a new account (sign-up). */
  welcomeCredits?: number;
}

/** What the keys page shows. */
export interface KeysData {
  email: string;
  csrf: string;
  keys: KeyRow[];
  lastUsed: Record<string, string>;
  fresh?: FreshKey;
  notice?: string;
}

function KeysTable(props: { keys: KeyRow[]; csrf: string; lastUsed: Record<string, string> }): Html {
  if (props.keys.length === 0) return <p class="muted">No keys yet.</p>;
  return (
    <Scroll label="API keys">
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Key</th>
            <th scope="col">Scopes</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {props.keys.map((key) => (
            <tr>
              <td>{key.name || <span class="muted">(unnamed)</span>}</td>
              <td>
                <code>{key.revoked ? key.key_id : key.hint}</code>
              </td>
              <td>{key.scopes.join(', ')}</td>
              <td>{key.created_at.slice(0, 10)}</td>
              <td>
                {props.lastUsed[key.key_id]?.slice(0, 16).replace('T', ' ') ?? (
                  <span class="muted">never</span>
                )}
              </td>
              <td>
                {key.revoked ? (
                  'revoked'
                ) : (
                  <form method="post" action={dashboardUrl(`/keys/${key.key_id}/revoke`)} class="inline">
                    <Csrf token={props.csrf} />
                    <button type="submit" class="danger" aria-label={`Revoke ${key.name || key.key_id}`}>
                      Revoke
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Scroll>
  );
}

/** `/dashboard/keys`. */
export function KeysPage(props: KeysData): Html {
  const { fresh } = props;
  return (
    <Page title="API keys" viewer={{ kind: 'account', email: props.email }} csrf={props.csrf}>
      {fresh ? (
        <Notice kind="ok">
          {fresh.welcomeCredits !== undefined ? (
            <p>
              Welcome! Your account is ready with {fresh.welcomeCredits} credits, and here is its first key.
            </p>
          ) : null}
          <p>
            Your new key <strong>{fresh.name}</strong>. Copy it now: it is shown this once and cannot be shown
            again.
          </p>
          <SecretOnce id="new-key" value={fresh.apiKey} label="Your new API key" />
        </Notice>
      ) : null}
      {props.notice ? <Notice kind="ok">{props.notice}</Notice> : null}
      <h2>Your keys</h2>
      <KeysTable keys={props.keys} csrf={props.csrf} lastUsed={props.lastUsed} />
      <h2>Create a key</h2>
      <form method="post" action={dashboardUrl('/keys')} class="stack">
        <Csrf token={props.csrf} />
        <label for="key-name">Name</label>
        <input id="key-name" name="name" type="text" required maxlength={60} placeholder="e.g. my server" />
        <fieldset>
          <legend>Scopes</legend>
          {PERSON_SCOPES.map((scope) => (
            <div>
              <input type="checkbox" id={`scope-${scope}`} name="scopes" value={scope} checked />{' '}
              <label for={`scope-${scope}`}>{scope}</label>
            </div>
          ))}
        </fieldset>
        <button type="submit">Create key</button>
      </form>
    </Page>
  );
}
