/**
 * The dashboard embedded under a path: Express `app.use('/youtube', …)` over a real socket, Hono
 * `app.route('/api', …)`, and Hono `app.mount` with a public URL naming the path. Every link, form,
 * asset and redirect of the pages stays under the prefix; a visitor signs up through the forms; the
 * quick start's examples call the prefixed API.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createNodeApp } from '../../adapters/node/index.ts';
import { FakeUpstream } from '../fakes/upstream.ts';
import { ADMIN, testApp } from '../helpers/app.ts';
import { CapturingMailer, HIGH_THROTTLES } from '../signup/support.ts';

/** Sends a request to `path` (the prefix included) of the site under test. */
type Send = (path: string, init: RequestInit) => Promise<Response>;

/** Every address a page names in `href`, `action` and `src` (in-page anchors left out). */
function addressesOf(html: string): string[] {
  return [...html.matchAll(/\b(?:href|action|src)="([^"#][^"]*)"/g)].map((m) =>
    m[1]!.replaceAll('&amp;', '&'),
  );
}

/** A cookie-keeping browser that sends the site's Origin and the page's CSRF token with each form. */
class Browser {
  private cookie = '';
  private csrf = '';
  constructor(
    private readonly send: Send,
    private readonly origin: string,
  ) {}

  private async answer(res: Response): Promise<{ res: Response; body: string }> {
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    const body = await res.text();
    const token = /name="csrf" value="([^"]+)"/.exec(body)?.[1];
    if (token) this.csrf = token;
    return { res, body };
  }

  async get(path: string) {
    return this.answer(await this.send(path, { headers: { accept: 'text/html', cookie: this.cookie } }));
  }

  async post(path: string, fields: Record<string, string>) {
    const body = new URLSearchParams({ csrf: this.csrf, ...fields }).toString();
    const headers = {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      origin: this.origin,
      cookie: this.cookie,
    };
    return this.answer(await this.send(path, { method: 'POST', headers, body, redirect: 'manual' }));
  }
}

/**
 * Walks the dashboard under `prefix` as a new visitor: every address a page names is under the
 * prefix and answers; the sign-up forms redirect under it; the quick start calls `apiBase`.
 */
async function walk(send: Send, origin: string, prefix: string, apiBase: string, mailer: CapturingMailer) {
  const dashboard = `${prefix}/dashboard`;
  const b = new Browser(send, origin);
  const home = await b.get(dashboard);
  expect(home.res.status).toBe(200);
  const visited = new Set<string>();
  const checkAddresses = async (html: string) => {
    const addresses = addressesOf(html);
    expect(addresses.length).toBeGreaterThan(0);
    for (const address of addresses) {
      if (address.startsWith('http')) continue; // the quick start's examples, checked below
      expect(address.startsWith(dashboard), address).toBe(true);
      const path = address.split('?')[0]!;
      if (visited.has(path) || /\/(signin|verify|signout|revoke)$/.test(path) || path.endsWith('/keys'))
        continue;
      visited.add(path);
      expect((await b.get(path)).res.status, path).toBe(200);
    }
  };
  await checkAddresses(home.body);

  const sent = await b.post(`${dashboard}/signin`, { email: 'mounted.person@gmail.com' });
  expect(sent.res.status).toBe(303);
  expect(sent.res.headers.get('location')).toBe(`${dashboard}/code`);
  const codePage = await b.get(`${dashboard}/code`);
  await checkAddresses(codePage.body);
  const welcome = await b.post(`${dashboard}/verify`, { code: mailer.codeFor('mounted.person@gmail.com') });
  expect(welcome.res.status).toBe(201);
  expect(welcome.body).toContain('Welcome!');
  await checkAddresses(welcome.body);

  const start = await b.get(`${dashboard}/start`);
  expect(start.res.status).toBe(200);
  expect(start.body).toContain(`${apiBase}/v1/transcripts?video_id=`);
  expect(start.body).toContain(`href="${apiBase}/docs"`);
  await checkAddresses(start.body);

  // The operator's pages: the account just made is one of them, with its own forms.
  const operator = new Browser(send, origin);
  await operator.get(`${dashboard}/admin/signin`);
  const signedIn = await operator.post(`${dashboard}/admin/signin`, { token: ADMIN });
  expect(signedIn.res.status).toBe(303);
  expect(signedIn.res.headers.get('location')).toBe(`${dashboard}/admin`);
  const accounts = await operator.get(`${dashboard}/admin/accounts?q=mounted`);
  expect(accounts.res.status).toBe(200);
  for (const page of [await operator.get(`${dashboard}/admin`), accounts]) {
    const before = visited.size;
    for (const address of addressesOf(page.body)) {
      expect(address.startsWith(dashboard), address).toBe(true);
      const path = address.split('?')[0]!;
      if (visited.has(path) || /\/(signin|signout|grant|revoke)$/.test(path)) continue;
      visited.add(path);
      expect((await operator.get(path)).res.status, path).toBe(200);
    }
    expect(visited.size).toBeGreaterThan(before);
  }
  expect([...visited].some((path) => path.startsWith(`${dashboard}/admin/accounts/acc_`))).toBe(true);
}

function options(mailer: CapturingMailer) {
  return {
    mailer,
    adminToken: ADMIN,
    upstream: new FakeUpstream(),
    signup: { throttles: HIGH_THROTTLES },
  };
}

describe('the dashboard under a mount path', () => {
  it('Express app.use("/youtube"): pages, forms, assets and redirects stay under the path', async () => {
    const mailer = new CapturingMailer();
    const { handler, tubescribe } = createNodeApp({ ...options(mailer), limits: { reconcileIntervalMs: 0 } });
    const server = express().use('/youtube', handler).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await walk(
        (path, init) => fetch(`${origin}${path}`, init),
        origin,
        '/youtube',
        `${origin}/youtube`,
        mailer,
      );
    } finally {
      server.close();
      await tubescribe.close();
    }
  });

  it('Hono app.route("/api"): the pages answer under the path and name it', async () => {
    const mailer = new CapturingMailer();
    const t = await testApp(options(mailer));
    const outer = new Hono().route('/api', t.ts.app);
    const origin = 'http://localhost';
    await walk(
      (path, init) => Promise.resolve(outer.request(`${origin}${path}`, init)),
      origin,
      '/api',
      `${origin}/api`,
      mailer,
    );
  });

  it('Hono app.mount with a public URL: the public URL names the path the request hides', async () => {
    const mailer = new CapturingMailer();
    const publicUrl = 'https://example.org/yt';
    const t = await testApp({ ...options(mailer), publicUrl });
    const outer = new Hono();
    outer.mount('/yt', t.ts.fetch);
    // The pages take the public URL's origin as their own (a form must come from it).
    const origin = 'https://example.org';
    await walk(
      (path, init) => Promise.resolve(outer.request(`${origin}${path}`, init)),
      origin,
      '/yt',
      publicUrl,
      mailer,
    );
  });

  it('at the root nothing changes: every address is under /dashboard', async () => {
    const mailer = new CapturingMailer();
    const t = await testApp(options(mailer));
    const origin = 'http://localhost';
    await walk(
      (path, init) => Promise.resolve(t.ts.app.request(`${origin}${path}`, init)),
      origin,
      '',
      origin,
      mailer,
    );
  });
});
