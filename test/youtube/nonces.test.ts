/**
 * Injected means injected: every nonce the YouTube driver puts in a request (the player call's `t`
 * query parameter and its `cpn`) comes from the upstream's `random`. Two upstreams built with the
 * same seeded Random over the same fake YouTube send byte-identical requests; another seed changes
 * the nonces and nothing else.
 */
import { describe, expect, it } from 'vitest';
import { createTubescribe } from '../../src/app.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import type { FetchLike } from '../../src/ports/fetch.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';

const VIDEOS = ['NonceVideo1', 'NonceVideo2'];

/** A player response with one auto-generated English track. */
function player(videoId: string): Record<string, unknown> {
  return {
    playabilityStatus: { status: 'OK' },
    videoDetails: { videoId, title: 'Nonces', author: 'Channel', channelId: 'UCnonce0000000000000000a' },
    captions: {
      playerCaptionsTracklistRenderer: {
        captionTracks: [
          {
            baseUrl: `https://www.youtube.com/api/timedtext?v=${videoId}&signature=S&kind=asr&lang=en`,
            name: { simpleText: 'English (auto-generated)' },
            vssId: 'a.en',
            languageCode: 'en',
            kind: 'asr',
          },
        ],
      },
    },
  };
}

/** A fake YouTube: VISIONOS refuses (outdated client), so ANDROID's reel call runs too. */
function fakeYouTube(): { fetch: FetchLike; sent: string[] } {
  const sent: string[] = [];
  const fetch: FetchLike = async (input, init) => {
    const body = typeof init.body === 'string' ? init.body : '';
    sent.push(`${init.method} ${input}\n${JSON.stringify(init.headers)}\n${body}`);
    const path = new URL(input).pathname;
    if (path.endsWith('/visitor_id')) return Response.json({ responseContext: { visitorData: 'VD' } });
    if (path === '/api/timedtext') {
      return Response.json({ wireMagic: 'pb3', events: [{ tStartMs: 0, segs: [{ utf8: 'words' }] }] });
    }
    const request = JSON.parse(body) as { videoId?: string; playerRequest?: { videoId: string } };
    const client = (JSON.parse(body) as { context: { client: { clientName: string } } }).context.client;
    if (client.clientName === 'VISIONOS') {
      return Response.json({ error: { code: 400, status: 'FAILED_PRECONDITION' } }, { status: 400 });
    }
    if (path.endsWith('/reel/reel_item_watch')) {
      return Response.json({ playerResponse: player(request.playerRequest?.videoId ?? '') });
    }
    return Response.json(player(request.videoId ?? ''));
  };
  return { fetch, sent };
}

/** Every request (method, URL, headers, body) one upstream with `seed` sends for a few transcripts. */
async function requests(seed: number): Promise<string[]> {
  const youtube = fakeYouTube();
  const yt = createYouTubeUpstream({
    fetch: youtube.fetch,
    random: new SeededRandom(seed),
    clock: new ManualClock('2026-06-07T21:18:00Z'),
    retries: 0,
  });
  for (const id of VIDEOS) {
    const data = await yt.player(id);
    await yt.captions(data.tracks[0]!);
  }
  return youtube.sent;
}

/** The `t` and `cpn` nonces of the player calls among `sent`. */
function nonces(sent: string[]): string[] {
  return sent.flatMap((line) => {
    const [request = '', , body = ''] = line.split('\n');
    const t = new URL(request.split(' ')[1] ?? '').searchParams.get('t');
    if (t === null) return [];
    const json = JSON.parse(body) as { cpn?: string; playerRequest?: { cpn?: string } };
    return [`t=${t} cpn=${json.cpn ?? json.playerRequest?.cpn}`];
  });
}

/** `sent` with the nonces blanked. */
function withoutNonces(sent: string[]): string[] {
  return sent.map((line) => line.replace(/([?&]t=)[\w-]+/, '$1_').replace(/("cpn":")[\w-]+/, '$1_'));
}

describe('request nonces come from the injected Random only', () => {
  it('the same seed sends byte-identical requests, nonces included', async () => {
    const a = await requests(42);
    const b = await requests(42);
    // Per video: VISIONOS refused, ANDROID's reel call, the caption download (visitor_id once per client).
    const visitor = 'POST https://youtubei.googleapis.com/youtubei/v1/visitor_id';
    const perVideo = [
      'POST https://youtubei.googleapis.com/youtubei/v1/player',
      'POST https://youtubei.googleapis.com/youtubei/v1/reel/reel_item_watch',
      'GET https://www.youtube.com/api/timedtext',
    ];
    expect(a.map((line) => line.split('\n', 1)[0]!.replace(/\?.*/, ''))).toEqual([
      visitor,
      perVideo[0],
      visitor,
      ...perVideo.slice(1),
      ...perVideo,
    ]);
    expect(nonces(a)).toHaveLength(2 * VIDEOS.length);
    expect(new Set(nonces(a)).size).toBe(nonces(a).length);
    expect(b).toEqual(a);
  });

  it('another seed changes the nonces, and only them', async () => {
    const a = await requests(42);
    const c = await requests(43);
    const [na, nc] = [nonces(a), nonces(c)];
    expect(nc).toHaveLength(na.length);
    for (const [i, n] of na.entries()) {
      const [ta, cpna] = n.split(' ');
      const [tc, cpnc] = nc[i]!.split(' ');
      expect(tc).not.toBe(ta);
      expect(cpnc).not.toBe(cpna);
    }
    expect(withoutNonces(c)).toEqual(withoutNonces(a));
  });
});

/**
 * Two whole apps with the same seeded Random (and the default YouTube driver over the same fake
 * YouTube): the same request ids, keys and ids, and the same requests to YouTube, nonces included.
 */
async function appRun(seed: number): Promise<{ sent: string[]; seen: string[] }> {
  const youtube = fakeYouTube();
  const ts = createTubescribe({
    random: new SeededRandom(seed),
    clock: new ManualClock('2026-06-07T21:18:00Z'),
    logger: silentLogger,
    youtube: { fetch: youtube.fetch, retries: 0 },
    adminToken: 'admin-token-for-nonce-tests-0123',
    limits: { reconcileIntervalMs: 0 },
  });
  const created = await ts.app.request('/admin/keys', {
    method: 'POST',
    headers: { authorization: 'Bearer admin-token-for-nonce-tests-0123', 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 10, plan: 'paid' }),
  });
  const key = ((await created.json()) as { api_key: string }).api_key;
  const seen = [created.headers.get('x-request-id') ?? '', key];
  for (const id of VIDEOS) {
    const res = await ts.app.request(`/v1/transcripts?video_id=${id}&format=text`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    seen.push(res.headers.get('x-request-id') ?? '', await res.text());
  }
  await ts.close();
  return { sent: youtube.sent, seen };
}

describe('the app hands its Random to the default YouTube driver', () => {
  it('two apps with the same seed make the same ids and send the same nonces', async () => {
    const a = await appRun(7);
    const b = await appRun(7);
    expect(nonces(a.sent)).toHaveLength(2 * VIDEOS.length);
    expect(b.sent).toEqual(a.sent);
    expect(b.seen).toEqual(a.seen);
    const c = await appRun(8);
    expect(nonces(c.sent)).not.toEqual(nonces(a.sent));
    expect(c.seen[1]).not.toBe(a.seen[1]);
  });
});
