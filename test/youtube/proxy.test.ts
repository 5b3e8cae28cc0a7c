/**
 * The YouTube driver behind real HTTP proxies on 127.0.0.1 (Node: undici's ProxyAgent), in front of
 * a fake YouTube origin (`origin` override). The proxy and origin are the ones the Bun and Deno
 * smoke scripts use (test/smoke/proxy-servers.mjs).
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';

interface Server {
  url: string;
  seen: string[];
  close(): Promise<void>;
}
interface ProxyServers {
  VIDEO: string;
  startOrigin(): Promise<Server>;
  startProxy(): Promise<Server>;
  checkDriverThroughProxies(
    create: typeof createYouTubeUpstream,
    runtime: string,
  ): Promise<{ origin: string[]; proxies: [string[], string[]]; summary: string }>;
}

const servers = (await import(new URL('../smoke/proxy-servers.mjs', import.meta.url).href)) as ProxyServers;

const open: Server[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});
async function start(kind: 'origin' | 'proxy'): Promise<Server> {
  const server = kind === 'origin' ? await servers.startOrigin() : await servers.startProxy();
  open.push(server);
  return server;
}

describe('YouTube driver through proxies (Node)', () => {
  it('the shared runtime check passes: player and transcript through two proxies (CONNECT tunnels)', async () => {
    const result = await servers.checkDriverThroughProxies(createYouTubeUpstream, `node ${process.version}`);
    expect(result.origin).toEqual([
      'POST /youtubei/v1/visitor_id',
      'POST /youtubei/v1/player',
      'GET /api/timedtext',
    ]);
    for (const seen of result.proxies) {
      expect(seen.length).toBeGreaterThan(0);
      for (const line of seen) expect(line).toMatch(/^CONNECT 127\.0\.0\.1:\d+$/);
    }
  });

  it('rotates requests across the proxies; answers reach the driver; counts stay bounded', async () => {
    const origin = await start('origin');
    const a = await start('proxy');
    const b = await start('proxy');
    const yt = createYouTubeUpstream({ origin: origin.url, proxies: [a.url, b.url], retries: 0 });
    const videos = ['ProxyVideo1', 'ProxyVideo2', 'ProxyVideo3'];
    for (const id of videos) {
      const player = await yt.player(id, { signal: AbortSignal.timeout(10_000) });
      expect(player).toMatchObject({ videoId: id, title: 'Through the proxy', author: 'Proxy Channel' });
      const text = await yt.captions(player.tracks[0]!, { signal: AbortSignal.timeout(10_000) });
      expect(text).toEqual({
        format: 'json3',
        document: { events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'proxied words' }] }] },
      });
    }
    // visitor_id once, then a player call and a caption download per video: 7 requests, all at the origin.
    expect(yt.transport.sent).toBe(7);
    expect(origin.seen).toEqual([
      'POST /youtubei/v1/visitor_id',
      ...videos.flatMap(() => ['POST /youtubei/v1/player', 'GET /api/timedtext']),
    ]);
    // Each proxy opened tunnels to the origin only (keep-alive reuses them).
    const host = new URL(origin.url).host;
    expect(a.seen.length).toBeGreaterThan(0);
    expect(b.seen.length).toBeGreaterThan(0);
    expect([...a.seen, ...b.seen].every((line) => line === `CONNECT ${host}`)).toBe(true);
  });

  it('the proxy forwards absolute-form requests too (what Bun and Deno send), and only to 127.0.0.1', async () => {
    const origin = await start('origin');
    const proxy = await start('proxy');
    const ask = (target: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const { port } = new URL(proxy.url);
        const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: target }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => {
            body += c;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end('{}');
      });
    const ok = await ask(`${origin.url}/youtubei/v1/visitor_id?prettyPrint=false`);
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ responseContext: { visitorData: 'VD' } });
    expect(proxy.seen).toEqual([`POST ${origin.url}/youtubei/v1/visitor_id?prettyPrint=false`]);
    expect((await ask('http://example.com/')).status).toBe(403);
    expect(origin.seen).toEqual(['POST /youtubei/v1/visitor_id']);
  });
});
