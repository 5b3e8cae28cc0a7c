/**
 * The Node adapter's direct fetch for the YouTube driver (`nodeUpstreamFetch`), over real
 * sockets on 127.0.0.1: what it sends, the bodies it decodes, and the transport's rules through
 * it (no redirects, the body cap, retries, aborts), keep-alive, https with certificate checks, the
 * Node `proxyFetch` on the same path, and the global fetch when the `undici` package is missing.
 * The whole REST API goes through it in test/e2e/youtube.test.ts (`tubescribe serve`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyFetch } from '../../adapters/node/proxy-fetch.ts';
import { createNodeUpstreamFetch, nodeUpstreamFetch } from '../../adapters/node/upstream-fetch.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { Transport, type TransportOptions } from '../../src/drivers/youtube/transport.ts';
import { isApiError } from '../../src/errors.ts';
import type { UpstreamFetch } from '../../src/ports/fetch.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

interface Origin {
  url: string;
  /** Connections accepted so far. */
  connections: number;
  /** Connections the client closed (or that were destroyed) so far. */
  closed: number;
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

function track(server: Server, handler: Handler): Origin {
  const origin: Origin = { url: '', connections: 0, closed: 0 };
  server.on('connection', (socket) => {
    origin.connections++;
    socket.on('close', () => origin.closed++);
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  return origin;
}

async function listen(server: Server, origin: Origin, scheme: string): Promise<Origin> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin.url = `${scheme}://${scheme === 'https' ? 'localhost' : '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  return origin;
}

const startOrigin = (handler: Handler): Promise<Origin> => {
  const server = createServer();
  return listen(server, track(server, handler), 'http');
};

function transport(fetch: UpstreamFetch, origin: string, extra: Partial<TransportOptions> = {}): Transport {
  return new Transport({
    fetch,
    origin,
    clock: new ManualClock(),
    random: new SeededRandom(1),
    logger: silentLogger,
    retries: 0,
    backoffMs: 1,
    ...extra,
  });
}

const until = async (check: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('nodeUpstreamFetch: the request', () => {
  it("sends the method, path, query, body and the caller's headers, and fetch's defaults only where the caller set none", async () => {
    let seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string } | undefined;
    const origin = await startOrigin((req, body, res) => {
      seen = { method: req.method!, url: req.url!, headers: req.headers, body };
      res.end('ok');
    });
    const answer = await nodeUpstreamFetch(`${origin.url}/youtubei/v1/player?prettyPrint=false`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'Accept-Language': 'de, en;q=0.9',
        'User-Agent': 'ua/1',
      },
      body: '{"videoId":"é"}',
    });
    expect(await answer.text()).toBe('ok');
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/youtubei/v1/player?prettyPrint=false',
      body: '{"videoId":"é"}',
    });
    expect(seen!.headers).toMatchObject({
      'content-type': 'application/json',
      'accept-language': 'de, en;q=0.9',
      'user-agent': 'ua/1',
      accept: '*/*',
      'sec-fetch-mode': 'cors',
      'accept-encoding': 'gzip, deflate',
      'content-length': String(Buffer.byteLength('{"videoId":"é"}')),
    });

    await (
      await nodeUpstreamFetch(`${origin.url}/api/timedtext`, {
        headers: new Headers({ 'X-Goog-Visitor-Id': 'v1' }),
      })
    ).text();
    expect(seen).toMatchObject({ method: 'GET', url: '/api/timedtext', body: '' });
    expect(seen!.headers).toMatchObject({
      'x-goog-visitor-id': 'v1',
      'accept-language': '*',
      'user-agent': 'node',
    });
    expect(seen!.headers['content-length']).toBeUndefined();
  });

  it('keeps connections alive: ten requests one after another open two at most', async () => {
    const origin = await startOrigin((_req, _body, res) => res.end('x'));
    for (let i = 0; i < 10; i++)
      expect(await (await nodeUpstreamFetch(`${origin.url}/p${i}`, {})).text()).toBe('x');
    // undici may open a second one when the next request comes before the first is released
    expect(origin.connections).toBeLessThanOrEqual(2);
    expect(origin.closed).toBe(0);
  });

  it('refuses what it cannot send, before any connection', async () => {
    await expect(nodeUpstreamFetch('ftp://127.0.0.1/x', {})).rejects.toThrow(/protocol/);
    await expect(
      nodeUpstreamFetch('http://127.0.0.1:9/x', { method: 'POST', body: new URLSearchParams('a=1') }),
    ).rejects.toThrow(/string or bytes/);
  });
});

describe('nodeUpstreamFetch: the answer', () => {
  const text = `{"events":[${'{"segs":[{"utf8":"héllo wörld"}]},'.repeat(2000)}{}]}`;
  const codings: [string, (data: Buffer) => Buffer][] = [
    ['gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ];

  for (const [coding, compress] of codings) {
    it(`decodes a ${coding} body, read whole or through the transport's capped reader`, async () => {
      const origin = await startOrigin((_req, _body, res) => {
        res.writeHead(200, { 'Content-Encoding': coding, 'Content-Type': 'application/json' });
        res.end(compress(Buffer.from(text)));
      });
      expect(await (await nodeUpstreamFetch(`${origin.url}/a`, {})).text()).toBe(text);
      const raw = await transport(nodeUpstreamFetch, origin.url).request(
        'GET',
        `${origin.url}/a`,
        {},
        undefined,
      );
      expect(raw.text).toBe(text);
      expect(raw.status).toBe(200);
      expect(raw.url).toBe(`${origin.url}/a`);
      expect(raw.headers.get('CONTENT-TYPE')).toBe('application/json');
    });
  }

  it('gives the status and headers as sent (names in any case, repeated ones joined), and an absent header as null', async () => {
    const origin = await startOrigin((_req, _body, res) => {
      res.setHeader('X-Twice', ['a', 'b']);
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('gone');
    });
    const answer = await nodeUpstreamFetch(`${origin.url}/missing`, {});
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-twice')).toBe('a, b');
    expect(answer.headers.get('Content-Type')).toBe('text/plain');
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(await answer.text()).toBe('gone');
  });

  it('never follows a redirect: the transport answers upstream_error and the target is never asked', async () => {
    const origin = await startOrigin((req, _body, res) => {
      if (req.url === '/target') res.end('followed');
      else res.writeHead(302, { Location: '/target' }).end();
    });
    const answer = await nodeUpstreamFetch(`${origin.url}/moved`, {});
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/target');
    await answer.body!.cancel();
    const error = await transport(nodeUpstreamFetch, origin.url)
      .request('GET', `${origin.url}/moved`, {}, undefined)
      .catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('upstream_error');
  });

  it('a body past the cap is upstream_error, declared or streamed, and its connection is closed', async () => {
    const big = 'x'.repeat(64 * 1024);
    const huge = big.repeat(4); // more than a cancelled body is read to keep its connection
    const origin = await startOrigin((req, _body, res) => {
      if (req.url === '/declared') res.writeHead(200, { 'Content-Length': huge.length }).end(huge);
      else {
        res.write(big); // chunked: no length given
        res.write(big);
        res.end();
      }
    });
    for (const path of ['/declared', '/streamed']) {
      const error = await transport(nodeUpstreamFetch, origin.url, { maxBodyBytes: 1000 })
        .request('GET', `${origin.url}${path}`, {}, undefined)
        .catch((e: unknown) => e);
      expect(isApiError(error) && error.message).toMatch(/too large/);
    }
    await until(() => origin.closed === origin.connections);
  });

  it("retries a 429 after YouTube's Retry-After and a 5xx, on the connection it kept", async () => {
    let calls = 0;
    const origin = await startOrigin((_req, _body, res) => {
      calls++;
      if (calls === 1) res.writeHead(429, { 'Retry-After': '0' }).end('slow down');
      else if (calls === 2) res.writeHead(503).end('busy');
      else res.end('{"ok":true}');
    });
    const raw = await transport(nodeUpstreamFetch, origin.url, { retries: 2 }).request(
      'POST',
      `${origin.url}/youtubei/v1/player`,
      { 'Content-Type': 'application/json' },
      '{}',
    );
    expect(raw.text).toBe('{"ok":true}');
    expect(calls).toBe(3);
    expect(origin.connections).toBe(1);
  });

  it('a refused connection rejects, so the transport retries it and then answers upstream_error', async () => {
    const origin = await startOrigin((_req, _body, res) => res.end());
    const url = origin.url;
    servers.pop()!.close();
    await expect(nodeUpstreamFetch(`${url}/x`, {})).rejects.toThrow();
    const error = await transport(nodeUpstreamFetch, url, { retries: 1 })
      .request('GET', `${url}/x`, {}, undefined)
      .catch((e: unknown) => e);
    expect(isApiError(error) && error.code).toBe('upstream_error');
  });

  it('a body that is not the gzip it claims rejects the read, not the process', async () => {
    const origin = await startOrigin((_req, _body, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end('not gzip at all');
    });
    await expect(
      transport(nodeUpstreamFetch, origin.url).request('GET', `${origin.url}/bad`, {}, undefined),
    ).rejects.toThrow();
  });
});

describe('nodeUpstreamFetch: aborts', () => {
  it('an abort before the answer rejects with its reason and closes the connection', async () => {
    const origin = await startOrigin(() => {}); // never answers
    const controller = new AbortController();
    const pending = transport(nodeUpstreamFetch, origin.url).request(
      'GET',
      `${origin.url}/slow`,
      {},
      undefined,
      controller.signal,
    );
    await until(() => origin.connections === 1);
    controller.abort(new Error('caller gone'));
    await expect(pending).rejects.toThrow('caller gone');
    await until(() => origin.closed >= 1 && origin.closed === origin.connections);
  });

  it("an abort in the middle of a body rejects the read with the signal's reason (a deadline's TimeoutError stays one) and closes the connection", async () => {
    let finish: (() => void) | undefined;
    const origin = await startOrigin((_req, _body, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"half":');
      finish = () => res.end('1}');
    });
    const controller = new AbortController();
    const answer = await nodeUpstreamFetch(`${origin.url}/half`, { signal: controller.signal });
    const reader = answer.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('{"half":');
    const deadline = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    controller.abort(deadline);
    await expect(reader.read()).rejects.toBe(deadline);
    await until(() => origin.closed >= 1 && origin.closed === origin.connections);
    finish?.();
  });

  it('a connection cut after the head, with the body never read, does not crash the process', async () => {
    const origin = await startOrigin((req, _body, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.write(gzipSync(Buffer.from('partial')).subarray(0, 8));
      setTimeout(() => req.socket.destroy(), 20);
    });
    const answer = await nodeUpstreamFetch(`${origin.url}/cut`, {});
    expect(answer.status).toBe(200);
    await until(() => origin.closed >= 1 && origin.closed === origin.connections);
    await new Promise((resolve) => setTimeout(resolve, 50)); // an unhandled 'error' would fail the run
    await expect(answer.text()).rejects.toThrow();
  });
});

describe("proxyFetch: the same answers through a proxy's CONNECT tunnel", () => {
  it('answers without a Response, its gzip body decoded, and only through the proxy', async () => {
    const proxies = (await import(new URL('../smoke/proxy-servers.mjs', import.meta.url).href)) as {
      startProxy(): Promise<{ url: string; seen: string[]; close(): Promise<void> }>;
    };
    const proxy = await proxies.startProxy();
    try {
      const origin = await startOrigin((req, body, res) => {
        res.writeHead(200, { 'Content-Encoding': 'gzip' });
        res.end(gzipSync(Buffer.from(`${req.method} ${req.url} ${body}`)));
      });
      const raw = await transport(proxyFetch(proxy.url), origin.url).request(
        'POST',
        `${origin.url}/youtubei/v1/player`,
        {},
        '{"v":1}',
      );
      expect(raw.text).toBe('POST /youtubei/v1/player {"v":1}');
      const answer = await proxyFetch(proxy.url)(`${origin.url}/again`, {});
      expect('clone' in answer).toBe(false); // not a Response (undici's own or the global one)
      expect(await answer.text()).toBe('GET /again ');
      expect(proxy.seen.every((line) => line === `CONNECT ${new URL(origin.url).host}`)).toBe(true);
      expect(proxy.seen.length).toBeGreaterThan(0);
    } finally {
      await proxy.close();
    }
  });
});

describe('nodeUpstreamFetch without the undici package', () => {
  it('sends through the global fetch, as before', async () => {
    const origin = await startOrigin((req, _body, res) => res.end(`global:${req.headers['user-agent']}`));
    vi.resetModules();
    vi.doMock('undici', () => {
      throw new Error("Cannot find package 'undici'");
    });
    try {
      const node = await import('../../adapters/node/upstream-fetch.ts');
      const answer = await node.createNodeUpstreamFetch()(`${origin.url}/x`, {});
      expect(answer).toBeInstanceOf(Response);
      expect(await answer.text()).toBe('global:node');
    } finally {
      vi.doUnmock('undici');
      vi.resetModules();
    }
  });
});

describe('nodeUpstreamFetch: https', () => {
  it('verifies the certificate: a server it does not trust is refused, one it trusts answers', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tubescribe-tls-'));
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost',
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
      const cert = readFileSync(join(dir, 'cert.pem'));
      const server = createTlsServer({ key: readFileSync(join(dir, 'key.pem')), cert });
      const origin = await listen(
        server,
        track(server, (_req, body, res) => res.end(`tls:${body}`)),
        'https',
      );
      await expect(nodeUpstreamFetch(`${origin.url}/x`, {})).rejects.toThrow(/certificate/);
      const trusting = createNodeUpstreamFetch({ ca: cert });
      const raw = await transport(trusting, origin.url).request(
        'POST',
        `${origin.url}/youtubei/v1/player`,
        {},
        'hi',
      );
      expect(raw.text).toBe('tls:hi');
      for (let i = 0; i < 5; i++) await (await trusting(`${origin.url}/again`, {})).text();
      expect(origin.connections).toBeLessThanOrEqual(3); // the refused handshake, then kept-alive ones
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
