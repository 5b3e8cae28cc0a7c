/**
 * Agent sign-up through HTTP (`app.request`): POST /api/agent/signup and /api/agent/verify, every
 * row of the contract's state table and every code of its sign-up error table, the verify record
 * with a working `example_request` and `docs`, the free plan of the new key, the operator switches,
 * and sign-up mounted alone (`routes: 'signup'`) beside a data app on the same storage.
 */
import { describe, expect, it } from 'vitest';
import { SIGNUP_SETTINGS } from '../../src/core/signup-settings.ts';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import type { Lookup, MxRecord, Resolver } from '../../src/ports/dns.ts';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { testApp } from '../helpers/app.ts';
import { expectError, expectJson } from '../helpers/http.ts';
import { signupHarness, storedKeys, type VerifyBody } from './support.ts';

const EXAMPLE_VIDEO = SIGNUP_SETTINGS.exampleVideoId;

describe('POST /api/agent/signup', () => {
  it('answers code_sent with the contract fields and mails a 6-digit code to the address as typed', async () => {
    const t = await signupHarness();
    const res = await t.signup('  Ada.Lovelace+tubes@Example.COM ');
    const body = await expectJson<Record<string, unknown>>(res);
    expect(Object.keys(body).sort()).toEqual(['expires_in', 'next', 'signup_token', 'status']);
    expect(body).toEqual({
      status: 'code_sent',
      signup_token: expect.stringMatching(/^sut_[0-9A-Za-z]{32}$/),
      expires_in: 600,
      next: expect.stringContaining('http://localhost/api/agent/verify'),
    });
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);
    expect(t.mailer.messages).toHaveLength(1);
    const mail = t.mailer.messages[0]!;
    expect(mail.to).toBe('Ada.Lovelace+tubes@example.com');
    expect(mail.text).toMatch(/code is \d{6}\b/);
    expect(mail.text).toContain('valid for 10 minutes');
    expect(mail.subject).toContain(t.mailer.codeFor(mail.to));
  });

  it('invalid_email for malformed addresses, a missing field and non-string values; nothing is mailed', async () => {
    const t = await signupHarness();
    const malformed = [
      'plainaddress',
      '@example.com',
      'ada@',
      'ada@@example.com',
      'ada@b@example.com',
      'ada..b@example.com',
      '.ada@example.com',
      'ada.@example.com',
      'ada lovelace@example.com',
      'ada@example',
      'ada@-example.com',
      'ada@example-.com',
      'ada@example.c',
      'ada@example.123',
      'ada@[192.0.2.1]',
      'ada@192.0.2.1',
      'adä@example.com',
      'ada@exämple.com',
      '"ada"@example.com',
      'ada(comment)@example.com',
      'ada@example.com.',
      `${'a'.repeat(65)}@example.com`,
      `ada@${'a'.repeat(64)}.com`,
      `ada@${'abcdefghi.'.repeat(25)}com`,
      '',
      '   ',
    ];
    for (const email of malformed) {
      const error = await expectError(await t.signup(email), 400, 'invalid_email');
      if (email.trim() !== '') expect(error.message, email).not.toContain(email); // never echoed
    }
    await expectError(await t.post('/api/agent/signup', {}), 400, 'invalid_email');
    await expectError(await t.post('/api/agent/signup', ''), 400, 'invalid_email');
    for (const value of [42, null, true, ['ada@example.com'], { address: 'ada@example.com' }]) {
      await expectError(await t.signup(value), 400, 'invalid_email');
    }
    expect(t.mailer.attempts).toBe(0);
  });

  it('disposable_email for a domain of the npm list and for a subdomain of one (any case)', async () => {
    const t = await signupHarness();
    for (const email of [
      'x@mailinator.com',
      'x@MAILINATOR.com',
      'x@inbox.mailinator.com',
      'x@a.b.yopmail.com',
      'x@guerrillamail.com',
    ]) {
      await expectError(await t.signup(email), 400, 'disposable_email');
    }
    expect(t.mailer.attempts).toBe(0);
    // A name that merely contains a listed domain is not a subdomain of it.
    await expectJson(await t.signup('x@mailinator.com.example.org'));
    await expectJson(await t.signup('x@yopmailfan.org'));
  });

  it('undeliverable_email when the resolver finds no MX and no A/AAAA, or a null MX; a DNS failure lets the address through', async () => {
    const fail: Lookup<never> = { ok: false, reason: 'failure' };
    const answers: Record<string, { mx: Lookup<MxRecord>; addresses: Lookup<string> }> = {
      'nx.example': { mx: { ok: false, reason: 'nxdomain' }, addresses: { ok: false, reason: 'nxdomain' } },
      'nothing.example': { mx: { ok: false, reason: 'nodata' }, addresses: { ok: false, reason: 'nodata' } },
      'nullmx.example': {
        mx: { ok: true, records: [{ exchange: '', priority: 0 }] },
        addresses: { ok: true, records: ['192.0.2.7'] },
      },
      'mx.example': {
        mx: { ok: true, records: [{ exchange: 'mail.mx.example', priority: 10 }] },
        addresses: fail,
      },
      'aonly.example': {
        mx: { ok: false, reason: 'nodata' },
        addresses: { ok: true, records: ['192.0.2.8'] },
      },
      'servfail.example': { mx: fail, addresses: fail },
      'halffail.example': { mx: { ok: false, reason: 'nodata' }, addresses: fail },
    };
    const asked: string[] = [];
    const resolver: Resolver = {
      async mx(domain) {
        asked.push(`MX ${domain}`);
        return answers[domain]?.mx ?? fail;
      },
      async addresses(domain) {
        asked.push(`A ${domain}`);
        return answers[domain]?.addresses ?? fail;
      },
    };
    const t = await signupHarness({ resolver });
    for (const domain of ['nx.example', 'nothing.example', 'nullmx.example']) {
      const error = await expectError(await t.signup(`ada@${domain}`), 400, 'undeliverable_email');
      expect(error.message).toContain(domain);
    }
    expect(t.mailer.attempts).toBe(0);
    for (const domain of ['mx.example', 'aonly.example', 'servfail.example', 'halffail.example']) {
      await expectJson(await t.signup(`ada@${domain}`));
    }
    expect(t.mailer.messages).toHaveLength(4);
    // A null MX and real MX records are final (no address lookup); an MX failure is "unknown" at once.
    expect(asked).not.toContain('A nullmx.example');
    expect(asked).not.toContain('A mx.example');
    expect(asked).not.toContain('A servfail.example');
    // Major providers are known deliverable: no lookup at all.
    await expectJson(await t.signup('ada@gmail.com'));
    expect(asked.filter((q) => q.endsWith('gmail.com'))).toEqual([]);
  });

  it('rate_limited per address (default 5 per hour, +tag and dotted variants share it) with Retry-After', async () => {
    const t = await signupHarness({ signup: { throttles: SIGNUP_SETTINGS.throttles } });
    for (let i = 0; i < 5; i++) await expectJson(await t.signup('grace@example.org', `198.51.100.${i + 1}`));
    for (const variant of ['grace@example.org', 'Grace+x@example.org', 'gr.ace@example.org']) {
      const res = await t.signup(variant, '198.51.100.200');
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      await expectError(res, 429, 'rate_limited');
    }
    expect(t.mailer.messages).toHaveLength(5);
    await expectJson(await t.signup('other@example.org', '198.51.100.200'));
    t.clock.advance(3_600_000);
    await expectJson(await t.signup('grace@example.org', '198.51.100.200'));
  });

  it('rate_limited per client network (default 20 per hour per /24)', async () => {
    const t = await signupHarness({ signup: { throttles: SIGNUP_SETTINGS.throttles } });
    for (let i = 0; i < 20; i++)
      await expectJson(await t.signup(`user${i}@example.org`, `203.0.113.${i + 1}`));
    const res = await t.signup('user20@example.org', '203.0.113.250');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(res, 429, 'rate_limited');
    await expectJson(await t.signup('user20@example.org', '203.0.114.1'));
  });

  it('email_failed (502, retryable) when the mailer rejects: no pending record, the previous token still works', async () => {
    const t = await signupHarness();
    const kv = t.ts.ports.kv;
    const before = await t.start('hopper@example.org');
    const stored = async () => ({
      pending: (await kv.list('signup:')).sort(),
      index: await kv.get('signup-index:hopper@example.org'),
    });
    const snapshot = await stored();
    expect(snapshot.pending).toEqual([`signup:${before.token}`]);
    t.mailer.failWith = new Error('550 mailbox unavailable');
    const error = await expectError(await t.signup('hopper@example.org'), 502, 'email_failed');
    expect(error.message).not.toContain('550');
    await expectError(await t.signup('fresh@example.org'), 502, 'email_failed');
    expect(t.mailer.attempts).toBe(3);
    expect(await stored()).toEqual(snapshot);
    expect(await kv.list('signup-index:fresh')).toEqual([]);
    t.mailer.failWith = undefined;
    const created = await expectJson<VerifyBody>(await t.verify(before.token, before.code), 201);
    expect(created.credits).toBe(200);
  });

  it('answers identically for an address with an account (status, headers, body shape)', async () => {
    const t = await signupHarness();
    await t.complete('known@example.org');
    const a = await t.signup('known@example.org');
    const b = await t.signup('unknown@example.org');
    expect(a.status).toBe(b.status);
    const headers = (res: Response) => [...res.headers].filter(([name]) => name !== 'x-request-id');
    expect(headers(a)).toEqual(headers(b));
    const [bodyA, bodyB] = [await a.json(), await b.json()];
    expect({ ...bodyA, signup_token: 'x' }).toEqual({ ...bodyB, signup_token: 'x' });
  });
});

describe('POST /api/agent/verify', () => {
  it('201: the contract record; a working example_request and docs; 200 credits on the free plan', async () => {
    const t = await signupHarness();
    const player = t.upstream.players.get(VIDEO)!;
    t.upstream.players.set(EXAMPLE_VIDEO, { ...player, videoId: EXAMPLE_VIDEO });
    const { token, code } = await t.start('lin@example.org');
    const res = await t.verify(token, code);
    const body = await expectJson<VerifyBody>(res, 201);
    expect(Object.keys(body).sort()).toEqual([
      'api_key',
      'credits',
      'docs',
      'example_request',
      'limits',
      'next',
      'notes',
      'status',
    ]);
    expect(body).toMatchObject({
      status: 'account_created',
      api_key: expect.stringMatching(/^tsk_[0-9A-Za-z]{38}$/),
      credits: 200,
      limits: { requests_per_second: 1, requests_per_day: 100 },
      docs: 'http://localhost/docs',
    });
    for (const text of [body.next, body.example_request, body.docs, body.notes])
      expect(typeof text).toBe('string');
    expect(body.notes).toContain('200 free credits');
    expect(res.headers.get('x-credits-to-deduct')).toBeNull();

    const me = await expectJson(await t.call('/v1/account', { key: body.api_key }));
    expect(me).toMatchObject({
      credits: 200,
      plan: 'free',
      limits: { requests_per_second: 1, requests_per_day: 100 },
    });

    // The example is a curl command; run the request it describes.
    const curl = /^curl -H "([^":]+): ([^"]+)" "([^"]+)"$/.exec(body.example_request);
    expect(curl, body.example_request).not.toBeNull();
    const [, header, value, url] = curl!;
    t.clock.advance(1000);
    const example = await t.ts.app.request(url!, { headers: { [header!]: value! } });
    const transcript = await expectJson<{ video_id: string }>(example);
    expect(transcript.video_id).toBe(EXAMPLE_VIDEO);
    expect(example.headers.get('x-credits-to-deduct')).toBe('1');
    expect(example.headers.get('x-ratelimit-limit')).toBe('1');

    const docs = await t.ts.app.request(body.docs);
    expect(docs.status).toBe(200);
    expect(docs.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await docs.text()).toContain('/api/agent/verify');
  });

  it('the new key keeps the free plan: 1 request per second and 100 per UTC day', async () => {
    const t = await signupHarness();
    const { api_key: key } = await t.complete('kim@example.org');
    t.clock.advance(1000);
    await expectJson(await t.call('/v1/account', { key }));
    await expectError(await t.call('/v1/account', { key }), 429, 'rate_limited');
    for (let i = 1; i < 100; i++) {
      t.clock.advance(1000);
      await expectJson(await t.call('/v1/account', { key }));
    }
    t.clock.advance(1000);
    await expectError(await t.call('/v1/account', { key }), 429, 'daily_limit_exceeded');
  });

  it('invalid_request without a token or without a 6-digit code (not counted as attempts)', async () => {
    const t = await signupHarness();
    const { token, code } = await t.start('mae@example.org');
    const bodies: unknown[] = [
      {},
      { code },
      { signup_token: token },
      { signup_token: '', code },
      { signup_token: 42, code },
      { signup_token: token, code: code.slice(1) },
      { signup_token: token, code: `${code}0` },
      { signup_token: token, code: 'abcdef' },
      { signup_token: token, code: '12 456' },
      { signup_token: token, code: '１２３４５６' },
      { signup_token: token, code: Number(code) },
    ];
    for (const body of bodies)
      await expectError(await t.post('/api/agent/verify', body), 400, 'invalid_request');
    await expectError(await t.post('/api/agent/verify', '[]'), 400, 'invalid_request');
    await expectJson(await t.verify(token, code), 201);
  });

  it('invalid_signup_token: garbage, unknown well-formed, replaced by a newer sign-up, already used', async () => {
    const t = await signupHarness();
    for (const token of ['garbage', 'sut_short', `tsk_${'a'.repeat(32)}`, `sut_${'a'.repeat(32)}`]) {
      await expectError(await t.verify(token, '123456'), 400, 'invalid_signup_token');
    }
    const first = await t.start('nell@example.org');
    const second = await t.start('Nell+again@example.org'); // same account key: replaces the first
    await expectError(await t.verify(first.token, first.code), 400, 'invalid_signup_token');
    await expectError(await t.verify(first.token, second.code), 400, 'invalid_signup_token');
    await expectJson(await t.verify(second.token, second.code), 201);
    await expectError(await t.verify(second.token, second.code), 400, 'invalid_signup_token');
  });

  it('invalid_code (retryable false, attempts_left), then too_many_attempts; then even the right code fails', async () => {
    const t = await signupHarness();
    const { token, code } = await t.start('olga@example.org');
    const wrong = code === '000000' ? '111111' : '000000';
    const first = await expectError(await t.verify(token, wrong), 400, 'invalid_code');
    expect(first).toMatchObject({ retryable: false, details: { attempts_left: 2 } });
    const second = await expectError(await t.verify(token, wrong), 400, 'invalid_code');
    expect(second.details).toEqual({ attempts_left: 1 });
    await expectError(await t.verify(token, wrong), 400, 'too_many_attempts');
    // The sign-up is over: its token is gone, so the right code fails too.
    await expectError(await t.verify(token, code), 400, 'invalid_signup_token');
    expect(await storedKeys(t)).toBe(0);
    // Starting over sends a new code, which works.
    const again = await t.start('olga@example.org');
    await expectJson(await t.verify(again.token, again.code), 201);
  });

  it('two wrong codes and then the right one still creates the key', async () => {
    const t = await signupHarness();
    const { token, code } = await t.start('pia@example.org');
    const wrong = code === '999999' ? '888888' : '999999';
    await expectError(await t.verify(token, wrong), 400, 'invalid_code');
    await expectError(await t.verify(token, wrong), 400, 'invalid_code');
    await expectJson(await t.verify(token, code), 201);
  });

  it('code_expired at exactly 600 000 ms (valid 1 ms before); afterwards the token is gone', async () => {
    const t = await signupHarness();
    const early = await t.start('quinn@example.org');
    t.clock.advance(599_999);
    await expectJson(await t.verify(early.token, early.code), 201);

    const late = await t.start('rae@example.org');
    t.clock.advance(600_000);
    const error = await expectError(await t.verify(late.token, late.code), 400, 'code_expired');
    expect(error.message).toContain('10 minutes');
    await expectError(await t.verify(late.token, late.code), 400, 'invalid_signup_token');
    // Long after, the record is gone from storage too (still no success).
    t.clock.advance(3_600_000);
    await expectError(await t.verify(late.token, late.code), 400, 'invalid_signup_token');
    expect(await storedKeys(t)).toBe(1);
  });

  it('409 account_exists once the code is correct, for an account of an earlier sign-up or of POST /admin/keys {email}; no key is created', async () => {
    const t = await signupHarness();
    await t.complete('sam@example.org');
    await t.key(0, { email: 'tess@example.org' });
    const keysBefore = await storedKeys(t);
    for (const email of [
      'sam@example.org',
      'Sam+second@example.org',
      'tess@example.org',
      'TESS+x@example.org',
    ]) {
      const { token, code } = await t.start(email);
      const wrong = code === '000000' ? '111111' : '000000';
      await expectError(await t.verify(token, wrong), 400, 'invalid_code'); // a wrong code says nothing about the account
      const error = await expectError(await t.verify(token, code), 409, 'account_exists');
      expect(error.retryable).toBe(false);
      await expectError(await t.verify(token, code), 400, 'invalid_signup_token');
    }
    expect(await storedKeys(t)).toBe(keysBefore);
  });

  it('rate_limited per client network for verify calls (default 60 per hour)', async () => {
    const t = await signupHarness({
      signup: { throttles: { verifyNetwork: SIGNUP_SETTINGS.throttles.verifyNetwork } },
    });
    const token = `sut_${'b'.repeat(32)}`;
    for (let i = 0; i < 60; i++) {
      await expectError(await t.verify(token, '123456', `198.51.100.${i}`), 400, 'invalid_signup_token');
    }
    const res = await t.verify(token, '123456', '198.51.100.77');
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await expectError(res, 429, 'rate_limited');
    await expectError(await t.verify(token, '123456', '198.51.101.1'), 400, 'invalid_signup_token');
  });
});

describe('operator switches', () => {
  it('mode paused: 503 agent_signup_busy (retryable, Retry-After) on both routes; nothing mailed', async () => {
    const t = await signupHarness({ signup: { mode: 'paused' } });
    const a = await t.signup('una@example.org');
    expect(Number(a.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await expectError(a, 503, 'agent_signup_busy')).retryable).toBe(true);
    await expectError(await t.verify(`sut_${'c'.repeat(32)}`, '123456'), 503, 'agent_signup_busy');
    expect(t.mailer.attempts).toBe(0);
  });

  it('mode off: 503 agent_signup_disabled on both routes; the data API still works', async () => {
    const t = await signupHarness({ signup: { mode: 'off' } });
    expect(
      (await expectError(await t.signup('vera@example.org'), 503, 'agent_signup_disabled')).retryable,
    ).toBe(false);
    await expectError(await t.verify(`sut_${'c'.repeat(32)}`, '123456'), 503, 'agent_signup_disabled');
    const { api_key } = await t.key(5);
    await expectJson(await t.call('/v1/account', { key: api_key }));
    expect(t.mailer.attempts).toBe(0);
  });

  it("routes: 'api' serves no sign-up routes", async () => {
    const t = await signupHarness({ routes: 'api' });
    await expectError(await t.signup('wes@example.org'), 404, 'not_found');
  });
});

describe("sign-up mounted alone (routes: 'signup') on the storage of a data app", () => {
  it('signs up on the sign-up host; the data app accepts the new key; data routes 404 on the sign-up host', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    const kv = createMemoryKv(clock);
    const ledger = createEmbeddedLedger({ clock, kv });
    const api = await testApp({ clock, kv, ledger, seed: 11, routes: 'api' });
    const signupHost = await signupHarness({
      clock,
      kv,
      ledger,
      seed: 12,
      routes: 'signup',
      publicUrl: 'https://api.example.test',
    });
    await expectError(await signupHost.call('/v1/account'), 404, 'not_found');
    await expectError(await signupHost.call('/v1/transcripts?video_id=dQw4w9WgXcQ'), 404, 'not_found');
    await expectJson(await signupHost.call('/healthz'));
    await expectError(
      await api.ts.app.request('/api/agent/signup', { method: 'POST', body: '{"email":"x@example.org"}' }),
      404,
      'not_found',
    );

    const res = await signupHost.signup('xena@example.org');
    const started = await expectJson<{ signup_token: string; next: string }>(res);
    expect(started.next).toContain('http://localhost/api/agent/verify');
    const created = await expectJson<VerifyBody>(
      await signupHost.verify(started.signup_token, signupHost.mailer.codeFor('xena@example.org')),
      201,
    );
    expect(created.docs).toBe('https://api.example.test/docs');
    expect(created.example_request).toContain('"https://api.example.test/v1/transcripts?video_id=');

    // The data app accepts the key at once (the same kv and ledger).
    const me = await expectJson(await api.call('/v1/account', { key: created.api_key }));
    expect(me).toMatchObject({ credits: 200, plan: 'free' });
    const url = /"(https:\/\/api\.example\.test\/[^"]+)"/.exec(created.example_request)![1]!;
    clock.advance(1000);
    const example = await api.ts.app.request(url.replace('rCAS2eD-mcw', VIDEO), {
      headers: { authorization: `Bearer ${created.api_key}` },
    });
    await expectJson(example);

    // An account created on the data app is seen by the sign-up host.
    await api.key(0, { email: 'yara@example.org' });
    const { token, code } = await signupHost.start('yara@example.org');
    await expectError(await signupHost.verify(token, code), 409, 'account_exists');
  });
});
