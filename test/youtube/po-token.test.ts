/**
 * Optional PO tokens (issue 12, item 5): the YouTube driver over a fake YouTube (a fetch) whose WEB
 * caption URLs are PO-gated (`exp=xpe`: without `pot` they stall, then answer empty), with a fake
 * bgutil provider on 127.0.0.1 (a real HTTP server). With a provider, WEB's gated URLs carry
 * `pot`, `potc=1` and `c=WEB`; a provider that is down or slow costs no stall and the other clients
 * serve as before; without a provider nothing changes (WEB stays a track inventory).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTubescribe } from '../../src/app.ts';
import { parseArgs } from '../../src/cli/args.ts';
import { ConfigError, loadConfig } from '../../src/cli/config.ts';
import { appOptionsFor } from '../../src/cli/serve.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { createYouTubeUpstream, type YouTubeOptions } from '../../src/drivers/youtube/index.ts';
import { refClient } from '../../src/drivers/youtube/video-source.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';
import { deadProviderUrl, type FakePotProvider, startFakePotProvider } from './fake-pot-provider.ts';
import { describeRecordings, recordedFile } from './recordings.ts';

const VID = 'FakeVideo01';
const JSON3 = (text: string) => ({
  wireMagic: 'pb3',
  events: [{ tStartMs: 0, dDurationMs: 900, segs: [{ utf8: text }] }],
});

/** How a client's caption URL answers (WEB's is gated: it needs a `pot`). */
type CaptionMode = 'text' | 'empty';

/** A fake YouTube in a fetch: WEB's tracks carry `exp=xpe`; `refuse` lists clients answering 400. */
function fakeYouTube(options: { webPlayer?: unknown; webVideo?: string; stallMs?: number } = {}) {
  const refuse = new Set<string>();
  const captions: Record<string, CaptionMode> = {};
  const timedtext: URL[] = [];
  const stallMs = options.stallMs ?? 8000;
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    type Body = { context?: { client?: { clientName?: string } } };
    const body: Body = typeof init.body === 'string' ? (JSON.parse(init.body) as Body) : {};
    const client = body.context?.client?.clientName ?? '';
    if (url.pathname.endsWith('/visitor_id'))
      return Response.json({ responseContext: { visitorData: `VD-${client}` } });
    if (url.pathname === '/api/timedtext') {
      timedtext.push(url);
      const from = url.searchParams.get('ei')?.slice(1) ?? '';
      const gated = url.searchParams.get('exp') === 'xpe';
      if (gated && url.searchParams.get('pot')) return Response.json(JSON3('from WEB with a token'));
      if (gated) {
        // YouTube's gate: a stall, then an empty 200 (unless the caller gives up first).
        return new Promise((resolve, reject) => {
          const timer = setTimeout(() => resolve(new Response('', { status: 200 })), stallMs);
          init.signal?.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(init.signal?.reason);
          });
        });
      }
      return (captions[from] ?? 'text') === 'text'
        ? Response.json(JSON3(`from ${from}`))
        : new Response('', { status: 200 });
    }
    if (refuse.has(client))
      return Response.json({ error: { code: 400, status: 'FAILED_PRECONDITION' } }, { status: 400 });
    if (client === 'WEB' && options.webPlayer) return Response.json(options.webPlayer);
    const gate = client === 'WEB' ? '&exp=xpe' : '';
    const player = {
      playabilityStatus: { status: 'OK' },
      videoDetails: { videoId: VID, title: 'Fake', author: 'A', channelId: 'UCfake00000000000000000a' },
      captions: {
        playerCaptionsTracklistRenderer: {
          captionTracks: [
            {
              baseUrl: `https://www.youtube.com/api/timedtext?v=${VID}&ei=E${client}&caps=asr${gate}&sparams=ip,exp&signature=S.S&kind=asr&lang=en`,
              name: { runs: [{ text: 'English' }] },
              vssId: 'a.en',
              languageCode: 'en',
              kind: 'asr',
            },
          ],
        },
      },
    };
    return Response.json(client === 'ANDROID' ? { playerResponse: player } : player);
  };
  return { refuse, captions, timedtext, fetch };
}

function driver(fake: ReturnType<typeof fakeYouTube>, options: YouTubeOptions = {}) {
  return createYouTubeUpstream({
    fetch: fake.fetch,
    clock: new ManualClock(Date.now()),
    random: new SeededRandom(12),
    retries: 0,
    ...options,
  });
}

let provider: FakePotProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

/** The caption text of a json3 answer. */
const textOf = (t: unknown): string =>
  (t as { document: { events: { segs: { utf8: string }[] }[] } }).document.events[0]!.segs[0]!.utf8;

describe('with a PO-token provider', () => {
  it('a WEB caption URL that needs a token carries pot, potc=1 and c=WEB (bound to the video)', async () => {
    provider = await startFakePotProvider();
    const fake = fakeYouTube();
    fake.refuse.add('VISIONOS').add('ANDROID');
    const yt = driver(fake, { potProvider: provider.url });
    const p = await yt.player(VID);
    expect(p.tracks.map((t) => [t.languageCode, refClient(t.ref)])).toEqual([['en', 'WEB']]);
    expect(textOf(await yt.captions(p.tracks[0]!))).toBe('from WEB with a token');
    const url = fake.timedtext[0]!;
    expect(fake.timedtext).toHaveLength(1);
    expect(url.searchParams.get('pot')).toBe(provider.tokenFor(VID));
    expect(url.searchParams.get('potc')).toBe('1');
    expect(url.searchParams.get('c')).toBe('WEB');
    // The signed parameters stay as YouTube sent them.
    expect(url.search).toContain('&exp=xpe&sparams=ip,exp&signature=S.S&');
    expect(provider.calls.map((c) => c.body)).toEqual([{ content_binding: VID }]);
    // The token is kept for its lifetime: the next download of the video does not ask again.
    await yt.captions(p.tracks[0]!);
    expect(provider.calls).toHaveLength(1);
  });

  it('VISIONOS and ANDROID captions empty (gated): WEB with a token serves the transcript', async () => {
    provider = await startFakePotProvider();
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'empty';
    fake.captions.ANDROID = 'empty';
    const yt = driver(fake, { potProvider: provider.url });
    const p = await yt.player(VID);
    expect(refClient(p.tracks[0]!.ref)).toBe('VISIONOS');
    expect(textOf(await yt.captions(p.tracks[0]!))).toBe('from WEB with a token');
    expect(fake.timedtext.map((u) => u.searchParams.get('ei'))).toEqual(['EVISIONOS', 'EANDROID', 'EWEB']);
  });

  it('a tokenless client URL (no exp=xpe) is left as it is', async () => {
    provider = await startFakePotProvider();
    const fake = fakeYouTube();
    const yt = driver(fake, { potProvider: provider.url });
    const p = await yt.player(VID);
    await yt.captions(p.tracks[0]!);
    expect(fake.timedtext[0]!.searchParams.has('pot')).toBe(false);
    expect(provider.calls).toHaveLength(0);
  });

  it('through the app: TUBESCRIBE_POT_PROVIDER (youtube.potProvider) serves WEB captions', async () => {
    provider = await startFakePotProvider();
    const fake = fakeYouTube();
    fake.refuse.add('VISIONOS').add('ANDROID');
    const ts = createTubescribe({
      logger: silentLogger,
      adminToken: 'admin-token-for-pot-tests-0123456',
      limits: { reconcileIntervalMs: 0 },
      youtube: { fetch: fake.fetch, retries: 0, potProvider: provider.url },
    });
    await ts.start();
    const created = await ts.app.request('/admin/keys', {
      method: 'POST',
      headers: {
        authorization: 'Bearer admin-token-for-pot-tests-0123456',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ credits: 5, plan: 'paid' }),
    });
    const { api_key: key } = (await created.json()) as { api_key: string };
    const res = await ts.app.request(`/v1/transcripts?video_id=${VID}&format=text`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('from WEB with a token');
    expect(provider.pings).toBe(1); // start-up checked that the provider answers
    await ts.close();
  });

  it('TUBESCRIBE_POT_PROVIDER (or --pot-provider) reaches the driver; a bad value is a ConfigError', () => {
    const args = parseArgs(['serve']);
    const config = loadConfig(args, { TUBESCRIBE_POT_PROVIDER: 'http://127.0.0.1:4416' });
    expect(config.potProvider).toBe('http://127.0.0.1:4416');
    expect(appOptionsFor(config, {}).youtube?.potProvider).toBe('http://127.0.0.1:4416');
    expect(loadConfig(parseArgs(['serve', '--pot-provider', 'https://pot.internal']), {}).potProvider).toBe(
      'https://pot.internal',
    );
    expect(loadConfig(args, {}).potProvider).toBeUndefined();
    expect(appOptionsFor(loadConfig(args, {}), {}).youtube).not.toHaveProperty('potProvider');
    const bad = () => loadConfig(args, { TUBESCRIBE_POT_PROVIDER: 'ftp://user:s3cr3t@pot' });
    expect(bad).toThrow(ConfigError);
    expect(bad).toThrow(/^TUBESCRIBE_POT_PROVIDER: expected http/);
    expect(bad).not.toThrow(/s3cr3t/);
  });

  it('an invalid provider URL is refused at construction, without echoing it', () => {
    expect(() => driver(fakeYouTube(), { potProvider: 'localhost:4416' })).toThrow(
      /^youtube\.potProvider \(TUBESCRIBE_POT_PROVIDER\): expected http/,
    );
  });
});

describe('a provider that is down or slow fails nothing worse than no provider', () => {
  it('down: the WEB URL is not fetched (no stall); the next client serves', async () => {
    const fake = fakeYouTube();
    const yt = driver(fake, { potProvider: await deadProviderUrl(), playerChain: ['WEB', 'VISIONOS'] });
    const p = await yt.player(VID);
    expect(refClient(p.tracks[0]!.ref)).toBe('WEB');
    const began = Date.now();
    expect(textOf(await yt.captions(p.tracks[0]!))).toBe('from VISIONOS');
    expect(Date.now() - began).toBeLessThan(2000);
    expect(fake.timedtext.map((u) => u.searchParams.get('ei'))).toEqual(['EVISIONOS']);
    expect(yt.health?.().find((c) => c.name === 'WEB')?.recent_failures).toBe(1);
  });

  it('down, and every other client refuses: upstream_blocked at once, as without a provider', async () => {
    const fake = fakeYouTube();
    fake.refuse.add('VISIONOS').add('ANDROID');
    const yt = driver(fake, { potProvider: await deadProviderUrl() });
    const began = Date.now();
    const error = await yt
      .player(VID)
      .then((p) => yt.captions(p.tracks[0]!))
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_blocked', retryable: true });
    expect(Date.now() - began).toBeLessThan(2000);
    expect(fake.timedtext).toEqual([]);
  });

  it('slow: the provider call is bounded by its timeout, then the next client serves', async () => {
    provider = await startFakePotProvider('stall');
    const fake = fakeYouTube();
    const yt = driver(fake, {
      potProvider: provider.url,
      potTimeoutMs: 200,
      playerChain: ['WEB', 'VISIONOS'],
    });
    const p = await yt.player(VID);
    const began = Date.now();
    expect(textOf(await yt.captions(p.tracks[0]!))).toBe('from VISIONOS');
    expect(Date.now() - began).toBeLessThan(2000);
    expect(provider.calls).toHaveLength(1);
  });

  it('refusing (500): no token, the next client serves', async () => {
    provider = await startFakePotProvider('error');
    const fake = fakeYouTube();
    const yt = driver(fake, { potProvider: provider.url, playerChain: ['WEB', 'VISIONOS'] });
    const p = await yt.player(VID);
    expect(textOf(await yt.captions(p.tracks[0]!))).toBe('from VISIONOS');
  });
});

describe('without a provider nothing changes', () => {
  it('WEB is a track inventory only: its gated tracks are not offered', async () => {
    const fake = fakeYouTube();
    const yt = driver(fake, { playerChain: ['WEB', 'VISIONOS'] });
    const p = await yt.player(VID);
    expect(p.tracks.map((t) => refClient(t.ref))).toEqual(['VISIONOS']);
    await yt.captions(p.tracks[0]!);
    expect(fake.timedtext.map((u) => u.searchParams.get('ei'))).toEqual(['EVISIONOS']);
    expect(fake.timedtext.some((u) => u.searchParams.has('pot'))).toBe(false);
  });

  it('every other client refusing: upstream_blocked (PO token), no WEB caption download', async () => {
    const fake = fakeYouTube();
    fake.refuse.add('VISIONOS').add('ANDROID');
    const yt = driver(fake);
    await expect(yt.player(VID)).rejects.toMatchObject({ code: 'upstream_blocked', retryAfter: 300 });
    expect(fake.timedtext).toEqual([]);
  });
});

describeRecordings('PO tokens on a recorded WEB player (youtube-transcript-api youtube.html.static)', () => {
  it('every recorded WEB track (exp=xpe) becomes usable; its URL keeps its signature and gains the token', async () => {
    const html = recordedFile('youtube-transcript-api/youtube.html.static');
    const m = /var ytInitialPlayerResponse\s*=\s*/.exec(html)!;
    const start = m.index + m[0].length;
    const webPlayer = JSON.parse(html.slice(start, html.indexOf(';</script>', start))) as unknown;
    provider = await startFakePotProvider();
    const fake = fakeYouTube({ webPlayer });
    fake.refuse.add('VISIONOS').add('ANDROID');
    const yt = driver(fake, { potProvider: provider.url });
    const p = await yt.player('GJLlxj_dtq8');
    expect(p.tracks.map((t) => `${t.languageCode}${t.kind === 'asr' ? '/asr' : ''}`).join(' ')).toBe(
      'zh cs en en/asr de hi ja ko es',
    );
    const en = p.tracks.find((t) => t.languageCode === 'en' && t.kind === 'manual')!;
    expect(textOf(await yt.captions(en))).toBe('from WEB with a token');
    const url = fake.timedtext[0]!;
    expect(url.searchParams.get('pot')).toBe(provider.tokenFor('GJLlxj_dtq8'));
    expect([url.searchParams.get('potc'), url.searchParams.get('c')]).toEqual(['1', 'WEB']);
    expect(url.searchParams.get('signature')).toBe(
      '6A611CDC50DBD2B428E482AFC7E0D034DD29F744.A97811DFD338429D0B376D0E82C6EF86FFE12E63',
    );
    expect(url.searchParams.get('sparams')).toBe('ip,ipbits,expire,v,ei,caps,opi,exp,xoaf');
    expect(provider.calls.map((c) => c.body)).toEqual([{ content_binding: 'GJLlxj_dtq8' }]);
  });
});
