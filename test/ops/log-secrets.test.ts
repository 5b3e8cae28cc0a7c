/**
 * No secret in the logs, at any level (issue 15, items 4 and 7). A real `tubescribe serve` runs at
 * `TUBESCRIBE_LOG=debug` through a whole story: an agent signs up (the code arrives over SMTP with
 * a password), the admin creates and revokes a key, keys call the API (Bearer and X-API-Key, and
 * a wrong key), a batch job with a webhook runs to its delivery. Every line it wrote is captured;
 * each must be a JSON object (stderr), and none may contain an API key, the sign-up code or token,
 * the admin token, the SMTP password, the webhook secret or the HMAC secret. The request lines
 * carry route, status, latency, account, credits and cache; the debug lines name upstream calls
 * without a query string.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChildServer, startServer } from '../helpers/processes.ts';
import { type SlowYouTube, startSlowYouTube, videoIds } from '../helpers/slow-youtube.ts';
import { decodeQuotedPrintable, parseMail, type SmtpTestServer, startSmtpServer } from '../helpers/smtp.ts';

const ADMIN = 'adm1n-t0ken-zz9-plural-z-alpha-0042';
const SMTP_PASS = 'smtp-pa55word-q7x';
const HMAC = 'hmac-secret-for-the-log-test-0123456789abcdef';
let youtube: SlowYouTube;
let smtp: SmtpTestServer;
let hooks: Server;
let hookUrl = '';
const deliveries: string[] = [];
let server: ChildServer | undefined;

beforeAll(async () => {
  youtube = await startSlowYouTube(5);
  smtp = await startSmtpServer({ pass: SMTP_PASS });
  hooks = createServer(async (req, res) => {
    let body = '';
    for await (const chunk of req) body += String(chunk);
    deliveries.push(body);
    res.writeHead(200).end();
  });
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
});
afterAll(async () => {
  await server?.kill();
  await youtube.close();
  await smtp.close();
  await new Promise((resolve) => hooks.close(resolve));
});

async function call(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
  const { key, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (key !== undefined) headers.set('authorization', `Bearer ${key}`);
  if (rest.body !== undefined) headers.set('content-type', 'application/json');
  return fetch(`${server!.url}${path}`, { ...rest, headers });
}

async function json<T>(res: Response, status: number): Promise<T> {
  const text = await res.text();
  if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}

it('a full story at debug level logs no secret, only JSON lines', { timeout: 60_000 }, async () => {
  server = await startServer({
    TUBESCRIBE_STORAGE: 'memory',
    TUBESCRIBE_UPSTREAM: 'youtube',
    TUBESCRIBE_YOUTUBE_ORIGIN: youtube.origin,
    TUBESCRIBE_ADMIN_TOKEN: ADMIN,
    TUBESCRIBE_SECRET: HMAC,
    TUBESCRIBE_MAILER: smtp.url,
    TUBESCRIBE_DNS: 'off',
    TUBESCRIBE_WEBHOOK_PRIVATE: 'allow',
    TUBESCRIBE_LOG: 'debug',
  });
  const secrets: Record<string, string> = { admin: ADMIN, smtpPassword: SMTP_PASS, hmac: HMAC };

  // Agent sign-up, the code read from the mail the SMTP server received.
  const started = await json<{ signup_token: string }>(
    await call('/api/agent/signup', {
      method: 'POST',
      body: JSON.stringify({ email: 'agent.story@gmail.com' }),
    }),
    200,
  );
  secrets.signupToken = started.signup_token;
  const mail = parseMail(smtp.inbox.at(-1)!.raw);
  const code = /code is (\d{6})\b/.exec(decodeQuotedPrintable(mail.body))![1]!;
  secrets.code = code;
  const agent = await json<{ api_key: string }>(
    await call('/api/agent/verify', {
      method: 'POST',
      body: JSON.stringify({ signup_token: started.signup_token, code }),
    }),
    201,
  );
  secrets.agentKey = agent.api_key;

  // Admin keys: one created, used, then another created and revoked.
  const admin = { authorization: `Bearer ${ADMIN}` };
  const paid = await json<{ api_key: string; account_id: string }>(
    await call('/admin/keys', {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ credits: 50, plan: 'paid' }),
    }),
    201,
  );
  secrets.paidKey = paid.api_key;
  const doomed = await json<{ api_key: string; key_id: string }>(
    await call('/admin/keys', { method: 'POST', headers: admin, body: JSON.stringify({ credits: 1 }) }),
    201,
  );
  secrets.revokedKey = doomed.api_key;
  expect((await call(`/admin/keys/${doomed.key_id}`, { method: 'DELETE', headers: admin })).status).toBe(204);
  secrets.wrongKey = `${paid.api_key.slice(0, -4)}zzzz`;

  // Calls: Bearer and X-API-Key, a cache miss then a hit, a wrong key, a revoked key.
  const [video] = videoIds(1, 'log');
  await json(await call('/v1/account', { key: agent.api_key }), 200);
  const miss = await call(`/v1/transcripts?video_id=${video}&format=text`, { key: paid.api_key });
  expect(miss.status).toBe(200);
  await miss.text();
  const hit = await call(`/v1/transcripts?video_id=${video}&format=text`, {
    headers: { 'x-api-key': paid.api_key },
  });
  expect(hit.headers.get('x-cache')).toBe('HIT');
  await hit.text();
  expect((await call('/v1/account', { key: secrets.wrongKey })).status).toBe(401);
  expect((await call('/v1/account', { key: doomed.api_key })).status).toBe(401);

  // A batch job with a webhook, run to its delivery.
  const job = await json<{ id: string; webhook: { secret: string } }>(
    await call('/v1/batch', {
      method: 'POST',
      key: paid.api_key,
      body: JSON.stringify({
        tasks: videoIds(3, 'lob').map((video_id) => ({ type: 'transcript', video_id })),
        concurrency: 2,
        webhook: { url: hookUrl },
      }),
    }),
    202,
  );
  secrets.webhookSecret = job.webhook.secret;
  for (let i = 0; i < 200 && deliveries.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
  expect(deliveries.length).toBeGreaterThan(0);

  expect(await server.stop()).toBe(0);
  const stderr = server.stderr();
  server = undefined;
  const lines = stderr.split('\n').filter((line) => line !== '');
  // Logs stay JSON lines.
  const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
  for (const [name, value] of Object.entries(secrets)) {
    const leaks = lines.filter((line) => line.includes(value));
    expect(leaks, `${name} appears in the log`).toEqual([]);
  }

  // Request lines carry route, status, latency, account, credits and cache.
  const requests = entries.filter((e) => e.msg === 'request');
  const transcript = requests.filter((e) => e.route === '/v1/transcripts');
  expect(transcript.map((e) => [e.status, e.account, e.credits, e.cache])).toEqual([
    [200, paid.account_id, Number(miss.headers.get('x-credits-to-deduct')), 'MISS'],
    [200, paid.account_id, Number(hit.headers.get('x-credits-to-deduct')), 'HIT'],
  ]);
  for (const e of requests)
    expect(Object.keys(e)).toEqual(
      expect.arrayContaining(['route', 'status', 'ms', 'account', 'credits', 'cache']),
    );
  expect(requests.find((e) => e.route === '/admin/keys/:key_id')).toMatchObject({ status: 204 });

  // Debug adds the upstream calls, without query strings.
  const upstream = entries.filter((e) => e.msg === 'upstream call');
  expect(upstream.length).toBeGreaterThan(0);
  expect(upstream.some((e) => e.path === '/api/timedtext')).toBe(true);
  for (const e of upstream) expect(String(e.path)).not.toContain('?');
  expect(lines.some((line) => line.includes('lang=en'))).toBe(false);
});
