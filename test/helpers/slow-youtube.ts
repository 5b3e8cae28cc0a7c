/**
 * A fake YouTube on 127.0.0.1 for batch tests and benchmarks: every 11-character video id
 * exists, with one English caption track; every answer comes after `delayMs`. It counts the
 * caption downloads per video, so a test can tell which tasks ran and how often. Each `visitor_id`
 * call gets a visitorData of its own (`visitor-1`, `visitor-2`, …), and each player request is
 * recorded with the `X-Goog-Visitor-Id` it carried: the YouTube driver fetches a visitorData once
 * per process, so a test can tell which process sent which player request.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One player request: the video, and the visitorData it carried (`X-Goog-Visitor-Id`). */
export interface PlayerRequest {
  videoId: string;
  visitor: string | undefined;
}

/** A running fake YouTube. */
export interface SlowYouTube {
  origin: string;
  /** Caption downloads per video id. */
  captions: Map<string, number>;
  /** The visitorData handed out, one per `visitor_id` call, in order. */
  visitors: readonly string[];
  /** Every player request, in arrival order. */
  players: readonly PlayerRequest[];
  /** Latency of every answer (changeable while running). */
  delayMs: number;
  close(): Promise<void>;
}

function player(videoId: string, origin: string): Record<string, unknown> {
  return {
    playabilityStatus: { status: 'OK' },
    videoDetails: {
      videoId,
      title: `Video ${videoId}`,
      author: 'Channel',
      channelId: 'UCslowslowslowslowslow00',
      lengthSeconds: '60',
    },
    captions: {
      playerCaptionsTracklistRenderer: {
        captionTracks: [
          {
            baseUrl: `${origin}/api/timedtext?v=${videoId}&lang=en&kind=asr`,
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

/** Options of {@link startSlowYouTube}. */
export interface SlowYouTubeOptions {
  /**
   * Caption events per video. Default 1 (a tiny transcript); ~800 is a 20-minute video's
   * auto-generated track (~75 KB of transcript JSON per task).
   */
  captionEvents?: number;
}

/** Starts the fake YouTube. */
export async function startSlowYouTube(
  delayMs: number,
  options: SlowYouTubeOptions = {},
): Promise<SlowYouTube> {
  const events = Math.max(1, options.captionEvents ?? 1);
  const state = {
    delayMs,
    captions: new Map<string, number>(),
    visitors: [] as string[],
    players: [] as PlayerRequest[],
  };
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await new Promise((resolve) => setTimeout(resolve, state.delayMs));
    const url = new URL(req.url ?? '/', origin);
    let answer: unknown;
    if (url.pathname === '/api/timedtext') {
      const id = url.searchParams.get('v') ?? '';
      state.captions.set(id, (state.captions.get(id) ?? 0) + 1);
      answer = {
        wireMagic: 'pb3',
        events: Array.from({ length: events }, (_, k) => ({
          tStartMs: k * 1500,
          dDurationMs: 1500,
          segs: [{ utf8: k === 0 ? `words of ${id}` : `spoken words number ${k} of ${id}` }],
        })),
      };
    } else if (url.pathname.endsWith('/visitor_id')) {
      const visitorData = `visitor-${state.visitors.length + 1}`;
      state.visitors.push(visitorData);
      answer = { responseContext: { visitorData } };
    } else {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        videoId?: string;
        playerRequest?: { videoId?: string };
      };
      const videoId = body.videoId ?? body.playerRequest?.videoId ?? '';
      if (url.pathname.endsWith('/player')) {
        const visitor = req.headers['x-goog-visitor-id'];
        state.players.push({ videoId, visitor: Array.isArray(visitor) ? visitor[0] : visitor });
      }
      answer = player(videoId, origin);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    get captions() {
      return state.captions;
    },
    get visitors() {
      return state.visitors;
    },
    get players() {
      return state.players;
    },
    get delayMs() {
      return state.delayMs;
    },
    set delayMs(ms: number) {
      state.delayMs = ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * `n` distinct, well-formed video ids: `salt` (1–10 characters of `A-Z a-z 0-9 _ -`) followed by
 * the zero-padded index, 11 characters in all. Distinct salts of one length give distinct ids.
 */
export function videoIds(n: number, salt = 'v'): string[] {
  const digits = 11 - salt.length;
  if (digits < 1 || n > 10 ** digits) throw new Error(`videoIds: ${n} ids do not fit after "${salt}"`);
  return Array.from({ length: n }, (_, i) => `${salt}${String(i).padStart(digits, '0')}`);
}
