/**
 * A fake YouTube on 127.0.0.1 for batch tests and benchmarks: every 11-character video id
 * exists, with one English caption track; every answer comes after `delayMs`. It counts the
 * caption downloads per video, so a test can tell which tasks ran and how often. Each `visitor_id`
 * call gets a visitorData of its own (`visitor-1`, `visitor-2`, …), and each player request is
 * recorded with the `X-Goog-Visitor-Id` it carried: the YouTube driver fetches a visitorData once
 * per client and process, so a test can tell which process sent which player request.
 *
 * Faults on demand (options): the caption URLs of some clients stall (8 s by default) and then
 * answer an empty 200, as YouTube's PO-token gate does; some clients' tracks are PO-gated
 * (`exp=xpe`) and answer only when the URL carries a `pot`. Every request is logged as
 * `<kind> <client>` (`visitor_id VISIONOS`, `player WEB`, `reel ANDROID`, `timedtext VISIONOS`),
 * and the requests in flight are counted (now and at most).
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
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
  /**
   * The visitorData handed to the VISIONOS client (the first of the default chain: the client
   * whose player requests this fake answers first), one per `visitor_id` call, in order.
   */
  visitors: readonly string[];
  /** Every `visitor_id` call: the client and the visitorData it got, in order. */
  visitorCalls: readonly { client: string; visitorData: string }[];
  /** Every player request, in arrival order. */
  players: readonly PlayerRequest[];
  /** Every request as `<kind> <client>`, in arrival order (a test may clear it). */
  requests: string[];
  /** The `pot` values of PO-gated caption downloads, in order. */
  tokens: readonly string[];
  /** Requests being answered now, and the most at once since the start (or the last reset). */
  readonly inFlight: number;
  maxInFlight: number;
  /** Latency of every answer (changeable while running). */
  delayMs: number;
  /** Clients whose caption URLs stall, then answer empty (changeable while running). */
  stallCaptions: Set<string>;
  close(): Promise<void>;
}

function player(videoId: string, origin: string, client: string, gated: boolean): Record<string, unknown> {
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
            baseUrl: `${origin}/api/timedtext?v=${videoId}&ei=E${client}&lang=en&kind=asr${gated ? '&exp=xpe' : ''}`,
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
  /** Clients whose caption URLs stall `stallMs`, then answer an empty 200 (the PO-token gate). */
  stallCaptions?: readonly string[];
  /** How long a stalled caption URL stalls (default 8 s, as YouTube's gate does). */
  stallMs?: number;
  /**
   * Clients whose caption tracks are PO-gated (`exp=xpe` on the URL): their caption URL answers
   * only with a `pot`, else it stalls and answers empty.
   */
  gated?: readonly string[];
}

/** Starts the fake YouTube. */
export async function startSlowYouTube(
  delayMs: number,
  options: SlowYouTubeOptions = {},
): Promise<SlowYouTube> {
  const events = Math.max(1, options.captionEvents ?? 1);
  const stallMs = options.stallMs ?? 8000;
  const gated = new Set(options.gated ?? []);
  const state = {
    delayMs,
    captions: new Map<string, number>(),
    visitors: [] as string[],
    visitorCalls: [] as { client: string; visitorData: string }[],
    players: [] as PlayerRequest[],
    requests: [] as string[],
    tokens: [] as string[],
    inFlight: 0,
    maxInFlight: 0,
    stallCaptions: new Set(options.stallCaptions ?? []),
  };
  /** Resolves after `ms`, or when the client went away (false then). */
  const wait = (ms: number, res: ServerResponse): Promise<boolean> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => {
        res.off('close', gone);
        resolve(true);
      }, ms);
      const gone = () => {
        clearTimeout(timer);
        resolve(false);
      };
      res.once('close', gone);
    });
  let origin = '';
  const server: Server = createServer(async (req, res) => {
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    res.once('close', () => state.inFlight--);
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (!(await wait(state.delayMs, res))) return;
    const url = new URL(req.url ?? '/', origin);
    let answer: unknown;
    if (url.pathname === '/api/timedtext') {
      const id = url.searchParams.get('v') ?? '';
      const client = url.searchParams.get('ei')?.slice(1) ?? '';
      state.requests.push(`timedtext ${client}`);
      const pot = url.searchParams.get('pot');
      if (gated.has(client) && pot !== null) state.tokens.push(pot);
      if (state.stallCaptions.has(client) || (gated.has(client) && pot === null)) {
        if (!(await wait(stallMs, res))) return;
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        res.end();
        return;
      }
      state.captions.set(id, (state.captions.get(id) ?? 0) + 1);
      answer = {
        wireMagic: 'pb3',
        events: Array.from({ length: events }, (_, k) => ({
          tStartMs: k * 1500,
          dDurationMs: 1500,
          segs: [{ utf8: k === 0 ? `words of ${id}` : `spoken words number ${k} of ${id}` }],
        })),
      };
    } else {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        videoId?: string;
        playerRequest?: { videoId?: string };
        context?: { client?: { clientName?: string } };
      };
      const client = body.context?.client?.clientName ?? '';
      if (url.pathname.endsWith('/visitor_id')) {
        state.requests.push(`visitor_id ${client}`);
        const visitorData = `visitor-${state.visitorCalls.length + 1}`;
        state.visitorCalls.push({ client, visitorData });
        if (client === 'VISIONOS') state.visitors.push(visitorData);
        answer = { responseContext: { visitorData } };
      } else {
        const videoId = body.videoId ?? body.playerRequest?.videoId ?? '';
        const reel = url.pathname.endsWith('/reel_item_watch');
        state.requests.push(`${reel ? 'reel' : 'player'} ${client}`);
        if (url.pathname.endsWith('/player')) {
          const visitor = req.headers['x-goog-visitor-id'];
          state.players.push({ videoId, visitor: Array.isArray(visitor) ? visitor[0] : visitor });
        }
        answer = player(videoId, origin, client, gated.has(client));
      }
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
    get visitorCalls() {
      return state.visitorCalls;
    },
    get requests() {
      return state.requests;
    },
    set requests(list: string[]) {
      state.requests = list;
    },
    get tokens() {
      return state.tokens;
    },
    get inFlight() {
      return state.inFlight;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    set maxInFlight(n: number) {
      state.maxInFlight = n;
    },
    get stallCaptions() {
      return state.stallCaptions;
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
