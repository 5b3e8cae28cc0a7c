import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../core/webhook-signature.ts';
import { ApiError } from '../errors.ts';
import type { FetchLike } from '../ports/fetch.ts';
import type { Logger } from '../ports/logger.ts';
import {
  checkWebhookUrl,
  type HostLookup,
  newWebhookSecret,
  nextWebhookDelay,
  WEBHOOK_RETRY_DELAYS_MS,
  type WebhookPolicy,
  WebhookSender,
} from './webhooks.ts';

const SECRET = 'whsec_MfKQ9r9uGvYkP1nEw4Yb0aTqJx2ZcLh7sN3dVfRiU8o';
const NOW_MS = 1_700_000_000_750;
const NOW_S = 1_700_000_000;
const EVENT = { id: 'evt_batch_01', type: 'batch.completed', body: '{"id":"batch_01","status":"completed"}' };

/** What the receiver saw of one request. */
interface Seen {
  path: string;
  eventId: string | undefined;
  event: string | undefined;
  contentType: string | undefined;
  /** The signature checked independently with node:crypto (HMAC over "<t>.<raw body>"). */
  verified: boolean;
  header: string;
  body: string;
}

function nodeVerify(header: string, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match || Number(match[1]) !== NOW_S) return false;
  const expected = createHmac('sha256', SECRET).update(`${match[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
}

const servers: { close(): void }[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** A real receiver on 127.0.0.1; `answer` gets each request after its body was read and recorded. */
async function receiver(answer: (res: ServerResponse, n: number, req: IncomingMessage) => void) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(req.headers['tubescribe-signature'] ?? '');
      seen.push({
        path: req.url ?? '',
        eventId: req.headers['tubescribe-event-id'] as string | undefined,
        event: req.headers['tubescribe-event'] as string | undefined,
        contentType: req.headers['content-type'],
        verified: nodeVerify(header, body),
        header,
        body,
      });
      answer(res, seen.length, req);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  servers.push({
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  });
  const { port } = server.address() as AddressInfo;
  return { seen, port, url: `http://127.0.0.1:${port}` };
}

/** The fetch under test, refusing (and counting) anything that is not loopback. */
function guardedFetch() {
  const calls: string[] = [];
  const fetchLike: FetchLike = (input, init) => {
    calls.push(input);
    const host = new URL(input).hostname;
    if (host !== '127.0.0.1') return Promise.reject(new Error(`test guard: ${host} is not loopback`));
    return fetch(input, init);
  };
  return { calls, fetch: fetchLike };
}

function memoryLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const logger: Logger = {
    log: (level, message, fields) => lines.push({ level, message, ...(fields ? { fields } : {}) }),
  };
  return { lines, logger };
}

function sender(policy: WebhookPolicy, extra: { timeoutMs?: number; maxResponseBytes?: number } = {}) {
  const guard = guardedFetch();
  const log = memoryLogger();
  const webhooks = new WebhookSender({
    fetch: guard.fetch,
    policy,
    clock: { now: () => NOW_MS },
    logger: log.logger,
    ...extra,
  });
  return { webhooks, calls: guard.calls, lines: log.lines };
}

const ALLOW: WebhookPolicy = { allowPrivate: true };

describe('WebhookSender against a real receiver (loopback, private targets allowed)', () => {
  it('delivers a signed event that verifies with node:crypto and with the core', async () => {
    const hook = await receiver((res) => res.writeHead(204).end());
    const { webhooks } = sender(ALLOW);
    expect(await webhooks.deliver({ url: `${hook.url}/hook`, secret: SECRET }, EVENT)).toEqual({
      ok: true,
      status: 204,
    });
    expect(hook.seen).toHaveLength(1);
    const seen = hook.seen[0]!;
    expect(seen).toMatchObject({
      path: '/hook',
      eventId: EVENT.id,
      event: 'batch.completed',
      contentType: 'application/json',
      verified: true,
      body: EVENT.body,
    });
    expect(seen.header.startsWith(`t=${NOW_S},v1=`)).toBe(true);
    expect(await verifySignature(SECRET, seen.header, seen.body, NOW_S)).toBe(true);
  });

  it('fails on a 500, succeeds on the retry, with the same event id', async () => {
    const hook = await receiver((res, n) => res.writeHead(n === 1 ? 500 : 200).end('thanks'));
    const { webhooks } = sender(ALLOW);
    const target = { url: `${hook.url}/hook`, secret: SECRET };
    expect(await webhooks.deliver(target, EVENT)).toEqual({ ok: false, status: 500, error: 'HTTP 500' });
    expect(await webhooks.deliver(target, EVENT)).toEqual({ ok: true, status: 200 });
    expect(hook.seen.map((s) => [s.eventId, s.verified])).toEqual([
      [EVENT.id, true],
      [EVENT.id, true],
    ]);
  });

  it('treats a 302 as a failure and never requests the redirect target', async () => {
    const hook = await receiver((res, _n, req) =>
      req.url === '/hook' ? res.writeHead(302, { Location: '/elsewhere' }).end() : res.writeHead(200).end(),
    );
    const { webhooks } = sender(ALLOW);
    const result = await webhooks.deliver({ url: `${hook.url}/hook`, secret: SECRET }, EVENT);
    expect(result).toMatchObject({ ok: false, status: 302, error: expect.stringMatching(/redirect/) });
    expect(hook.seen.map((s) => s.path)).toEqual(['/hook']);
  });

  it('gives up on a receiver that does not answer within the timeout', async () => {
    const hook = await receiver(() => {}); // never answers; closed after the test
    const { webhooks, lines } = sender(ALLOW, { timeoutMs: 200 });
    const result = await webhooks.deliver({ url: `${hook.url}/hook`, secret: SECRET }, EVENT);
    expect(result).toEqual({ ok: false, error: 'timed out after 200 ms' });
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
  });

  it('reads at most maxResponseBytes of the answer, then drops the connection', async () => {
    const limit = 64 * 1024 * 1024;
    let written = 0;
    let closed!: () => void;
    const dropped = new Promise<void>((resolve) => {
      closed = resolve;
    });
    const hook = await receiver((res) => {
      res.on('close', closed);
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 120);
      const pump = () => {
        while (!res.destroyed && written < limit) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        if (!res.destroyed) res.end();
      };
      pump();
    });
    const { webhooks } = sender(ALLOW, { maxResponseBytes: 1024, timeoutMs: 10_000 });
    expect(await webhooks.deliver({ url: `${hook.url}/hook`, secret: SECRET }, EVENT)).toEqual({
      ok: true,
      status: 200,
    });
    await dropped;
    expect(written).toBeLessThan(limit);
  });

  it('reports a refused connection without throwing, and logs no secret, path or query', async () => {
    const hook = await receiver(() => {});
    servers.pop()?.close();
    const { webhooks, lines } = sender(ALLOW);
    const result = await webhooks.deliver(
      { url: `${hook.url}/hook/s3cr3t?token=abc`, secret: SECRET },
      EVENT,
    );
    expect(result.ok).toBe(false);
    expect(result.status).toBeUndefined();
    expect(result.error).toMatch(/fetch failed|ECONNREFUSED/);
    const text = JSON.stringify(lines);
    expect(lines).toMatchObject([{ level: 'warn', fields: { event_id: EVENT.id, target: hook.url } }]);
    for (const secret of [SECRET, 's3cr3t', 'token=abc']) expect(text).not.toContain(secret);
  });
});

const to =
  (address: string): HostLookup =>
  async () => [address];

describe('private targets refused (TUBESCRIBE_WEBHOOK_PRIVATE=deny)', () => {
  it('refuses them at creation (invalid_webhook_url) and at delivery (no request sent)', async () => {
    const hook = await receiver((res) => res.writeHead(200).end());
    const p = hook.port;
    const rows: [string, HostLookup?][] = [
      [`http://127.0.0.1:${p}/hook`],
      [`https://127.0.0.1:${p}/hook`],
      ['http://10.0.0.1/'],
      ['https://10.0.0.1/'],
      ['http://169.254.169.254/'],
      ['https://169.254.169.254/latest/meta-data/'],
      ['http://[::1]/'],
      [`https://[::1]:${p}/`],
      ['https://[::ffff:127.0.0.1]/'],
      ['https://[fd00:ec2::254]/'],
      [`https://localhost:${p}/`],
      [`https://hooks.example.com:${p}/hook`, to('127.0.0.1')],
      [`https://hooks.example.com:${p}/hook`, to('::ffff:127.0.0.1')],
      ['https://hooks.example.com/hook', to('169.254.169.254')],
      ['https://hooks.example.com/hook', async () => ['93.184.215.14', '10.1.2.3']],
      ['https://hooks.example.com/hook', async () => []],
      ['https://no-such-host.example/hook', () => Promise.reject(new Error('getaddrinfo ENOTFOUND'))],
    ];
    const guard = guardedFetch();
    for (const [url, lookup] of rows) {
      const policy: WebhookPolicy = lookup ? { allowPrivate: false, lookup } : { allowPrivate: false };
      const refusal = await checkWebhookUrl(url, policy).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(refusal, url).toBeInstanceOf(ApiError);
      expect(refusal, url).toMatchObject({ code: 'invalid_webhook_url', status: 400, retryable: false });
      const webhooks = new WebhookSender({
        fetch: guard.fetch,
        policy,
        clock: { now: () => NOW_MS },
        logger: memoryLogger().logger,
      });
      const result = await webhooks.deliver({ url, secret: SECRET }, EVENT);
      expect(result, url).toEqual({ ok: false, error: expect.stringMatching(/^refused: the webhook URL /) });
    }
    expect(guard.calls).toEqual([]);
    expect(hook.seen).toEqual([]);
  });

  it('re-resolves at delivery: a name that turned private since creation gets no request', async () => {
    let answer = '93.184.215.14';
    const policy: WebhookPolicy = { allowPrivate: false, lookup: async () => [answer] };
    const url = await checkWebhookUrl('https://Hooks.Example.com/tubescribe?x=1', policy);
    expect(url).toBe('https://hooks.example.com/tubescribe?x=1');
    answer = '127.0.0.1';
    const { webhooks, calls } = sender(policy);
    const result = await webhooks.deliver({ url, secret: SECRET }, EVENT);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/non-public address .*127\.0\.0\.1/) });
    expect(calls).toEqual([]);
  });

  it('gives up on a lookup that never answers within the timeout', async () => {
    const { webhooks, calls } = sender(
      { allowPrivate: false, lookup: () => new Promise<string[]>(() => {}) },
      { timeoutMs: 200 },
    );
    const result = await webhooks.deliver({ url: 'https://hooks.example.com/hook', secret: SECRET }, EVENT);
    expect(result).toEqual({ ok: false, error: expect.stringMatching(/^refused: .*could not be resolved/) });
    expect(calls).toEqual([]);
  });
});

describe('public targets (fake fetch: nothing leaves the machine)', () => {
  it('sends a POST without following redirects, to a name resolving to public addresses', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const policy: WebhookPolicy = {
      allowPrivate: false,
      lookup: async () => ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    };
    const webhooks = new WebhookSender({
      fetch: async (url, init) => {
        sent.push({ url, init });
        return new Response('ok', { status: 202 });
      },
      policy,
      clock: { now: () => NOW_MS },
      logger: memoryLogger().logger,
    });
    const url = await checkWebhookUrl('https://hooks.example.com/tubescribe', policy);
    expect(await webhooks.deliver({ url, secret: SECRET }, EVENT)).toEqual({ ok: true, status: 202 });
    expect(sent).toHaveLength(1);
    const { init } = sent[0]!;
    expect(init).toMatchObject({ method: 'POST', redirect: 'manual', body: EVENT.body });
    const headers = new Headers(init.headers);
    expect(headers.get('content-type')).toBe('application/json');
    expect(headers.get('tubescribe-event-id')).toBe(EVENT.id);
    expect(headers.get('tubescribe-event')).toBe('batch.completed');
    expect(nodeVerify(headers.get('tubescribe-signature')!, EVENT.body)).toBe(true);
  });

  it('without a lookup, lets a host name pass creation (checked at delivery only when a lookup exists)', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/x', { allowPrivate: false })).toBe(
      'https://hooks.example.com/x',
    );
    expect(await checkWebhookUrl(`http://127.0.0.1:8080/x`, ALLOW)).toBe('http://127.0.0.1:8080/x');
  });
});

describe('secrets and retry schedule', () => {
  it('makes whsec_ secrets from 32 random bytes', () => {
    const secret = newWebhookSecret({ bytes: (n) => new Uint8Array(n).fill(0xfb) });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret({ bytes: (n) => new Uint8Array(n).fill(1) })).not.toBe(secret);
  });

  it('retries at least 5 times over at least 10 minutes, the first within 30 s, then gives up', () => {
    const delays: number[] = [];
    for (let attempt = 1; nextWebhookDelay(attempt) !== undefined; attempt++)
      delays.push(nextWebhookDelay(attempt)!);
    expect(delays).toEqual([...WEBHOOK_RETRY_DELAYS_MS]);
    expect(delays[0]).toBeLessThanOrEqual(30_000);
    expect(delays.length + 1).toBeGreaterThanOrEqual(5);
    expect(delays.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(600_000);
    for (const attempt of [0, -1, 1.5, Number.NaN, delays.length + 1])
      expect(nextWebhookDelay(attempt)).toBeUndefined();
  });
});
