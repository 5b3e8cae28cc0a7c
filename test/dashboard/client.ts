/**
 * A small cookie-keeping "browser" over `app.request` for the dashboard's fast tests: it keeps
 * the session cookie, sends the site's Origin and the page's CSRF token with every form, and
 * follows nothing (tests look at each answer).
 */
import { nodeEnv, type SignupHarness, signupHarness } from '../signup/support.ts';

export const ORIGIN = 'http://localhost';

/** A browser session against the harness's app. */
export class DashClient {
  cookie: string | undefined;
  csrf = '';

  constructor(
    readonly t: SignupHarness,
    readonly ip = '192.0.2.10',
  ) {}

  /** The session id the cookie holds. */
  get sessionId(): string | undefined {
    return this.cookie?.split('=')[1];
  }

  private keep(res: Response): Response {
    const set = res.headers.get('set-cookie');
    if (set) {
      const pair = set.split(';')[0]!;
      this.cookie = pair.endsWith('=') ? undefined : pair;
    }
    return res;
  }

  /** A GET as a browser sends it; remembers the page's CSRF token. */
  async get(path: string, accept = 'text/html'): Promise<{ res: Response; body: string }> {
    const headers: Record<string, string> = { accept };
    if (this.cookie) headers.cookie = this.cookie;
    const res = this.keep(await this.t.ts.app.request(`${ORIGIN}${path}`, { headers }, nodeEnv(this.ip)));
    const body = await res.text();
    const token = /name="csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { res, body };
  }

  /** A form POST with the CSRF token (unless `fields.csrf` overrides it) and an Origin. */
  async post(
    path: string,
    fields: Record<string, string | string[]> = {},
    options: { origin?: string | null; accept?: string } = {},
  ): Promise<{ res: Response; body: string }> {
    const form = new URLSearchParams();
    if (!('csrf' in fields)) form.set('csrf', this.csrf);
    for (const [name, value] of Object.entries(fields)) {
      for (const v of Array.isArray(value) ? value : [value]) form.append(name, v);
    }
    const headers: Record<string, string> = {
      accept: options.accept ?? 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
    };
    const origin = options.origin === undefined ? ORIGIN : options.origin;
    if (origin !== null) headers.origin = origin;
    if (this.cookie) headers.cookie = this.cookie;
    const res = this.keep(
      await this.t.ts.app.request(
        `${ORIGIN}${path}`,
        { method: 'POST', headers, body: form.toString() },
        nodeEnv(this.ip),
      ),
    );
    const body = await res.text();
    const token = /name="csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { res, body };
  }

  /** Signs `email` in (or up) through the pages; returns the answer to the code form. */
  async signIn(email: string): Promise<{ res: Response; body: string }> {
    await this.get('/dashboard');
    const sent = await this.post('/dashboard/signin', { email });
    if (sent.res.status !== 303) throw new Error(`sign-in form answered ${sent.res.status}: ${sent.body}`);
    await this.get('/dashboard/code');
    return this.post('/dashboard/verify', { code: this.t.mailer.codeFor(email) });
  }
}

/** A sign-up harness for the dashboard. */
export function dashboardHarness(options: Parameters<typeof signupHarness>[0] = {}): Promise<SignupHarness> {
  return signupHarness(options);
}

/** The API key a page shows once. */
export function shownKey(body: string): string | undefined {
  return /id="new-key"[^>]*>(tsk_[A-Za-z0-9]{38})</.exec(body)?.[1];
}
