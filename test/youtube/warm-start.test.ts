/**
 * visitorData at start-up and in the background (issue 12, benchmark goal): after the app's
 * `start()` a cold transcript costs exactly two YouTube requests on the request path (player and
 * caption), because the player clients' visitorData was fetched at start-up; it is refreshed
 * before it expires by timers that never keep a process alive and stop with `close()`; a failed
 * warm-up stops nothing, and the request path then fetches visitorData lazily as before.
 */
import { execFile } from 'node:child_process';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { createYouTubeUpstream, type YouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import type { Logger, LogLevel } from '../../src/ports/logger.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { type SlowYouTube, startSlowYouTube } from '../helpers/slow-youtube.ts';
import { describeRecordings } from './recordings.ts';
import { allRecordings, ReplayFetch } from './replay-fetch.ts';

const ADMIN = 'admin-token-for-warm-start-0123456';
const VID = 'WarmVideo01';

let youtube: SlowYouTube | undefined;
let ts: Tubescribe | undefined;
afterEach(async () => {
  await ts?.close();
  await youtube?.close();
  ts = undefined;
  youtube = undefined;
  vi.useRealTimers();
});

function recordingLogger(): Logger & { lines: { level: LogLevel; message: string }[] } {
  const lines: { level: LogLevel; message: string }[] = [];
  return { lines, log: (level, message) => lines.push({ level, message }) };
}

/** An app over `fetch`-less YouTube at `origin`, and a key with credits. */
async function appWithKey(options: Parameters<typeof createTubescribe>[0]): Promise<string> {
  ts = createTubescribe({
    logger: silentLogger,
    adminToken: ADMIN,
    limits: { reconcileIntervalMs: 0 },
    ...options,
  });
  const created = await ts.app.request('/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 10, plan: 'paid' }),
  });
  return ((await created.json()) as { api_key: string }).api_key;
}

async function transcript(key: string, video = VID): Promise<number> {
  const res = await ts!.app.request(`/v1/transcripts?video_id=${video}&format=text`, {
    headers: { authorization: `Bearer ${key}` },
  });
  await res.text();
  return res.status;
}

describe('visitorData is fetched at start-up', () => {
  it('after start(), a cold transcript makes exactly 2 YouTube requests: player and caption', async () => {
    youtube = await startSlowYouTube(0);
    const key = await appWithKey({ youtube: { origin: youtube.origin, retries: 0 } });
    await ts!.start();
    await ts!.ports.upstream.start?.(); // the warm-up start() kicked off (the same promise)
    expect([...youtube.requests].sort()).toEqual([
      'visitor_id ANDROID',
      'visitor_id VISIONOS',
      'visitor_id WEB',
    ]);
    youtube.requests = [];
    expect(await transcript(key)).toBe(200);
    expect(youtube.requests).toEqual(['player VISIONOS', 'timedtext VISIONOS']);
    // The player request carried the visitorData fetched at start-up.
    expect(youtube.players.at(-1)?.visitor).toBe(youtube.visitors[0]);
    youtube.requests = [];
    expect(await transcript(key, 'WarmVideo02')).toBe(200);
    expect(youtube.requests).toEqual(['player VISIONOS', 'timedtext VISIONOS']);
  });

  it('a request that arrives during the warm-up shares it: one visitor_id per client in all', async () => {
    youtube = await startSlowYouTube(30);
    const key = await appWithKey({ youtube: { origin: youtube.origin, retries: 0 } });
    expect(await transcript(key)).toBe(200); // the first request runs start(), which warms up
    await ts!.ports.upstream.start?.();
    const visitorCalls = youtube.requests.filter((r) => r.startsWith('visitor_id'));
    expect(visitorCalls.sort()).toEqual(['visitor_id ANDROID', 'visitor_id VISIONOS', 'visitor_id WEB']);
    expect(youtube.requests.filter((r) => !r.startsWith('visitor_id'))).toEqual([
      'player VISIONOS',
      'timedtext VISIONOS',
    ]);
  });

  it('a failed warm-up stops nothing: start() resolves, the request path fetches lazily', async () => {
    const logger = recordingLogger();
    let failing = true;
    const log: string[] = [];
    const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
      const url = new URL(input);
      const client = (
        JSON.parse(String(init.body ?? '{}')) as { context?: { client?: { clientName?: string } } }
      ).context?.client?.clientName;
      log.push(`${url.pathname.split('/').pop()} ${client ?? ''}`.trim());
      if (url.pathname.endsWith('/visitor_id')) {
        if (failing) return new Response('unavailable', { status: 503 });
        return Response.json({ responseContext: { visitorData: `VD-${client}` } });
      }
      if (url.pathname === '/api/timedtext')
        return Response.json({
          wireMagic: 'pb3',
          events: [{ tStartMs: 0, dDurationMs: 500, segs: [{ utf8: 'hi' }] }],
        });
      return Response.json({
        playabilityStatus: { status: 'OK' },
        videoDetails: { videoId: VID, title: 'T', author: 'A', channelId: 'UCwarmwarmwarmwarmwarm00' },
        captions: {
          playerCaptionsTracklistRenderer: {
            captionTracks: [
              {
                baseUrl: `https://www.youtube.com/api/timedtext?v=${VID}&lang=en`,
                languageCode: 'en',
                vssId: '.en',
              },
            ],
          },
        },
      });
    };
    const key = await appWithKey({ logger, youtube: { fetch, retries: 0 } });
    await ts!.start();
    await ts!.ports.upstream.start?.();
    expect(logger.lines.filter((l) => l.message.startsWith('visitor_id failed'))).toHaveLength(3);
    failing = false;
    log.length = 0;
    expect(await transcript(key)).toBe(200);
    expect(log).toEqual(['visitor_id VISIONOS', 'player VISIONOS', 'timedtext']);
  });
});

describe('a hung visitor_id holds nobody for long', () => {
  it('the warm-up call ends after 5 s as "no visitorData"; a request sharing it goes on without', async () => {
    vi.useFakeTimers();
    const sent: string[] = [];
    const fetch = (input: string, init: RequestInit = {}): Promise<Response> => {
      const path = new URL(input).pathname;
      sent.push(`${path.split('/').pop()} ${new Headers(init.headers).get('x-goog-visitor-id') ?? '-'}`);
      if (path.endsWith('/visitor_id')) {
        // A black hole: never answers, until the caller gives up.
        return new Promise((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      }
      return Promise.resolve(
        Response.json({
          playabilityStatus: { status: 'OK' },
          videoDetails: { videoId: VID, title: 'T', author: 'A', channelId: 'UCwarmwarmwarmwarmwarm00' },
        }),
      );
    };
    const yt = createYouTubeUpstream({
      fetch,
      retries: 0,
      playerChain: ['VISIONOS'],
      random: new SeededRandom(9),
      logger: silentLogger,
    });
    const started = yt.start();
    let answered = false;
    const player = yt.player(VID).then((p) => {
      answered = true;
      return p;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect((await player).videoId).toBe(VID);
    await started;
    expect(sent).toEqual(['visitor_id -', 'player -']);
    yt.stop();
  });
});

describe('visitorData is refreshed in the background', () => {
  /** A driver over an in-process fake whose visitor_id hands out VD-<client>-<n>. */
  function counted(ttlMs: number) {
    const issued: string[] = [];
    const players: (string | null)[] = [];
    let down = false;
    const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
      const client = (
        JSON.parse(String(init.body ?? '{}')) as { context?: { client?: { clientName?: string } } }
      ).context?.client?.clientName;
      if (input.includes('/visitor_id')) {
        if (down) return new Response('', { status: 503 });
        const value = `VD-${client}-${issued.filter((v) => v.startsWith(`VD-${client}-`)).length + 1}`;
        issued.push(value);
        return Response.json({ responseContext: { visitorData: value } });
      }
      players.push(new Headers(init.headers).get('x-goog-visitor-id'));
      return Response.json({
        playabilityStatus: { status: 'OK' },
        videoDetails: { videoId: VID, title: 'T', author: 'A', channelId: 'UCwarmwarmwarmwarmwarm00' },
      });
    };
    const yt: YouTubeUpstream = createYouTubeUpstream({
      fetch,
      retries: 0,
      visitorTtlMs: ttlMs,
      random: new SeededRandom(4),
      playerChain: ['VISIONOS'],
      logger: silentLogger,
    });
    return {
      yt,
      issued,
      players,
      setDown: (d: boolean) => {
        down = d;
      },
    };
  }

  it('before it expires (after 80 % of its life), so requests never wait for it', async () => {
    vi.useFakeTimers();
    const { yt, issued, players } = counted(60_000);
    await yt.start();
    expect(issued).toEqual(['VD-VISIONOS-1']);
    await vi.advanceTimersByTimeAsync(47_999);
    expect(issued).toEqual(['VD-VISIONOS-1']);
    await vi.advanceTimersByTimeAsync(1);
    expect(issued).toEqual(['VD-VISIONOS-1', 'VD-VISIONOS-2']);
    await yt.player(VID);
    expect(players).toEqual(['VD-VISIONOS-2']);
    await vi.advanceTimersByTimeAsync(48_000);
    expect(issued).toHaveLength(3);
    yt.stop();
  });

  it('stop() (the app’s close()) ends the refreshes', async () => {
    vi.useFakeTimers();
    const { yt, issued } = counted(60_000);
    await yt.start();
    yt.stop();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(issued).toEqual(['VD-VISIONOS-1']);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('a failed refresh is retried after a minute, then two, …; once expired, requests fetch lazily', async () => {
    vi.useFakeTimers();
    const { yt, issued, players, setDown } = counted(60_000);
    await yt.start();
    setDown(true);
    await vi.advanceTimersByTimeAsync(48_000); // refresh fails; the old value still has 12 s to live
    await yt.player(VID);
    expect(players).toEqual(['VD-VISIONOS-1']);
    setDown(false);
    await vi.advanceTimersByTimeAsync(59_999);
    expect(issued).toEqual(['VD-VISIONOS-1']);
    await vi.advanceTimersByTimeAsync(1); // the retry, a minute after the failure
    expect(issued).toEqual(['VD-VISIONOS-1', 'VD-VISIONOS-2']);
    yt.stop();
  });

  it('the refresh timers never keep a process alive', async () => {
    const began = Date.now();
    const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = execFile(
        process.execPath,
        ['--import', 'tsx', 'test/youtube/warm-child.ts'],
        { timeout: 12_000 },
        (_error, out) => resolve({ code: child.exitCode, stdout: out }),
      );
    });
    expect(stdout).toBe('warmed\n');
    expect(code).toBe(0);
    expect(Date.now() - began).toBeLessThan(12_000); // far below the 48 s refresh delay
  });
});

describeRecordings('warm start over the recorded exchanges (NewPipe, 2026-06-07)', () => {
  it('licenseddoctor: start() asks the three recorded visitor_id; then a cold transcript = 2 requests', async () => {
    const dir = 'stream/youtubestreamextractordefault/licenseddoctor';
    const replay = new ReplayFetch(
      allRecordings().filter((f) => f.startsWith(`${dir}/`) && !f.slice(dir.length + 1).includes('/')),
    );
    replay.handlers.push((url) =>
      url.pathname === '/api/timedtext'
        ? Response.json({
            wireMagic: 'pb3',
            events: [{ tStartMs: 0, dDurationMs: 500, segs: [{ utf8: 'hi' }] }],
          })
        : undefined,
    );
    const yt = createYouTubeUpstream({
      fetch: replay.fetch,
      hl: 'en-GB',
      gl: 'GB',
      clock: new ManualClock('2026-06-07T21:18:00Z'),
      random: new SeededRandom(3),
    });
    await yt.start();
    expect(replay.log.map((r) => r.key).sort()).toEqual([
      'POST /youtubei/v1/visitor_id client=ANDROID',
      'POST /youtubei/v1/visitor_id client=VISIONOS',
      'POST /youtubei/v1/visitor_id client=WEB',
    ]);
    const before = yt.transport.sent;
    const p = await yt.player('rCAS2eD-mcw');
    await yt.captions(p.tracks.find((t) => t.isDefault) ?? p.tracks[0]!);
    expect(yt.transport.sent - before).toBe(2);
    expect(replay.misses).toEqual([]);
    yt.stop();
  });
});
