/**
 * End to end against a fake YouTube: a server on 127.0.0.1 answering from the recorded
 * exchanges (and generated json3 for caption URLs), and the real `tubescribe serve` started with
 * TUBESCRIBE_YOUTUBE_ORIGIN pointing at it. Transcripts, video-info, a channel's second page, a
 * playlist and a search go through the REST API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type ChildServer, startServer } from '../helpers/processes.ts';
import { describeRecordings } from '../youtube/recordings.ts';
import { ReplayFetch } from '../youtube/replay-fetch.ts';

const ADMIN = 'e2e-youtube-admin-token-0123456789';
let youtube: Server;
let replay: ReplayFetch;
let server: ChildServer | undefined;
let base = '';
let key = '';

function startFakeYouTube(): Promise<string> {
  replay = new ReplayFetch();
  replay.handlers.push((url) => {
    if (url.pathname !== '/api/timedtext') return undefined;
    const asr = url.searchParams.get('kind') === 'asr';
    const events = [
      { tStartMs: 0, dDurationMs: 60000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
      {
        tStartMs: 1000,
        dDurationMs: 2500,
        wWinId: 1,
        segs: asr
          ? [{ utf8: 'generated' }, { utf8: ' caption', tOffsetMs: 600 }, { utf8: ' text', tOffsetMs: 1200 }]
          : [{ utf8: `Generated caption (${url.searchParams.get('lang')}).` }],
      },
    ];
    return Response.json({ wireMagic: 'pb3', events });
  });
  youtube = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined;
    const init: RequestInit = { method: req.method ?? 'GET' };
    if (body !== undefined) init.body = body;
    const answer = await replay.fetch(`https://www.youtube.com${req.url ?? '/'}`, init);
    res.writeHead(answer.status, {
      'content-type': answer.headers.get('content-type') ?? 'application/json',
    });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return new Promise((resolve) => {
    youtube.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(youtube.address() as AddressInfo).port}`),
    );
  });
}

async function startTubescribe(origin: string): Promise<string> {
  server = await startServer({
    TUBESCRIBE_STORAGE: 'memory',
    TUBESCRIBE_UPSTREAM: 'youtube',
    TUBESCRIBE_YOUTUBE_ORIGIN: origin,
    TUBESCRIBE_ADMIN_TOKEN: ADMIN,
    TUBESCRIBE_LOG: 'error',
  });
  return server.url;
}

const get = async (path: string) => {
  const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
};

describeRecordings('REST API over a fake YouTube (TUBESCRIBE_YOUTUBE_ORIGIN)', () => {
  beforeAll(async () => {
    base = await startTubescribe(await startFakeYouTube());
    const created = await fetch(`${base}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 50, plan: 'paid' }),
    });
    key = ((await created.json()) as { api_key: string }).api_key;
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await new Promise<void>((resolve) => youtube?.close(() => resolve()));
  });

  it('serves a transcript from the player chain and a caption URL on the fake origin', async () => {
    const manual = await get('/v1/transcripts?video_id=rCAS2eD-mcw&languages=en');
    expect(manual.status).toBe(200);
    expect(manual.headers.get('x-track-type')).toBe('MANUAL');
    expect(manual.body).toMatchObject({ video_id: 'rCAS2eD-mcw', language: 'en', track_kind: 'manual' });
    expect((manual.body.segments as { text: string }[])[0]?.text).toBe('Generated caption (en).');

    const asr = await get('/v1/transcripts?video_id=rCAS2eD-mcw&track_policy=asr_only&word_level=true');
    expect(asr.status).toBe(200);
    const segment = (asr.body.segments as { text: string; words: { word: string; start: number }[] }[])[0]!;
    expect(segment.text).toBe('generated caption text');
    expect(segment.words.map((w) => [w.word, w.start])).toEqual([
      ['generated', 1],
      ['caption', 1.6],
      ['text', 2.2],
    ]);
    // every caption request went to the fake origin (the replay saw them)
    expect(replay.log.some((r) => r.url.includes('/api/timedtext'))).toBe(true);
  });

  it('serves video-info with the recorded chapters and likes', async () => {
    const info = await get('/v1/videos/rCAS2eD-mcw/video-info');
    expect(info.status).toBe(200);
    expect(info.body.like_count).toBe(1000);
    expect((info.body.chapters as { start_time_seconds: number }[]).map((c) => c.start_time_seconds)).toEqual(
      [39, 115, 242, 268],
    );
    expect(info.body.mode).toBe('full');
  });

  it("pages through a channel's videos to the second page", async () => {
    const first = await get('/v1/channels/UCTwECeGqMZee77BjdoYtI2Q/videos');
    expect(first.status).toBe(200);
    expect((first.body.videos as unknown[]).length).toBe(30);
    expect(first.body.has_more).toBe(true);
    const second = await get(
      `/v1/channels/UCTwECeGqMZee77BjdoYtI2Q/videos?cursor=${encodeURIComponent(String(first.body.next_cursor))}`,
    );
    expect(second.status).toBe(200);
    const ids = (second.body.videos as { video_id: string }[]).map((v) => v.video_id);
    expect(ids.length).toBe(30);
    expect(ids).not.toContain((first.body.videos as { video_id: string }[])[0]!.video_id);
  });

  it('pages through a playlist', async () => {
    const first = await get('/v1/playlists/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr');
    expect(first.status).toBe(200);
    expect(first.body.video_count).toBe(150);
    expect((first.body.videos as unknown[]).length).toBe(100);
    const second = await get(
      `/v1/playlists/PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr?cursor=${encodeURIComponent(String(first.body.next_cursor))}`,
    );
    expect((second.body.videos as { index: number }[]).map((v) => v.index)).toEqual(
      Array.from({ length: 50 }, (_, i) => 101 + i),
    );
    expect(second.body.has_more).toBe(false);
    expect(second.body.next_cursor).toBeNull();
  });

  it('searches and pages with a cursor', async () => {
    const first = await get('/v1/search?q=test&limit=20');
    expect(first.status).toBe(200);
    expect(first.body.total_results).toBe(20);
    const second = await get(
      `/v1/search?q=test&limit=20&cursor=${encodeURIComponent(String(first.body.next_cursor))}`,
    );
    expect(second.status).toBe(200);
    expect(second.body.total_results).toBe(20);
    expect(replay.misses.filter((m) => !m.includes('visitor_id'))).toEqual([]);
  });
});
