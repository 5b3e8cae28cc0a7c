/**
 * The operator's pages: the overview (totals per day across accounts, YouTube client health, the
 * sign-up mode), the account search, and one account (balance, plan, usage, keys with revoke, and
 * an idempotent grant form: every render carries a fresh idempotency key, so a resubmitted form
 * grants once).
 * @module
 */
/** @jsxImportSource hono/jsx */
import type { UsageDay } from '../../core/usage.ts';
import type { ClientHealth } from '../../ports/upstream.ts';
import type { AccountRow, KeyRow } from '../../services/dashboard.ts';
import { dashboardUrl } from './address.ts';
import { UsageCharts } from './chart.tsx';
import { Csrf, type Html, Notice, Page, Scroll } from './layout.tsx';

const OPERATOR = { kind: 'operator' } as const;

/** The search form and its results. */
function AccountSearch(props: { query: string; rows?: AccountRow[] }): Html {
  return (
    <div>
      <form method="get" action={dashboardUrl('/admin/accounts')} class="stack">
        <label for="q">Email or account id</label>
        <input id="q" name="q" type="search" value={props.query} />
        <button type="submit">Search</button>
      </form>
      {props.rows === undefined ? null : props.rows.length === 0 ? (
        <p>No account matches.</p>
      ) : (
        <Scroll label="Accounts found">
          <table>
            <thead>
              <tr>
                <th scope="col">Account</th>
                <th scope="col">Email</th>
                <th scope="col">Plan</th>
                <th scope="col">Keys</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {props.rows.map((row) => (
                <tr>
                  <td>
                    <a href={dashboardUrl(`/admin/accounts/${row.account_id}`)}>
                      <code>{row.account_id}</code>
                    </a>
                  </td>
                  <td>{row.email}</td>
                  <td>{row.plan}</td>
                  <td>{row.keys}</td>
                  <td>{row.created_at.slice(0, 10)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
    </div>
  );
}

/** `/dashboard/admin`. */
export function OperatorHome(props: {
  csrf: string;
  totals: UsageDay[];
  clients: ClientHealth[];
  signupMode: string;
}): Html {
  return (
    <Page title="Operator overview" viewer={OPERATOR} csrf={props.csrf}>
      <h2>Find an account</h2>
      <AccountSearch query="" />
      <h2>All accounts, last {props.totals.length} days</h2>
      <UsageCharts days={props.totals} idPrefix="totals" />
      <h2>YouTube clients</h2>
      {props.clients.length === 0 ? (
        <p class="muted">This upstream reports no client health.</p>
      ) : (
        <Scroll label="YouTube clients">
          <table>
            <thead>
              <tr>
                <th scope="col">Client</th>
                <th scope="col">State</th>
                <th scope="col">Last success</th>
                <th scope="col">Failures in a row</th>
              </tr>
            </thead>
            <tbody>
              {props.clients.map((client) => (
                <tr>
                  <td>{client.name}</td>
                  <td class={`state-${client.state}`}>{client.state.replace('_', '-')}</td>
                  <td>{client.last_success_at ?? 'never'}</td>
                  <td>{client.recent_failures}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Scroll>
      )}
      <h2>Agent sign-up</h2>
      <p>
        Mode: <strong id="signup-mode">{props.signupMode}</strong> (set with the <code>signup.mode</code>{' '}
        option: <code>on</code>, <code>paused</code> or <code>off</code>).
      </p>
    </Page>
  );
}

/** `/dashboard/admin/accounts?q=…`. */
export function AccountsPage(props: { csrf: string; query: string; rows: AccountRow[] }): Html {
  return (
    <Page title="Accounts" viewer={OPERATOR} csrf={props.csrf}>
      <AccountSearch query={props.query} rows={props.rows} />
    </Page>
  );
}

/** What one account's operator page shows. */
export interface OperatorAccountData {
  csrf: string;
  accountId: string;
  email: string;
  credits: number;
  plan: string;
  keys: KeyRow[];
  days: UsageDay[];
  packs: Record<string, number>;
  idempotencyKey: string;
  notice?: string;
}

/** `/dashboard/admin/accounts/{id}`. */
export function OperatorAccountPage(props: OperatorAccountData): Html {
  const base = dashboardUrl(`/admin/accounts/${props.accountId}`);
  return (
    <Page title={`Account ${props.accountId}`} viewer={OPERATOR} csrf={props.csrf}>
      {props.notice ? <Notice kind="ok">{props.notice}</Notice> : null}
      <div class="cards">
        <div class="card">
          <div class="label">Credits</div>
          <div class="big" id="credits">
            {props.credits}
          </div>
        </div>
        <div class="card">
          <div class="label">Plan</div>
          <div class="big">{props.plan}</div>
        </div>
        <div class="card">
          <div class="label">Email</div>
          <div>{props.email || '—'}</div>
        </div>
      </div>
      <h2>Grant credits</h2>
      <form method="post" action={`${base}/grant`} class="stack">
        <Csrf token={props.csrf} />
        <input type="hidden" name="idempotency_key" value={props.idempotencyKey} />
        <label for="amount">Credits (or choose a pack below)</label>
        <input id="amount" name="amount" type="number" min={1} max={1_000_000_000} />
        <label for="pack">Pack (moves the account to the paid plan)</label>
        <select id="pack" name="pack">
          <option value="">no pack</option>
          {Object.entries(props.packs).map(([name, amount]) => (
            <option value={name}>{`${name}: ${amount} credits`}</option>
          ))}
        </select>
        <button type="submit">Grant</button>
      </form>
      <h2>Keys</h2>
      <Scroll label="Keys">
        <table>
          <thead>
            <tr>
              <th scope="col">Key</th>
              <th scope="col">Name</th>
              <th scope="col">Scopes</th>
              <th scope="col">Created</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {props.keys.map((key) => (
              <tr>
                <td>
                  <code>{key.key_id}</code>
                </td>
                <td>{key.name}</td>
                <td>{key.scopes.join(', ')}</td>
                <td>{key.created_at.slice(0, 10)}</td>
                <td>
                  {key.revoked ? (
                    'revoked'
                  ) : (
                    <form
                      method="post"
                      action={dashboardUrl(`/admin/keys/${key.key_id}/revoke`)}
                      class="inline"
                    >
                      <Csrf token={props.csrf} />
                      <input type="hidden" name="account_id" value={props.accountId} />
                      <button type="submit" class="danger" aria-label={`Revoke ${key.key_id}`}>
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
      <h2>Usage, last {props.days.length} days</h2>
      <UsageCharts days={props.days} idPrefix="acct" />
    </Page>
  );
}
