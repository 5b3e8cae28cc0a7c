// A tiny fake YouTube origin and a tiny HTTP proxy, both on 127.0.0.1, written against node:http and
// node:net so that Node, Bun and Deno run them alike. Shared by test/youtube/proxy.test.ts and the
// runtime smoke scripts test/smoke/proxy-bun.mjs and proxy-deno.mjs.
import http from 'node:http';
import net from 'node:net';

export const VIDEO = 'ProxyVideo1';

/** Listens on a free port of 127.0.0.1; resolves to the port. */
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server.address().port));
  });
}

/** Closes a server and every socket it holds. */
function closer(server, sockets) {
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
}

const PLAYER = (videoId) => ({
  playabilityStatus: { status: 'OK' },
  videoDetails: {
    videoId,
    title: 'Through the proxy',
    author: 'Proxy Channel',
    channelId: 'UCproxy00000000000000000',
    lengthSeconds: '10',
    viewCount: '7',
  },
  captions: {
    playerCaptionsTracklistRenderer: {
      captionTracks: [
        {
          // A URL on www.youtube.com, as YouTube hands them out: the origin override must apply.
          baseUrl: `https://www.youtube.com/api/timedtext?v=${videoId}&signature=S&kind=asr&lang=en`,
          name: { simpleText: 'English (auto-generated)' },
          vssId: 'a.en',
          languageCode: 'en',
          kind: 'asr',
        },
      ],
    },
  },
});

const JSON3 = {
  wireMagic: 'pb3',
  events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'proxied words' }] }],
};

/** The fake YouTube origin. `seen` lists `METHOD path` of every request it answered. */
export async function startOrigin() {
  const seen = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://origin');
      seen.push(`${req.method} ${url.pathname}`);
      const send = (status, value) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/youtubei/v1/visitor_id')
        return send(200, { responseContext: { visitorData: 'VD' } });
      if (url.pathname === '/youtubei/v1/player') return send(200, PLAYER(JSON.parse(body).videoId));
      if (url.pathname === '/api/timedtext') return send(200, JSON3);
      return send(404, { error: { code: 404, status: 'NOT_FOUND' } });
    });
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: closer(server, new Set()) };
}

/**
 * An HTTP proxy that forwards to 127.0.0.1 only: absolute-form requests (`GET http://…`, what Bun and
 * Deno send for http:// targets) and CONNECT tunnels (what undici's ProxyAgent opens). `seen` lists
 * `METHOD target` of each proxied request or tunnel.
 */
export async function startProxy() {
  const seen = [];
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const target = /^http:\/\//.test(req.url ?? '') ? new URL(req.url) : undefined;
    if (target?.hostname !== '127.0.0.1') {
      res.writeHead(403);
      return res.end('this proxy forwards absolute-form requests to 127.0.0.1 only');
    }
    seen.push(`${req.method} ${target.href}`);
    const headers = { ...req.headers };
    delete headers['proxy-connection'];
    delete headers['proxy-authorization'];
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: target.pathname + target.search,
        headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
  });
  server.on('connect', (req, client, head) => {
    const [host, port] = (req.url ?? '').split(':');
    if (host !== '127.0.0.1') return client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
    seen.push(`CONNECT ${req.url}`);
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, seen, close: closer(server, sockets) };
}

/**
 * The driver of `createYouTubeUpstream` behind two proxies in front of the fake origin, reached
 * through `proxyFetch` (the runtime adapter's: adapters/<runtime>/proxy-fetch.ts): player data
 * and a transcript arrive, every request went through a proxy, and both proxies were used. Throws
 * on any failure; resolves to a summary line.
 */
export async function checkDriverThroughProxies(createYouTubeUpstream, proxyFetch, runtime) {
  const origin = await startOrigin();
  const proxies = [await startProxy(), await startProxy()];
  try {
    const yt = createYouTubeUpstream({
      origin: origin.url,
      proxies: proxies.map((p) => p.url),
      proxyFetch,
      retries: 0,
    });
    const player = await yt.player(VIDEO, { signal: AbortSignal.timeout(10_000) });
    if (player.title !== 'Through the proxy' || player.tracks.length !== 1) {
      throw new Error(`[${runtime}] unexpected player data ${JSON.stringify(player)}`);
    }
    const text = await yt.captions(player.tracks[0], { signal: AbortSignal.timeout(10_000) });
    const words = text.format === 'json3' ? text.document.events[0]?.segs?.[0]?.utf8 : undefined;
    if (words !== 'proxied words')
      throw new Error(`[${runtime}] unexpected timed text ${JSON.stringify(text)}`);
    const expected = ['POST /youtubei/v1/visitor_id', 'POST /youtubei/v1/player', 'GET /api/timedtext'];
    if (JSON.stringify(origin.seen) !== JSON.stringify(expected)) {
      throw new Error(
        `[${runtime}] the origin saw ${JSON.stringify(origin.seen)}, expected ${JSON.stringify(expected)}`,
      );
    }
    if (yt.transport.sent !== 3)
      throw new Error(`[${runtime}] ${yt.transport.sent} requests sent, expected 3`);
    const [a, b] = proxies.map((p) => p.seen);
    if (a.length === 0 || b.length === 0) {
      throw new Error(`[${runtime}] both proxies must be used: ${JSON.stringify(a)} / ${JSON.stringify(b)}`);
    }
    const host = new URL(origin.url).host;
    for (const line of [...a, ...b]) {
      if (!line.includes(host)) throw new Error(`[${runtime}] a proxy saw a foreign target: ${line}`);
    }
    const mode = a[0].startsWith('CONNECT ') ? 'CONNECT tunnels' : 'absolute-form requests';
    const summary = `${origin.seen.length} requests via 2 proxies as ${mode}: ${a.length} + ${b.length}`;
    return { origin: origin.seen, proxies: [a, b], summary };
  } finally {
    await Promise.all([origin.close(), ...proxies.map((p) => p.close())]);
  }
}
