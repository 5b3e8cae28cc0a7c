/**
 * The YouTube driver behind real HTTP proxies on 127.0.0.1, reached through the Node adapter's
 * proxyFetch (undici's ProxyAgent), in front of a fake YouTube origin (`origin` override). The
 * proxy and origin are the ones the Bun and Deno smoke scripts use (test/smoke/proxy-servers.mjs).
 * Also: proxies without a proxyFetch are refused at construction, and the Node proxyFetch names
 * the missing package when undici cannot be loaded.
 */
import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { proxyFetch } from '../../adapters/node/proxy-fetch.ts';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import type { FetchLike, ProxyFetch } from '../../src/ports/fetch.ts';

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
    proxyFetch: ProxyFetch,
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
    const result = await servers.checkDriverThroughProxies(
      createYouTubeUpstream,
      proxyFetch,
      `node ${process.version}`,
    );
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
    const yt = createYouTubeUpstream({ origin: origin.url, proxies: [a.url, b.url], proxyFetch, retries: 0 });
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

describe('proxy injection', () => {
  const REQUIRED =
    'TUBESCRIBE_PROXY needs a proxy-capable fetch: pass proxyFetch from tubescribe/node, tubescribe/bun or tubescribe/deno';

  it('proxies without a proxyFetch are refused when the upstream is created, before any request', () => {
    const fetch = vi.fn<FetchLike>();
    expect(() => createYouTubeUpstream({ proxies: ['http://127.0.0.1:9'], fetch })).toThrow(
      new Error(REQUIRED),
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('an empty proxy list needs no proxyFetch; with one, each proxy gets its own fetch, rotated', async () => {
    expect(() => createYouTubeUpstream({ proxies: [] })).not.toThrow();
    const used: string[] = [];
    const built: string[] = [];
    const fake: ProxyFetch = (proxyUrl) => {
      built.push(proxyUrl);
      return async (input) => {
        used.push(`${proxyUrl} ${new URL(input).pathname}`);
        return Response.json({ responseContext: { visitorData: 'VD' } });
      };
    };
    const direct = vi.fn<FetchLike>();
    const yt = createYouTubeUpstream({
      proxies: ['http://proxy-a:1', 'http://proxy-b:2'],
      proxyFetch: fake,
      fetch: direct,
      retries: 0,
    });
    expect(built).toEqual(['http://proxy-a:1', 'http://proxy-b:2']);
    await yt.suggestions('a', {}).catch(() => undefined);
    await yt.suggestions('b', {}).catch(() => undefined);
    expect(used).toHaveLength(2);
    expect(used[0]).toMatch(/^http:\/\/proxy-a:1 /);
    expect(used[1]).toMatch(/^http:\/\/proxy-b:2 /);
    expect(direct).not.toHaveBeenCalled();
  });

  it('the Node proxyFetch asks to install undici when it cannot be loaded', async () => {
    vi.resetModules();
    vi.doMock('undici', () => {
      throw new Error("Cannot find package 'undici'");
    });
    try {
      const node = await import('../../adapters/node/proxy-fetch.ts');
      const fetch = node.proxyFetch('http://127.0.0.1:9');
      await expect(fetch('http://127.0.0.1:9/', { method: 'GET' })).rejects.toThrow(
        'install undici to use TUBESCRIBE_PROXY on Node',
      );
    } finally {
      vi.doUnmock('undici');
      vi.resetModules();
    }
  });
});
