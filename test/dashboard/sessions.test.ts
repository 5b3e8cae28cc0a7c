/**
 * The dashboard's sessions and forms over app.request: sign-up and sign-in by email code, a new
 * session id at sign-in (no fixation), sign-out and expiry end a session, CSRF token and Origin
 * checks on every POST, and errors as pages or envelopes.
 */
import { describe, expect, it } from 'vitest';
import { SESSION_LIFETIME_MS } from '../../src/core/session.ts';
import { DashClient, dashboardHarness, shownKey } from './client.ts';

describe('sign-up and sign-in by email code', () => {
  it('signs a new address up: a new session, 200 credits, a first key shown once that works', async () => {
    const t = await dashboardHarness();
    const b = new DashClient(t);
    await b.get('/dashboard');
    const visitorId = b.sessionId;
    expect(visitorId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const done = await b.signIn('new.person@gmail.com');
    expect(done.res.status).toBe(201);
    expect(b.sessionId).not.toBe(visitorId);
    const key = shownKey(done.body);
    expect(key).toBeDefined();
    const before = await b.get('/dashboard/keys');
    expect(before.body).toContain('<span class="muted">never</span>');
    const account = await t.call('/v1/account', { key: key! });
    expect(account.status).toBe(200);
    expect((await account.json()).credits).toBe(200);
    await t.ts.services.auth.touches.settled();
    const keys = await b.get('/dashboard/keys');
    expect(keys.body).toContain('First key');
    expect(keys.body).not.toContain(key);
    // The key's last use, to the minute.
    expect(keys.body).toContain(
      `<td>${new Date(t.clock.now()).toISOString().slice(0, 16).replace('T', ' ')}</td>`,
    );
    expect(keys.body).not.toContain('<span class="muted">never</span>');
    const home = await b.get('/dashboard');
    expect(home.body).toContain('id="credits">200<');
  });

  it('signs an existing address in without creating a key or granting again', async () => {
    const t = await dashboardHarness();
    await new DashClient(t).signIn('someone@gmail.com');
    const b = new DashClient(t, '192.0.2.99');
    const again = await b.signIn('some.one+x@gmail.com');
    expect(again.res.status).toBe(303);
    expect(again.res.headers.get('location')).toBe('/dashboard');
    const home = await b.get('/dashboard');
    expect(home.body).toContain('id="credits">200<');
    const keys = await b.get('/dashboard/keys');
    expect(keys.body.match(/Revoke<\/button>/g)).toHaveLength(1);
  });

  it('answers the email form identically whether or not the address has an account', async () => {
    const t = await dashboardHarness();
    await new DashClient(t).signIn('known@gmail.com');
    const answers = [];
    for (const email of ['known@gmail.com', 'unknown@gmail.com']) {
      const b = new DashClient(t, '198.51.100.20');
      await b.get('/dashboard');
      const sent = await b.post('/dashboard/signin', { email });
      const code = await b.get('/dashboard/code');
      answers.push([
        sent.res.status,
        sent.res.headers.get('location'),
        sent.body,
        code.body.replace(email, 'X').replace(/value="[^"]+"/, ''),
      ]);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect(t.mailer.messages.map((m) => m.to)).toEqual([
      'known@gmail.com',
      'known@gmail.com',
      'unknown@gmail.com',
    ]);
  });

  it('answers a wrong code on the code page, and ends the code after three', async () => {
    const t = await dashboardHarness();
    const b = new DashClient(t);
    await b.get('/dashboard');
    await b.post('/dashboard/signin', { email: 'wrong@gmail.com' });
    const right = t.mailer.codeFor('wrong@gmail.com');
    const wrong = right === '000000' ? '111111' : '000000';
    const first = await b.post('/dashboard/verify', { code: wrong });
    expect(first.res.status).toBe(400);
    expect(first.body).toContain('name="code"');
    await b.post('/dashboard/verify', { code: wrong });
    const third = await b.post('/dashboard/verify', { code: wrong });
    expect(third.body).toContain('name="email"');
    const late = await b.post('/dashboard/verify', { code: right });
    expect(late.res.status).toBe(303);
    expect((await b.get('/dashboard')).body).toContain('name="email"');
  });
});

describe('sessions', () => {
  it('refuses the visitor id after sign-in (fixation) and the account id after sign-out', async () => {
    const t = await dashboardHarness();
    const b = new DashClient(t);
    await b.get('/dashboard');
    const planted = b.cookie;
    await b.signIn('fix@gmail.com');
    const attacker = new DashClient(t);
    attacker.cookie = planted;
    const stolen = await attacker.get('/dashboard/keys', 'application/json');
    expect(stolen.res.status).toBe(401);
    expect(JSON.parse(stolen.body).error.code).toBe('session_required');

    const signedIn = b.cookie;
    await b.get('/dashboard/keys');
    const out = await b.post('/dashboard/signout');
    expect(out.res.status).toBe(303);
    expect(out.res.headers.get('set-cookie')).toContain('Max-Age=0');
    const replay = new DashClient(t);
    replay.cookie = signedIn;
    const page = await replay.get('/dashboard/keys');
    expect(page.res.status).toBe(401);
    expect(page.body).toContain('<!DOCTYPE html>');
    expect(page.body).toContain('session_required');
  });

  it('expires a session after 7 days', async () => {
    const t = await dashboardHarness();
    const b = new DashClient(t);
    await b.signIn('expire@gmail.com');
    expect((await b.get('/dashboard/keys')).res.status).toBe(200);
    t.clock.advance(SESSION_LIFETIME_MS);
    expect((await b.get('/dashboard/keys', 'application/json')).res.status).toBe(401);
  });

  it('sets an HttpOnly SameSite=Lax cookie, Secure with __Host- when the public URL is https', async () => {
    const plain = new DashClient(await dashboardHarness());
    const res = (await plain.get('/dashboard')).res.headers.get('set-cookie')!;
    expect(res).toMatch(
      /^tubescribe_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=3600$/,
    );
    const secure = new DashClient(await dashboardHarness({ publicUrl: 'https://dash.example' }));
    const cookie = (await secure.get('/dashboard')).res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Host-tubescribe_session=.*; Secure$/);
  });
});

describe('CSRF', () => {
  it.each([
    ['no token', { csrf: '' }, {}],
    ['a wrong token', { csrf: 'x'.repeat(43) }, {}],
    ['another origin', {}, { origin: 'https://evil.example' }],
    ['no Origin and no Referer', {}, { origin: null }],
  ])('refuses a form with %s (403 csrf_rejected)', async (_name, fields, options) => {
    const t = await dashboardHarness();
    const b = new DashClient(t);
    await b.signIn('csrf@gmail.com');
    await b.get('/dashboard/keys');
    const res = await b.post(
      '/dashboard/keys',
      { name: 'x', ...fields },
      { ...options, accept: 'application/json' },
    );
    expect(res.res.status).toBe(403);
    expect(JSON.parse(res.body).error.code).toBe('csrf_rejected');
    const keys = await b.get('/dashboard/keys');
    expect(keys.body.match(/Revoke<\/button>/g)).toHaveLength(1);
  });

  it('refuses a sign-in form from another origin before anything is mailed', async () => {
    const t = await dashboardHarness();
    const b = new DashClient(t);
    await b.get('/dashboard');
    const res = await b.post(
      '/dashboard/signin',
      { email: 'x@gmail.com' },
      { origin: 'https://evil.example' },
    );
    expect(res.res.status).toBe(403);
    expect(res.body).toContain('csrf_rejected');
    expect(t.mailer.messages).toHaveLength(0);
  });
});

describe('errors', () => {
  it('is absent when switched off', async () => {
    const b = new DashClient(await dashboardHarness({ dashboard: false }));
    expect((await b.get('/dashboard', 'application/json')).res.status).toBe(404);
    expect(b.cookie).toBeUndefined();
  });

  it('answers an unknown dashboard page as a page or as the envelope', async () => {
    const b = new DashClient(await dashboardHarness());
    const page = await b.get('/dashboard/nope');
    expect(page.res.status).toBe(404);
    expect(page.res.headers.get('content-type')).toContain('text/html');
    const json = await b.get('/dashboard/nope', 'application/json');
    expect(JSON.parse(json.body)).toMatchObject({ error: { code: 'not_found', retryable: false } });
  });
});
