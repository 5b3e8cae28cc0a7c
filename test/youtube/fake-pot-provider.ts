/**
 * A fake bgutil PO-token provider on 127.0.0.1 (a real node:http server) speaking the HTTP API
 * of Brainicism/bgutil-ytdlp-pot-provider 1.x: `POST /get_pot` with `{content_binding}` answers
 * `{poToken, contentBinding, expiresAt}` (an ISO date, as the server's JSON of a Date), errors
 * as `{error}` with a 4xx/5xx; `GET /ping` answers `{server_uptime, version}`. Modes make it fail.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How `/get_pot` answers. */
export type PotMode =
  /** `{poToken, contentBinding, expiresAt}` */
  | 'ok'
  /** 0.x servers: `{po_token}` without an expiry */
  | 'legacy'
  /** 500 `{error}` */
  | 'error'
  /** never answers (until the client gives up) */
  | 'stall'
  /** 200 with a body that is not JSON */
  | 'garbage';

/** One `/get_pot` call as the provider saw it. */
export interface PotCall {
  body: Record<string, unknown>;
  authorization: string | undefined;
}

/** A running fake provider. */
export interface FakePotProvider {
  url: string;
  mode: PotMode;
  /** Lifetime of the tokens it reports, in ms (default 6 h, bgutil's TOKEN_TTL). */
  ttlMs: number;
  calls: PotCall[];
  pings: number;
  /** The token it mints for a content binding. */
  tokenFor(binding: string): string;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the fake provider. */
export async function startFakePotProvider(mode: PotMode = 'ok'): Promise<FakePotProvider> {
  const tokenFor = (binding: string) => `MnT0k3n-${binding}_websafe`;
  const state = { mode, ttlMs: 6 * 3_600_000, calls: [] as PotCall[], pings: 0 };
  const server: Server = createServer(async (req, res) => {
    const text = await bodyOf(req);
    const json = (data: unknown, status = 200) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    if (req.method === 'GET' && req.url === '/ping') {
      state.pings++;
      return json({ server_uptime: 12.5, version: '1.2.2' });
    }
    if (req.method !== 'POST' || req.url !== '/get_pot') return json({ error: 'not found' }, 404);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {}
    state.calls.push({ body, authorization: req.headers.authorization });
    const binding = typeof body.content_binding === 'string' ? body.content_binding : '';
    switch (state.mode) {
      case 'ok':
        return json({
          poToken: tokenFor(binding),
          contentBinding: binding,
          expiresAt: new Date(Date.now() + state.ttlMs).toISOString(),
        });
      case 'legacy':
        return json({ po_token: tokenFor(binding), visit_identifier: binding });
      case 'error':
        return json({ error: 'Failed to generate an integrity token.' }, 500);
      case 'garbage':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>not a provider</html>');
      case 'stall':
        return; // the socket stays open until the client aborts or the server closes
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    get mode() {
      return state.mode;
    },
    set mode(m: PotMode) {
      state.mode = m;
    },
    get ttlMs() {
      return state.ttlMs;
    },
    set ttlMs(ms: number) {
      state.ttlMs = ms;
    },
    get calls() {
      return state.calls;
    },
    get pings() {
      return state.pings;
    },
    tokenFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens (a provider that is down). */
export async function deadProviderUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return url;
}
