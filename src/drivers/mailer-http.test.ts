import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpMailer, defaultFrom, parseHttpMailerUrl } from './mailer-http.ts';

const message = { to: 'agent@example.com', subject: 'Your code', text: 'Your code is 042917.' };

interface Seen {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse, index: number) => void;

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((close) => close()));
});

/** A fake mail API on 127.0.0.1 that records every request and lets `handle` answer. */
async function startApi(handle: Handler): Promise<{ origin: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method,
        url: req.url,
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      });
      handle(req, res, seen.length - 1);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, seen };
}

const answer =
  (status: number, body = '', headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, headers).end(body);
  };

describe('HTTP mailer against a fake mail API', () => {
  it('POSTs the documented JSON with a bearer token and resolves on 2xx', async () => {
    const { origin, seen } = await startApi(answer(202, '{"id":"m1"}'));
    const url = `${origin.replace('//', '//t%2Bk3n@')}/v1/send?region=eu&from=${encodeURIComponent('Keys <keys@example.net>')}`;
    await createHttpMailer(url).send(message);
    expect(seen).toHaveLength(1);
    const [request] = seen;
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/send?region=eu');
    expect(request?.headers.authorization).toBe('Bearer t+k3n');
    expect(request?.headers['content-type']).toMatch(/^application\/json/);
    expect(request?.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.parse(request?.body ?? '')).toEqual({
      from: 'Keys <keys@example.net>',
      to: 'agent@example.com',
      subject: 'Your code',
      text: 'Your code is 042917.',
    });
  });

  it('sends html when given, the default From, and no Authorization without a token', async () => {
    const { origin, seen } = await startApi(answer(200));
    await createHttpMailer(`${origin}/send`).send({ ...message, html: '<b>042917</b>' });
    expect(seen[0]?.headers.authorization).toBeUndefined();
    expect(JSON.parse(seen[0]?.body ?? '')).toMatchObject({
      from: 'tubescribe <no-reply@localhost>',
      html: '<b>042917</b>',
    });
  });

  it('rejects on every non-2xx answer without retrying, never naming the token', async () => {
    for (const status of [400, 401, 429, 500, 503]) {
      const { origin, seen } = await startApi(answer(status, 'nope'));
      const mailer = createHttpMailer(origin.replace('//', '//sekrit@'));
      const error = await mailer.send(message).then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message, String(status)).toMatch(new RegExp(`answered ${status}: nope`));
      expect(error?.message).not.toContain('sekrit');
      expect(seen).toHaveLength(1);
    }
  });

  it('does not follow redirects: a 3xx rejects', async () => {
    const { origin, seen } = await startApi(answer(307, '', { location: '/elsewhere' }));
    await expect(createHttpMailer(`${origin}/send`).send(message)).rejects.toThrow(/answered 307/);
    expect(seen.map((s) => s.url)).toEqual(['/send']);
  });

  it('retries once after a network error, with the same idempotency key', async () => {
    const { origin, seen } = await startApi((req, res, index) => {
      if (index === 0) req.socket.destroy();
      else res.writeHead(200).end();
    });
    await createHttpMailer(`${origin}/send`).send(message);
    expect(seen).toHaveLength(2);
    expect(seen[1]?.headers['idempotency-key']).toBe(seen[0]?.headers['idempotency-key']);
  });

  it('rejects after the retry when the network error persists', async () => {
    const { origin, seen } = await startApi((req) => req.socket.destroy());
    await expect(createHttpMailer(`${origin}/send`).send(message)).rejects.toThrow(
      /HTTP mailer: POST .* failed/,
    );
    expect(seen).toHaveLength(2);
  });

  it('rejects when nothing listens', async () => {
    const { origin } = await startApi(answer(200));
    await cleanups.pop()?.();
    await expect(createHttpMailer(`${origin}/send`, { timeoutMs: 2_000 }).send(message)).rejects.toThrow(
      /HTTP mailer: POST .* failed/,
    );
  });

  it('rejects within its timeout when the API never answers', async () => {
    const { origin, seen } = await startApi(() => {});
    await expect(createHttpMailer(`${origin}/send`, { timeoutMs: 300 }).send(message)).rejects.toThrow(
      /timed out after 300 ms/,
    );
    expect(seen).toHaveLength(1);
  });
});

describe('parseHttpMailerUrl', () => {
  it('splits token, endpoint and From', () => {
    expect(parseHttpMailerUrl('https://abc%40def@api.example.com/send?x=1')).toEqual({
      endpoint: 'https://api.example.com/send?x=1',
      token: 'abc@def',
      from: 'tubescribe <no-reply@api.example.com>',
    });
    expect(parseHttpMailerUrl('https://user:pass@api.example.com/', { from: 'a@b.example' })).toEqual({
      endpoint: 'https://api.example.com/',
      token: 'user:pass',
      from: 'a@b.example',
    });
  });

  it('throws clear errors without echoing the token', () => {
    for (const url of ['not a url', 'ftp://sekrit@x.example/']) {
      expect(() => parseHttpMailerUrl(url)).toThrow(/^TUBESCRIBE_MAILER: /);
      expect(() => parseHttpMailerUrl(url)).not.toThrow(/sekrit/);
    }
  });

  it('derives the default From from the host', () => {
    expect(defaultFrom('api.example.com')).toBe('tubescribe <no-reply@api.example.com>');
    expect(defaultFrom('MAIL.Example.com')).toBe('tubescribe <no-reply@mail.example.com>');
    expect(defaultFrom('10.0.0.5')).toBe('tubescribe <no-reply@localhost>');
    expect(defaultFrom('[2001:db8::1]')).toBe('tubescribe <no-reply@localhost>');
  });
});
