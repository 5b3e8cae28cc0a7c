/**
 * The YouTube driver's resilience (`createYouTubeUpstream` over a fake YouTube in a fetch): each
 * caption download has its own timeout, each player client a circuit breaker (`health()`), and
 * "no captions" needs a second client's word.
 */
import { describe, expect, it } from 'vitest';
import { chooseTrack } from '../../src/core/tracks.ts';
import { createYouTubeUpstream, type YouTubeOptions } from '../../src/drivers/youtube/index.ts';
import { CAPTION_TIMEOUT_MS, refClient } from '../../src/drivers/youtube/video-source.ts';
import { ApiError } from '../../src/errors.ts';
import type { TimedText } from '../../src/ports/upstream.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';

const VID = 'FakeVideo01';

/** How one client's player answers: with one track, with none, or refusing (400). */
type PlayerMode = 'track' | 'none' | 'refuse';
/** How one client's caption URL answers. */
type CaptionMode = 'text' | 'empty' | 'stall';

const JSON3 = { wireMagic: 'pb3', events: [{ tStartMs: 0, dDurationMs: 900, segs: [{ utf8: 'hello' }] }] };

/** A fake YouTube: `players` and `captions` by client name are mutable between calls. */
function fakeYouTube() {
  const players: Record<string, PlayerMode> = {};
  const captions: Record<string, CaptionMode> = {};
  const log: string[] = [];
  const aborted: string[] = [];
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    type Body = { context?: { client?: { clientName?: string } } };
    const body: Body = typeof init.body === 'string' ? (JSON.parse(init.body) as Body) : {};
    const client = body.context?.client?.clientName ?? '';
    if (url.pathname.endsWith('/visitor_id'))
      return Response.json({ responseContext: { visitorData: `VD-${client}` } });
    if (url.pathname === '/api/timedtext') {
      const from = url.searchParams.get('ei')?.slice(1) ?? '';
      log.push(`timedtext:${from}`);
      const mode = captions[from] ?? 'text';
      if (mode === 'text') return Response.json(JSON3);
      if (mode === 'empty') return new Response('', { status: 200 });
      // Stalls 8 s, then answers empty, unless aborted first.
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => resolve(new Response('', { status: 200 })), 8000);
        init.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          aborted.push(from);
          reject(init.signal?.reason);
        });
      });
    }
    log.push(`player:${client}`);
    const mode = players[client] ?? 'track';
    if (mode === 'refuse')
      return Response.json({ error: { code: 400, status: 'FAILED_PRECONDITION' } }, { status: 400 });
    const tracks =
      mode === 'none'
        ? []
        : [
            {
              baseUrl: `https://www.youtube.com/api/timedtext?v=${VID}&ei=E${client}&kind=asr&lang=en`,
              name: { runs: [{ text: 'English' }] },
              vssId: 'a.en',
              languageCode: 'en',
              kind: 'asr',
            },
          ];
    const player = {
      playabilityStatus: { status: 'OK' },
      videoDetails: { videoId: VID, title: 'Fake', author: 'A', channelId: 'UCfake00000000000000000a' },
      ...(tracks.length > 0
        ? { captions: { playerCaptionsTracklistRenderer: { captionTracks: tracks } } }
        : {}),
    };
    return Response.json(client === 'ANDROID' ? { playerResponse: player } : player);
  };
  return { players, captions, log, aborted, fetch };
}

function driver(fake: ReturnType<typeof fakeYouTube>, options: YouTubeOptions = {}) {
  const clock = new ManualClock('2026-06-01T00:00:00.000Z');
  const yt = createYouTubeUpstream({
    fetch: fake.fetch,
    clock,
    random: new SeededRandom(5),
    retries: 0,
    ...options,
  });
  return { yt, clock };
}

/** player, then the captions of its first track; `client` is the one whose caption URL served. */
async function transcript(
  yt: ReturnType<typeof driver>['yt'],
  fake: ReturnType<typeof fakeYouTube>,
): Promise<{ client: string | undefined; text: TimedText }> {
  const p = await yt.player(VID);
  const text = await yt.captions(p.tracks[0]!);
  const last = fake.log.filter((l) => l.startsWith('timedtext:')).pop();
  return { client: last?.slice('timedtext:'.length), text };
}

describe('each caption download has its own timeout', () => {
  it('defaults to 4 s', () => {
    expect(CAPTION_TIMEOUT_MS).toBe(4000);
  });

  it('a stalled caption URL is aborted and the next client serves the transcript', async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'stall';
    const { yt } = driver(fake, { captionTimeoutMs: 100 });
    const p = await yt.player(VID);
    expect(refClient(p.tracks[0]!.ref)).toBe('VISIONOS');
    const text = await yt.captions(p.tracks[0]!);
    expect(text).toMatchObject({ format: 'json3', document: { events: [{ segs: [{ utf8: 'hello' }] }] } });
    expect(fake.aborted).toEqual(['VISIONOS']);
    expect(fake.log).toEqual([
      'player:VISIONOS',
      'timedtext:VISIONOS',
      'player:ANDROID',
      'timedtext:ANDROID',
    ]);
    expect(yt.health?.().find((c) => c.name === 'VISIONOS')?.recent_failures).toBe(1);
  });

  it("the caller's own abort is not a stall: it rejects the call", async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'stall';
    const { yt } = driver(fake, { captionTimeoutMs: 60_000 });
    const p = await yt.player(VID);
    const controller = new AbortController();
    const call = yt.captions(p.tracks[0]!, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('caller gone')), 20);
    await expect(call).rejects.toThrow('caller gone');
    expect(fake.log).not.toContain('player:ANDROID');
  });
});

describe('client health: a circuit breaker per player client', () => {
  it('three empty answers in a row open a client: it is skipped, the others serve', async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'empty';
    const { yt, clock } = driver(fake);
    for (let i = 0; i < 3; i++) expect((await transcript(yt, fake)).client).toBe('ANDROID');
    expect(yt.health?.()).toEqual([
      { name: 'VISIONOS', state: 'open', last_success_at: null, recent_failures: 3 },
      { name: 'ANDROID', state: 'closed', last_success_at: '2026-06-01T00:00:00.000Z', recent_failures: 0 },
      { name: 'WEB', state: 'closed', last_success_at: null, recent_failures: 0 },
    ]);
    fake.log.length = 0;
    clock.advance(299_999);
    expect((await transcript(yt, fake)).client).toBe('ANDROID');
    expect(fake.log).toEqual(['player:ANDROID', 'timedtext:ANDROID']);
  });

  it('after 5 minutes one probe goes through (half-open); its success closes the breaker', async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'empty';
    const { yt, clock } = driver(fake);
    for (let i = 0; i < 3; i++) await transcript(yt, fake);
    clock.advance(300_000);
    fake.captions.VISIONOS = 'text';
    fake.log.length = 0;
    const p = await yt.player(VID);
    expect(refClient(p.tracks[0]!.ref)).toBe('VISIONOS');
    expect(yt.health?.()[0]?.state).toBe('half_open');
    await yt.captions(p.tracks[0]!);
    expect(fake.log).toEqual(['player:VISIONOS', 'timedtext:VISIONOS']);
    expect(yt.health?.()[0]).toEqual({
      name: 'VISIONOS',
      state: 'closed',
      last_success_at: '2026-06-01T00:05:00.000Z',
      recent_failures: 0,
    });
  });

  it('a failed probe opens the breaker again', async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'empty';
    const { yt, clock } = driver(fake, { clientHealth: { threshold: 2, cooldownMs: 1000 } });
    for (let i = 0; i < 2; i++) await transcript(yt, fake);
    clock.advance(1000);
    fake.log.length = 0;
    expect((await transcript(yt, fake)).client).toBe('ANDROID');
    expect(fake.log).toEqual([
      'player:VISIONOS',
      'timedtext:VISIONOS',
      'player:ANDROID',
      'timedtext:ANDROID',
    ]);
    expect(yt.health?.()[0]).toMatchObject({ state: 'open', recent_failures: 3 });
    fake.log.length = 0;
    await transcript(yt, fake);
    expect(fake.log).toEqual(['player:ANDROID', 'timedtext:ANDROID']);
  });

  it('every client open: the chain is asked anyway', async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'empty';
    const { yt } = driver(fake, { playerChain: ['VISIONOS'], clientHealth: { threshold: 1 } });
    await expect(transcript(yt, fake)).rejects.toMatchObject({ code: 'upstream_blocked' });
    expect(yt.health?.()[0]?.state).toBe('open');
    fake.captions.VISIONOS = 'text';
    expect((await transcript(yt, fake)).client).toBe('VISIONOS');
  });
});

describe('"no captions" only when it is the truth', () => {
  const chain = ['VISIONOS', 'ANDROID'];

  it('both clients say none → no tracks (captions_disabled)', async () => {
    const fake = fakeYouTube();
    fake.players.VISIONOS = 'none';
    fake.players.ANDROID = 'none';
    const { yt } = driver(fake, { playerChain: chain });
    const p = await yt.player(VID);
    expect(p.tracks).toEqual([]);
    expect(fake.log).toEqual(['player:VISIONOS', 'player:ANDROID']);
    expect(() => chooseTrack(p.tracks, ['en'], 'manual_first')).toThrow(
      expect.objectContaining({ code: 'captions_disabled' }),
    );
  });

  it('first says none, the second has tracks → the transcript, from the second', async () => {
    const fake = fakeYouTube();
    fake.players.VISIONOS = 'none';
    const { yt } = driver(fake, { playerChain: chain });
    const t = await transcript(yt, fake);
    expect(t.client).toBe('ANDROID');
    expect(t.text.format).toBe('json3');
  });

  it('a client whose breaker is open is still asked to confirm "no tracks"', async () => {
    const fake = fakeYouTube();
    fake.captions.ANDROID = 'empty';
    fake.players.VISIONOS = 'none';
    const { yt } = driver(fake, { playerChain: chain, clientHealth: { threshold: 1 } });
    const p = await yt.player(VID);
    await expect(yt.captions(p.tracks[0]!)).rejects.toMatchObject({ code: 'upstream_blocked' });
    expect(yt.health?.()[1]?.state).toBe('open');
    fake.players.ANDROID = 'none';
    fake.log.length = 0;
    expect((await yt.player(VID)).tracks).toEqual([]);
    expect(fake.log).toEqual(['player:VISIONOS', 'player:ANDROID']);
  });

  it('an open client earlier in the chain is asked to confirm too', async () => {
    const fake = fakeYouTube();
    fake.captions.VISIONOS = 'empty';
    const { yt } = driver(fake, { playerChain: chain, clientHealth: { threshold: 1 } });
    await transcript(yt, fake);
    expect(yt.health?.()[0]?.state).toBe('open');
    fake.players.ANDROID = 'none';
    fake.log.length = 0;
    const p = await yt.player(VID);
    expect(refClient(p.tracks[0]!.ref)).toBe('VISIONOS');
    expect(fake.log).toEqual(['player:ANDROID', 'player:VISIONOS']);
  });

  it('first says none, the second cannot answer → upstream_blocked (retryable), never captions_disabled', async () => {
    const fake = fakeYouTube();
    fake.players.VISIONOS = 'none';
    fake.players.ANDROID = 'refuse';
    const { yt } = driver(fake, { playerChain: chain });
    const error = await yt.player(VID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code: 'upstream_blocked', retryable: true });
  });
});
