/**
 * Sign-up mail for real: a real SMTP server (`smtp-server` from npm) on 127.0.0.1 receives the code
 * mail sent through the SMTP mailer (nodemailer); the code is read from the received message and
 * the sign-up completed through HTTP. SMTP failures answer 502 email_failed and change no state.
 * Also end to end through `tubescribe serve` (a child process on a real socket) with
 * TUBESCRIBE_MAILER=smtp://…, TUBESCRIBE_DNS=udp://… (a fake DNS server) and TUBESCRIBE_SIGNUP.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SMTPServerOptions } from 'smtp-server';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from '../../src/drivers/node/mailer-smtp.ts';
import type { Mailer } from '../../src/ports/mailer.ts';
import { startFakeDns } from '../helpers/dns.ts';
import { expectError, expectJson } from '../helpers/http.ts';
import { FIXTURE_VIDEO, startServer, writeFixtures } from '../helpers/processes.ts';
import { parseMail, type ReceivedMail, type SmtpTestServer, startSmtpServer } from '../helpers/smtp.ts';
import { codeInText, signupHarness, type VerifyBody } from './support.ts';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of cleanups.splice(0).reverse()) await close();
});

async function smtp(overrides: Partial<SMTPServerOptions> = {}): Promise<SmtpTestServer> {
  const server = await startSmtpServer({ user: 'signup', pass: 'p@ss word', overrides });
  cleanups.push(() => server.close());
  return server;
}

/** The code of a received mail, read from its decoded text body; also checks the headers. */
function codeOf(mail: ReceivedMail, to: string): string {
  const { headers, body } = parseMail(mail.raw);
  expect(mail.to).toEqual([to]);
  expect(mail.user).toBe('signup');
  expect(headers.get('to')).toBe(to);
  const code = codeInText(body.replace(/\r\n/g, '\n'));
  expect(headers.get('subject')).toContain(code);
  return code;
}

/** A mailer whose target can be swapped between sends. */
function switchable(first: Mailer): Mailer & { target: Mailer } {
  const mailer = {
    target: first,
    send: (message: Parameters<Mailer['send']>[0]) => mailer.target.send(message),
  };
  return mailer;
}

describe('sign-up over a real SMTP server', () => {
  it('mails the code over SMTP; the code read from the received message completes the sign-up', async () => {
    const server = await smtp();
    const t = await signupHarness({ mailer: createSmtpMailer(server.url) });
    const started = await expectJson<{ signup_token: string }>(await t.signup('Agent.Smith+yt@Example.org'));
    expect(server.inbox).toHaveLength(1);
    const code = codeOf(server.inbox[0]!, 'Agent.Smith+yt@example.org');
    const created = await expectJson<VerifyBody>(await t.verify(started.signup_token, code), 201);
    expect(created.credits).toBe(200);
    const me = await expectJson(await t.call('/v1/account', { key: created.api_key }));
    expect(me).toMatchObject({ credits: 200, plan: 'free' });
  });

  it('502 email_failed when the server rejects DATA or is stopped; no state change, the earlier token still works', async () => {
    const good = await smtp();
    const rejecting = await smtp({
      onData: (stream, _session, done) =>
        stream.resume().on('end', () => done(Object.assign(new Error('Refused'), { responseCode: 554 }))),
    });
    const mailer = switchable(createSmtpMailer(good.url, { timeoutMs: 5_000 }));
    const t = await signupHarness({ mailer });
    const kv = t.ts.ports.kv;
    const first = await expectJson<{ signup_token: string }>(await t.signup('neo@example.org'));
    const code = codeOf(good.inbox[0]!, 'neo@example.org');
    const dump = async () => {
      const keys = (await kv.list('signup')).sort();
      return Promise.all(keys.map(async (key) => [key, await kv.get(key)]));
    };
    const before = await dump();

    mailer.target = createSmtpMailer(rejecting.url, { timeoutMs: 5_000 });
    await expectError(await t.signup('neo@example.org'), 502, 'email_failed');
    await expectError(await t.signup('trinity@example.org'), 502, 'email_failed');
    expect(rejecting.inbox).toHaveLength(0);
    expect(await dump()).toEqual(before);

    await good.close();
    mailer.target = createSmtpMailer(good.url, { timeoutMs: 5_000 });
    await expectError(await t.signup('neo@example.org'), 502, 'email_failed');
    expect(await dump()).toEqual(before);

    await expectJson(await t.verify(first.signup_token, code), 201);
  });
});

describe('tubescribe serve with TUBESCRIBE_MAILER=smtp://… and TUBESCRIBE_DNS=udp://… (child process)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubescribe-signup-'));
    await writeFixtures(join(dir, 'fixtures'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('signs up over a real socket: mail on the SMTP server, deliverability from the DNS server, key works', async () => {
    const server = await smtp();
    const dns = await startFakeDns({
      'agents.example': { MX: [[10, 'mx.agents.example']] },
      'nomail.example': 'NXDOMAIN',
      'broken.example': 'SERVFAIL',
    });
    cleanups.push(() => dns.close());
    const child = await startServer({
      TUBESCRIBE_STORAGE: 'memory',
      TUBESCRIBE_UPSTREAM: `fixtures:${join(dir, 'fixtures')}`,
      TUBESCRIBE_MAILER: server.url,
      TUBESCRIBE_DNS: dns.url,
    });
    cleanups.push(() => child.stop());

    const res = await post(`${child.url}/api/agent/signup`, { email: 'ada@agents.example' });
    const started = await expectJson<{ signup_token: string; next: string }>(res);
    expect(started.next).toContain(`${child.url}/api/agent/verify`);
    expect(dns.questions).toContainEqual({ name: 'agents.example', type: 'MX' });
    expect(server.inbox).toHaveLength(1);
    const code = codeOf(server.inbox[0]!, 'ada@agents.example');
    const created = await expectJson<VerifyBody>(
      await post(`${child.url}/api/agent/verify`, { signup_token: started.signup_token, code }),
      201,
    );
    expect(created.docs).toBe(`${child.url}/docs`);
    const transcript = await fetch(`${child.url}/v1/transcripts?video_id=${FIXTURE_VIDEO}&format=text`, {
      headers: { authorization: `Bearer ${created.api_key}` },
    });
    expect(transcript.status).toBe(200);
    expect(await transcript.text()).toBe('Hi there.\n');

    await expectError(
      await post(`${child.url}/api/agent/signup`, { email: 'bob@nomail.example' }),
      400,
      'undeliverable_email',
    );
    await expectJson(await post(`${child.url}/api/agent/signup`, { email: 'cy@broken.example' }));
    const asked = dns.questions.length;
    await expectJson(await post(`${child.url}/api/agent/signup`, { email: 'dee@gmail.com' }));
    expect(dns.questions.length).toBe(asked);
    expect(server.inbox.map((m) => m.to[0])).toEqual([
      'ada@agents.example',
      'cy@broken.example',
      'dee@gmail.com',
    ]);

    await server.close();
    await expectError(
      await post(`${child.url}/api/agent/signup`, { email: 'eve@agents.example' }),
      502,
      'email_failed',
    );
    expect(await child.stop()).toBe(0);
  });

  it('TUBESCRIBE_SIGNUP=paused and =off answer 503 with the contract codes', async () => {
    const env = { TUBESCRIBE_STORAGE: 'memory', TUBESCRIBE_UPSTREAM: `fixtures:${join(dir, 'fixtures')}` };
    const [paused, off] = await Promise.all([
      startServer({ ...env, TUBESCRIBE_SIGNUP: 'paused' }),
      startServer({ ...env, TUBESCRIBE_SIGNUP: 'off' }),
    ]);
    cleanups.push(
      () => paused.stop(),
      () => off.stop(),
    );
    const busy = await post(`${paused.url}/api/agent/signup`, { email: 'ada@example.org' });
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await expectError(busy, 503, 'agent_signup_busy')).retryable).toBe(true);
    await expectError(
      await post(`${paused.url}/api/agent/verify`, { signup_token: `sut_${'a'.repeat(32)}`, code: '123456' }),
      503,
      'agent_signup_busy',
    );
    const disabled = await post(`${off.url}/api/agent/signup`, { email: 'ada@example.org' });
    expect((await expectError(disabled, 503, 'agent_signup_disabled')).retryable).toBe(false);
    expect((await fetch(`${off.url}/healthz`)).status).toBe(200);
  });
});
