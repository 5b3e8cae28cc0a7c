/**
 * Links and `next` texts (public-url.ts): built from TUBESCRIBE_PUBLIC_URL, else (only behind
 * trusted proxies) from the forwarded host, else from a loopback request's own origin, else from
 * the address the connection reached, else relative; never from a client's Host header.
 */
import { describe, expect, it } from 'vitest';
import { nodeServerOrigin } from '../../adapters/node/request-env.ts';
import type { TestAppOptions } from '../helpers/app.ts';
import { signupHarness } from '../signup/support.ts';

type Harness = Awaited<ReturnType<typeof signupHarness>>;

/** What the Node adapter passes: a socket from 192.0.2.1 that reached 10.0.0.5:8787. */
const SOCKET = {
  incoming: { socket: { remoteAddress: '192.0.2.1', localAddress: '10.0.0.5', localPort: 8787 } },
};
const SERVER = 'http://10.0.0.5:8787';

const harness = (options: TestAppOptions = {}) =>
  signupHarness({ serverOrigin: nodeServerOrigin, ...options });

/** A whole sign-up through `origin` with `headers`; returns the two answers' link fields. */
async function signUp(h: Harness, origin: string, headers: Record<string, string> = {}) {
  const post = (path: string, body: unknown) =>
    h.ts.app.request(
      `${origin}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      },
      SOCKET,
    );
  const started = await post('/api/agent/signup', { email: 'ada@agents.example' });
  expect(started.status).toBe(200);
  const { signup_token, next } = (await started.json()) as { signup_token: string; next: string };
  const code = h.mailer.codeFor('ada@agents.example');
  const verified = await post('/api/agent/verify', { signup_token, code });
  expect(verified.status).toBe(201);
  const body = (await verified.json()) as { next: string; example_request: string; docs: string };
  return { signupNext: next, ...body };
}

async function resourceOf(h: Harness, origin: string, headers: Record<string, string> = {}) {
  const res = await h.ts.app.request(
    `${origin}/.well-known/oauth-protected-resource/mcp`,
    { headers },
    SOCKET,
  );
  return ((await res.json()) as { resource: string }).resource;
}

describe('links without TUBESCRIBE_PUBLIC_URL', () => {
  it('a non-loopback Host is never echoed: links name the address the connection reached', async () => {
    const h = await harness();
    const links = await signUp(h, 'http://evil.test', { host: 'evil.test' });
    expect(JSON.stringify(links)).not.toContain('evil');
    expect(links.signupNext).toContain(`to ${SERVER}/api/agent/verify`);
    expect(links.docs).toBe(`${SERVER}/docs`);
    expect(links.example_request).toContain(`"${SERVER}/v1/transcripts?video_id=`);
    expect(await resourceOf(h, 'http://evil.test')).toBe(`${SERVER}/mcp`);
    const doc = await (await h.ts.app.request('http://evil.test/openapi.json', {}, SOCKET)).json();
    expect(doc.servers).toEqual([{ url: SERVER }]);
  });

  it('with no runtime to ask (an in-process fetch), links are relative', async () => {
    const h = await signupHarness();
    const res = await h.ts.app.request('http://evil.test/api/agent/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@agents.example' }),
    });
    const { next } = (await res.json()) as { next: string };
    expect(next).toContain('"code": "<code>"} to /api/agent/verify within');
    const doc = await (await h.ts.app.request('http://evil.test/openapi.json')).json();
    expect(doc.servers).toBeUndefined();
  });

  it('X-Forwarded-Host is ignored unless proxies are trusted', async () => {
    const h = await harness();
    const headers = {
      'x-forwarded-host': 'evil.test',
      'x-forwarded-proto': 'https',
      forwarded: 'host=evil.test',
    };
    expect(JSON.stringify(await signUp(h, 'http://127.0.0.1:8787', headers))).not.toContain('evil');
    expect(await resourceOf(h, 'http://127.0.0.1:8787', headers)).toBe('http://127.0.0.1:8787/mcp');
  });

  it.each(['http://127.0.0.1:8787', 'http://localhost:9000', 'http://[::1]:8787'])(
    'a loopback request (%s) names its own origin',
    async (origin) => {
      const h = await harness();
      const links = await signUp(h, origin);
      expect(links.signupNext).toContain(`${origin}/api/agent/verify`);
      expect(links.docs).toBe(`${origin}/docs`);
      expect(links.example_request).toContain(`"${origin}/v1/transcripts?video_id=`);
    },
  );
});

describe('behind trusted proxies (TUBESCRIBE_TRUST_PROXY)', () => {
  it.each([
    [{ 'x-forwarded-host': 'api.example.net', 'x-forwarded-proto': 'https' }, 'https://api.example.net'],
    [{ forwarded: 'for=192.0.2.1;host=api.example.net;proto=https' }, 'https://api.example.net'],
    [{ forwarded: 'for=192.0.2.1;host="api.example.net:8443";proto=https' }, 'https://api.example.net:8443'],
    // A client-sent entry on the left is not the proxy's: the rightmost (one trusted hop) wins.
    [
      { 'x-forwarded-host': 'evil.test, api.example.net', 'x-forwarded-proto': 'http, https' },
      'https://api.example.net',
    ],
    // No forwarded host: the Host the proxy passed on.
    [{ host: 'api.example.net' }, 'http://api.example.net'],
  ])('links name the forwarded origin (%j)', async (headers, origin) => {
    const h = await harness({ trustProxy: 1 });
    const links = await signUp(h, 'http://internal.test', headers);
    expect(links.docs).toBe(`${origin}/docs`);
    expect(links.signupNext).toContain(`${origin}/api/agent/verify`);
    expect(await resourceOf(h, 'http://internal.test', headers)).toBe(`${origin}/mcp`);
  });

  it.each([
    { 'x-forwarded-host': 'evil.test/path', 'x-forwarded-proto': 'https' },
    { 'x-forwarded-host': 'api.example.net', 'x-forwarded-proto': 'javascript' },
    { forwarded: 'host="evil.test\\"x"' },
  ])('a malformed forwarded value is ignored (%j)', async (headers) => {
    const h = await harness({ trustProxy: 1 });
    const resource = await resourceOf(h, 'http://internal.test', headers);
    expect(resource).toBe(`${SERVER}/mcp`);
  });
});

describe('TUBESCRIBE_PUBLIC_URL wins', () => {
  it('over Host, forwarded headers and loopback', async () => {
    const h = await harness({ publicUrl: 'https://api.example.com/yt/', trustProxy: 1 });
    const links = await signUp(h, 'http://127.0.0.1:8787', { 'x-forwarded-host': 'evil.test' });
    expect(links.docs).toBe('https://api.example.com/yt/docs');
    expect(links.signupNext).toContain('https://api.example.com/yt/api/agent/verify');
    expect(links.example_request).toContain('"https://api.example.com/yt/v1/transcripts?video_id=');
    expect(await resourceOf(h, 'http://evil.test')).toBe('https://api.example.com/yt/mcp');
  });

  it('names the batch Location (relative without it)', async () => {
    for (const [publicUrl, prefix] of [
      ['https://api.example.com', 'https://api.example.com'],
      [undefined, ''],
    ] as const) {
      const h = await signupHarness(publicUrl === undefined ? {} : { publicUrl });
      const { api_key } = await h.key(10);
      const res = await h.call('http://evil.test/v1/batch', {
        method: 'POST',
        key: api_key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tasks: [{ type: 'video_info', video_id: 'dQw4w9WgXcQ' }] }),
      });
      expect(res.status).toBe(202);
      const { id } = (await res.json()) as { id: string };
      expect(res.headers.get('location')).toBe(`${prefix}/v1/batch/${id}`);
    }
  });
});
