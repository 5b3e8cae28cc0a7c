/**
 * The other two mailers through the app: the HTTP mail-API mailer against a local JSON endpoint
 * (127.0.0.1) and the console mailer (development only: it logs the code, which completes the
 * sign-up). The SMTP mailer has its own suite (smtp.test.ts).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createMailer } from '../../src/drivers/node/mailer.ts';
import type { Logger } from '../../src/ports/logger.ts';
import { expectError, expectJson } from '../helpers/http.ts';
import { codeInText, signupHarness, type VerifyBody } from './support.ts';

interface Posted {
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  body: Record<string, unknown>;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

/** A JSON mail API on 127.0.0.1 answering `status` and keeping every request. */
async function mailApi(status: () => number): Promise<{ url: string; posted: Posted[] }> {
  const posted: Posted[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => {
      text += chunk.toString('utf8');
    });
    req.on('end', () => {
      posted.push({
        authorization: req.headers.authorization,
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
        body: JSON.parse(text) as Record<string, unknown>,
      });
      res.writeHead(status(), { 'content-type': 'application/json' }).end('{"id":"msg_1"}');
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://mail-token@127.0.0.1:${port}/send`, posted };
}

describe('HTTP mail-API mailer (TUBESCRIBE_MAILER=https://TOKEN@host/path)', () => {
  it('POSTs the message as JSON with the bearer token; the code in it completes the sign-up', async () => {
    const api = await mailApi(() => 202);
    const t = await signupHarness({ mailer: createMailer(api.url, { log: () => {} }) });
    const started = await expectJson<{ signup_token: string }>(await t.signup('api@example.org'));
    expect(api.posted).toHaveLength(1);
    const [post] = api.posted;
    expect(post!.authorization).toBe('Bearer mail-token');
    expect(post!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(Object.keys(post!.body).sort()).toEqual(['from', 'subject', 'text', 'to']);
    expect(post!.body.to).toBe('api@example.org');
    const code = codeInText(String(post!.body.text));
    await expectJson<VerifyBody>(await t.verify(started.signup_token, code), 201);
  });

  it('a non-2xx answer is 502 email_failed and writes no pending sign-up', async () => {
    let status = 500;
    const api = await mailApi(() => status);
    const t = await signupHarness({ mailer: createMailer(api.url, { log: () => {} }) });
    await expectError(await t.signup('api@example.org'), 502, 'email_failed');
    expect(await t.ts.ports.kv.list('signup')).toEqual([]);
    status = 200;
    await expectJson(await t.signup('api@example.org'));
  });
});

describe('console mailer (the default; development only)', () => {
  it('logs the code as a warning on a loopback-only server; the logged code completes the sign-up', async () => {
    const logs: { level: string; message: string; fields: Record<string, unknown> | undefined }[] = [];
    const logger: Logger = { log: (level, message, fields) => logs.push({ level, message, fields }) };
    const t = await signupHarness({ mailer: createMailer('console', logger, { revealCodes: true }), logger });
    const started = await expectJson<{ signup_token: string }>(await t.signup('dev@example.org'));
    const entry = logs.find((l) => l.message.startsWith('mail not sent (console mailer'));
    expect(entry?.level).toBe('warn');
    expect(entry?.fields?.to).toBe('dev@example.org');
    const code = codeInText(String(entry?.fields?.text));
    await expectJson(await t.verify(started.signup_token, code), 201);
  });

  it('withholds the code everywhere else: no log entry carries the subject, text or mailbox', async () => {
    const logs: string[] = [];
    const logger: Logger = {
      log: (level, message, fields) => logs.push(JSON.stringify({ level, message, fields })),
    };
    const t = await signupHarness({ mailer: createMailer('console', logger), logger });
    await expectJson(await t.signup('dev@example.org'));
    expect(logs.some((line) => line.includes('TUBESCRIBE_MAILER'))).toBe(true);
    expect(logs.join('\n')).not.toMatch(/\b\d{6}\b|dev@|code is|code: /);
  });
});
