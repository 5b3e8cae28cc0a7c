import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/fakes/clock.ts';
import { SeededRandom } from '../../../test/fakes/random.ts';
import { Flights } from '../../core/flights.ts';
import { ApiError } from '../../errors.ts';
import type { CaptionTrack, PlayerData } from '../../ports/upstream.ts';
import { silentLogger } from '../system.ts';
import { InnerTube } from './innertube.ts';
import { ParseError } from './json.ts';
import { DEFAULT_PROFILES, resolveProfiles } from './profiles.ts';
import type { SourceDeps } from './source-deps.ts';
import { Transport } from './transport.ts';
import { MICROFORMAT_FIELDS, readTimedText, refClient, tagRef, VideoSource } from './video-source.ts';

const VID = 'FakeVideo01';

/** One request the fake YouTube received. */
interface Req {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
  /** `clientName` of an InnerTube body. */
  client: string;
  /** `visitor_id`, `player`, `reel`, `next`, `timedtext`. */
  endpoint: string;
  signal: AbortSignal | undefined;
}

type Route = (req: Req) => Response | Promise<Response>;

const json = (body: unknown, status = 200): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const text = (body: string, status = 200, headers: Record<string, string> = {}): Response =>
  new Response(body, { status, headers });

interface TrackSpec {
  lang: string;
  asr?: boolean;
  po?: boolean;
  name?: string;
}

/** A caption URL as the fake issues it: it names the client, so tests see which one served. */
const captionUrl = (client: string, t: TrackSpec, id = VID): string =>
  `https://www.youtube.com/api/timedtext?v=${id}&ei=E${client}&caps=asr&sparams=ip,ipbits,expire&signature=S.${client}&key=yt8` +
  `${t.asr ? '&kind=asr' : ''}&lang=${t.lang}${client === 'ANDROID' ? '&fmt=srv3' : ''}${t.po ? '&exp=xpe' : ''}`;

/** A player response. */
function player(
  client: string,
  o: { id?: string; status?: string; reason?: string; tracks?: TrackSpec[]; live?: boolean } = {},
): unknown {
  const status = o.status ?? 'OK';
  const body: Record<string, unknown> = {
    responseContext: { visitorData: `echo-${client}` },
    playabilityStatus: status === 'OK' ? { status } : { status, reason: o.reason ?? '' },
    videoDetails: {
      videoId: o.id ?? VID,
      title: `Fake video (${client})`,
      author: 'Fake Channel',
      channelId: 'UCfake00000000000000000a',
      lengthSeconds: '61',
      viewCount: '1000',
      shortDescription: 'hello',
      ...(o.live ? { isLive: true, isLiveContent: true } : {}),
    },
  };
  const tracks = o.tracks ?? [{ lang: 'en', asr: true }];
  if (tracks.length > 0) {
    body.captions = {
      playerCaptionsTracklistRenderer: {
        captionTracks: tracks.map((t) => ({
          baseUrl: captionUrl(client, t),
          name: { runs: [{ text: t.name ?? t.lang }] },
          vssId: `${t.asr ? 'a' : ''}.${t.lang}`,
          languageCode: t.lang,
          ...(t.asr ? { kind: 'asr' } : {}),
          isTranslatable: true,
        })),
      },
    };
  }
  return client === 'ANDROID' ? { playerResponse: body } : body;
}

const JSON3 = {
  wireMagic: 'pb3',
  pens: [{}],
  wsWinStyles: [{}, { mhModeHint: 2 }],
  wpWinPositions: [{}, { apPoint: 6 }],
  events: [
    { tStartMs: 0, dDurationMs: 5000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
    {
      tStartMs: 160,
      dDurationMs: 4000,
      wWinId: 1,
      segs: [
        { utf8: 'hello', acAsrConf: 0 },
        { utf8: ' world', tOffsetMs: 400, acAsrConf: 0, pPenId: 1 },
      ],
    },
    { tStartMs: 2669, dDurationMs: 1491, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
  ],
};

interface Options {
  /** Player answers by client (default: OK with one ASR track). */
  players?: Partial<Record<string, Route>>;
  timedtext?: Route;
  next?: Route;
  micro?: Route;
  chain?: readonly string[];
  origin?: string;
  clock?: ManualClock;
}

/** A VideoSource over a fake YouTube; `log` lists every request that reached the fake. */
function harness(o: Options = {}) {
  const log: Req[] = [];
  const clock = o.clock ?? new ManualClock();
  const route: Route = (req) => {
    if (req.endpoint === 'visitor_id') return json({ responseContext: { visitorData: `VD-${req.client}` } });
    if (req.endpoint === 'timedtext') return o.timedtext ? o.timedtext(req) : json(JSON3);
    if (req.endpoint === 'next') return o.next ? o.next(req) : json(nextJson(VID));
    if (req.url.searchParams.has('$fields') && req.endpoint === 'player') {
      return o.micro ? o.micro(req) : json(microJson(VID));
    }
    const own = o.players?.[req.client];
    const requested = (req.body?.videoId ??
      (req.body?.playerRequest as { videoId?: string })?.videoId) as string;
    return own ? own(req) : json(player(req.client, { id: requested }));
  };
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input);
    const body =
      typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const client = String(
      (body?.context as { client?: { clientName?: string } } | undefined)?.client?.clientName ?? '',
    );
    const path = url.pathname;
    const endpoint = path.endsWith('/reel/reel_item_watch')
      ? 'reel'
      : path.endsWith('/api/timedtext')
        ? 'timedtext'
        : (path.split('/').pop() ?? '');
    const req: Req = {
      method: init.method ?? 'GET',
      url,
      headers: { ...(init.headers as Record<string, string>) },
      body,
      client,
      endpoint,
      signal: init.signal ?? undefined,
    };
    log.push(req);
    await new Promise((resolve) => setTimeout(resolve, 1));
    return route(req);
  };
  const transport = new Transport({
    fetch,
    clock,
    random: new SeededRandom(7),
    logger: silentLogger,
    backoffMs: 0,
    ...(o.origin ? { origin: o.origin } : {}),
  });
  const deps: SourceDeps = {
    tube: new InnerTube(transport, clock, silentLogger),
    profiles: resolveProfiles(),
    playerChain: o.chain ?? ['VISIONOS', 'ANDROID', 'WEB'],
    logger: silentLogger,
    clock,
    random: new SeededRandom(11),
  };
  const video = new VideoSource(deps);
  /** `endpoint:client` of every request, in order. */
  const calls = () => log.map((r) => (r.client ? `${r.endpoint}:${r.client}` : r.endpoint));
  return { video, log, calls, transport, clock };
}

function microJson(id: string): unknown {
  return {
    videoDetails: { videoId: id },
    microformat: {
      playerMicroformatRenderer: {
        externalVideoId: id,
        publishDate: '2024-05-06T07:08:09-07:00',
        likeCount: '4321',
        category: 'Education',
      },
    },
  };
}

function nextJson(id: string): unknown {
  return {
    currentVideoEndpoint: { watchEndpoint: { videoId: id } },
    contents: {
      twoColumnWatchNextResults: {
        results: {
          results: {
            contents: [
              { videoPrimaryInfoRenderer: { dateText: { simpleText: 'May 6, 2024' } } },
              {
                videoSecondaryInfoRenderer: {
                  owner: { videoOwnerRenderer: { subscriberCountText: { simpleText: '12K subscribers' } } },
                },
              },
            ],
          },
        },
      },
    },
  };
}

/** The error code (or class name) of a rejected promise. */
async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    return e instanceof ApiError ? e.code : (e as Error).name;
  }
  return 'none';
}

const tracks = (p: PlayerData): string =>
  p.tracks.map((t) => `${t.languageCode}${t.kind === 'asr' ? '/asr' : ''}@${refClient(t.ref)}`).join(' ');

describe('VideoSource.player: requests', () => {
  it('VISIONOS first: visitor_id, then player with t, id, cpn and the profile headers', async () => {
    const h = harness();
    const data = await h.video.player(VID, { hl: 'de', gl: 'DE' });
    expect(h.calls()).toEqual(['visitor_id:VISIONOS', 'player:VISIONOS']);
    const [visitor, call] = h.log as [Req, Req];
    expect(visitor.url.href).toBe('https://youtubei.googleapis.com/youtubei/v1/visitor_id?prettyPrint=false');
    expect(call.url.origin + call.url.pathname).toBe('https://youtubei.googleapis.com/youtubei/v1/player');
    expect(call.url.search).toMatch(new RegExp(`^\\?prettyPrint=false&t=[\\w-]{12}&id=${VID}$`));
    const profile = DEFAULT_PROFILES.VISIONOS!;
    expect(call.headers).toMatchObject({
      'User-Agent': profile.userAgent,
      'X-Goog-Api-Format-Version': '2',
      'X-Goog-Visitor-Id': 'VD-VISIONOS',
      'Content-Type': 'application/json',
      'Accept-Language': 'de, en;q=0.9',
    });
    expect(call.headers.Origin).toBeUndefined();
    expect(call.body).toMatchObject({
      context: {
        client: {
          clientName: 'VISIONOS',
          clientVersion: profile.version,
          deviceMake: 'Apple',
          deviceModel: 'RealityDevice14,1',
          osName: 'visionOS',
          visitorData: 'VD-VISIONOS',
          hl: 'de',
          gl: 'DE',
        },
      },
      videoId: VID,
      contentCheckOk: true,
      racyCheckOk: true,
    });
    expect(call.body?.cpn).toMatch(/^[\w-]{16}$/);
    expect(data).toMatchObject({
      videoId: VID,
      title: 'Fake video (VISIONOS)',
      lengthSeconds: 61,
      live: 'none',
    });
    expect(tracks(data)).toBe('en/asr@VISIONOS');
  });

  it('ANDROID goes through reel/reel_item_watch with playerRequest and $fields=playerResponse', async () => {
    const h = harness({ chain: ['ANDROID'] });
    const data = await h.video.player(VID);
    expect(h.calls()).toEqual(['visitor_id:ANDROID', 'reel:ANDROID']);
    const call = h.log[1]!;
    expect(call.url.pathname).toBe('/youtubei/v1/reel/reel_item_watch');
    expect(call.url.search).toMatch(
      new RegExp(`^\\?prettyPrint=false&t=[\\w-]{12}&id=${VID}&\\$fields=playerResponse$`),
    );
    expect(call.body).toMatchObject({
      playerRequest: { videoId: VID, contentCheckOk: true, racyCheckOk: true },
      disablePlayerResponse: false,
    });
    expect((call.body!.playerRequest as { cpn: string }).cpn).toMatch(/^[\w-]{16}$/);
    expect(call.body?.videoId).toBeUndefined();
    expect(call.headers['User-Agent']).toBe(DEFAULT_PROFILES.ANDROID!.userAgent);
    expect((call.body!.context as { client: Record<string, unknown> }).client).toMatchObject({
      clientName: 'ANDROID',
      androidSdkVersion: 36,
      visitorData: 'VD-ANDROID',
    });
    expect(tracks(data)).toBe('en/asr@ANDROID');
  });

  it('WEB talks to www.youtube.com with browser headers and the consent cookie', async () => {
    const h = harness({ chain: ['WEB'] });
    await h.video.player(VID);
    const call = h.log[1]!;
    expect(call.url.href).toBe('https://www.youtube.com/youtubei/v1/player?prettyPrint=false');
    expect(call.headers).toMatchObject({
      Origin: 'https://www.youtube.com',
      Cookie: 'SOCS=CAE=',
      'X-YouTube-Client-Name': '1',
      'X-YouTube-Client-Version': DEFAULT_PROFILES.WEB!.version,
      'X-Goog-Visitor-Id': 'VD-WEB',
    });
    expect(call.body).toMatchObject({ videoId: VID, contentCheckOk: true, racyCheckOk: true });
  });

  it('a video without caption tracks is normal player data with tracks: []', async () => {
    // Two clients must say "no tracks" (the second confirms the first).
    const none = (r: Req) => json(player(r.client, { tracks: [] }));
    const h = harness({ players: { VISIONOS: none, ANDROID: none } });
    expect((await h.video.player(VID)).tracks).toEqual([]);
    expect(h.calls()).toEqual([
      'visitor_id:VISIONOS',
      'player:VISIONOS',
      'visitor_id:ANDROID',
      'reel:ANDROID',
    ]);
  });
});

describe('VideoSource.player: the fallback chain', () => {
  const precondition = (): Response =>
    json({ error: { code: 400, message: 'Precondition check failed.', status: 'FAILED_PRECONDITION' } }, 400);
  const skips: [string, Route][] = [
    ['another video', (r) => json(player(r.client, { id: 'OtherVideo1' }))],
    ['400 FAILED_PRECONDITION (outdated client)', precondition],
    [
      'UNPLAYABLE "This video is not available"',
      (r) => json(player(r.client, { status: 'UNPLAYABLE', reason: 'This video is not available' })),
    ],
    [
      'ERROR "This video is unavailable"',
      (r) => json(player(r.client, { status: 'ERROR', reason: 'This video is unavailable' })),
    ],
    [
      'tracks that all need a PO token',
      (r) => json(player(r.client, { tracks: [{ lang: 'en', asr: true, po: true }] })),
    ],
    [
      'a bot check',
      (r) =>
        json(player(r.client, { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' })),
    ],
    ['a body that is not JSON', () => text('<html>oops</html>')],
    ['503 after the retries', () => text('busy', 503)],
    ['an empty object', () => json({})],
  ];

  it.each(skips)('VISIONOS answering %s → ANDROID', async (name, visionos) => {
    const h = harness({ players: { VISIONOS: visionos } });
    const data = await h.video.player(VID);
    expect(tracks(data)).toBe('en/asr@ANDROID');
    expect(data.title).toBe('Fake video (ANDROID)');
    expect(h.calls().filter((c) => c.startsWith('reel') || c.startsWith('player'))).toEqual([
      ...(name.startsWith('503') ? ['player:VISIONOS', 'player:VISIONOS'] : []),
      'player:VISIONOS',
      'reel:ANDROID',
    ]);
  });

  it.each([
    ['LOGIN_REQUIRED', 'This video is private', 'private_video'],
    ['LOGIN_REQUIRED', 'This video may be inappropriate for some users.', 'age_restricted'],
    ['UNPLAYABLE', "This video is available to this channel's members on level: Gold", 'members_only'],
    ['UNPLAYABLE', 'This video is only available to Music Premium members', 'members_only'],
    ['UNPLAYABLE', 'The uploader has not made this video available in your country', 'region_blocked'],
  ])('%s "%s" is the truth: %s, no other client asked', async (status, reason, code) => {
    const h = harness({ players: { VISIONOS: (r) => json(player(r.client, { status, reason })) } });
    expect(await failure(h.video.player(VID))).toBe(code);
    expect(h.calls()).toEqual(['visitor_id:VISIONOS', 'player:VISIONOS']);
  });

  it('a 429 stops the chain: upstream_blocked with YouTube’s Retry-After', async () => {
    const h = harness({ players: { VISIONOS: () => text('slow down', 429, { 'retry-after': '120' }) } });
    const error = await h.video.player(VID).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_blocked', status: 503, retryable: true, retryAfter: 120 });
    expect(h.calls()).toEqual(['visitor_id:VISIONOS', 'player:VISIONOS']);
  });

  const po: Route = (r) =>
    json(
      player(r.client, {
        tracks: [
          { lang: 'en', po: true },
          { lang: 'en', asr: true, po: true },
        ],
      }),
    );
  const unavailable: Route = (r) =>
    json(player(r.client, { status: 'ERROR', reason: 'This video is unavailable' }));
  const bot: Route = (r) =>
    json(player(r.client, { status: 'LOGIN_REQUIRED', reason: 'Sign in to confirm you’re not a bot' }));
  it.each([
    ['PO-token-only tracks on every client', { VISIONOS: po, ANDROID: po, WEB: po }, 'upstream_blocked'],
    [
      'PO-token-only, then unavailable',
      { VISIONOS: po, ANDROID: unavailable, WEB: unavailable },
      'upstream_blocked',
    ],
    [
      'unavailable everywhere',
      { VISIONOS: unavailable, ANDROID: unavailable, WEB: unavailable },
      'video_unavailable',
    ],
    [
      'a bot check, then unavailable',
      { VISIONOS: unavailable, ANDROID: bot, WEB: unavailable },
      'upstream_blocked',
    ],
    [
      'outdated everywhere',
      { VISIONOS: precondition, ANDROID: precondition, WEB: precondition },
      'upstream_error',
    ],
    [
      'another video everywhere',
      {
        VISIONOS: (r: Req) => json(player(r.client, { id: 'OtherVideo1' })),
        ANDROID: () => json(player('ANDROID', { id: 'OtherVideo1' })),
        WEB: (r: Req) => json(player(r.client, { id: 'OtherVideo1' })),
      },
      'WrongVideoError',
    ],
  ] as [string, Record<string, Route>, string][])(
    'every client fails (%s) → %s',
    async (_name, players, code) => {
      const h = harness({ players });
      expect(await failure(h.video.player(VID))).toBe(code);
      expect(h.calls().filter((c) => !c.startsWith('visitor_id'))).toEqual([
        'player:VISIONOS',
        'reel:ANDROID',
        'player:WEB',
      ]);
    },
  );

  it('PO-token-only everywhere is upstream_blocked with Retry-After and says so (never captions_disabled)', async () => {
    const h = harness({ players: { VISIONOS: po, ANDROID: po, WEB: po } });
    const error = (await h.video.player(VID).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'upstream_blocked', retryable: true, retryAfter: 300 });
    expect(error.message).toMatch(/proof-of-origin/);
  });

  it('some tracks need a PO token: the next client is asked; the fullest answer wins', async () => {
    const partial: Route = (r) =>
      json(player(r.client, { tracks: [{ lang: 'de' }, { lang: 'en', po: true }] }));
    const full: Route = (r) => json(player(r.client, { tracks: [{ lang: 'de' }, { lang: 'en' }] }));
    expect(tracks(await harness({ players: { VISIONOS: partial, ANDROID: full } }).video.player(VID))).toBe(
      'de@ANDROID en@ANDROID',
    );
    const worse: Route = (r) =>
      json(
        player(r.client, {
          tracks: [
            { lang: 'de', po: true },
            { lang: 'en', po: true },
          ],
        }),
      );
    const h = harness({ players: { VISIONOS: partial, ANDROID: worse, WEB: worse } });
    expect(tracks(await h.video.player(VID))).toBe('de@VISIONOS');
  });

  it('the chain is configuration', async () => {
    const h = harness({ chain: ['WEB', 'VISIONOS'], players: { WEB: unavailable } });
    expect(tracks(await h.video.player(VID))).toBe('en/asr@VISIONOS');
    expect(h.calls()).toEqual(['visitor_id:WEB', 'player:WEB', 'visitor_id:VISIONOS', 'player:VISIONOS']);
  });
});

describe('VideoSource.player: sharing and visitorData', () => {
  it('100 concurrent calls for one cold video make one upstream sequence', async () => {
    const h = harness();
    const all = await Promise.all(Array.from({ length: 100 }, () => h.video.player(VID)));
    expect(new Set(all.map((p) => p.title)).size).toBe(1);
    expect(h.calls()).toEqual(['visitor_id:VISIONOS', 'player:VISIONOS']);
    expect(h.transport.sent).toBe(2);
  });

  it('100 concurrent calls that fall back still send each request once', async () => {
    const h = harness({
      players: {
        VISIONOS: (r) =>
          json(player(r.client, { status: 'UNPLAYABLE', reason: 'This video is not available' })),
      },
    });
    await Promise.all(Array.from({ length: 100 }, () => h.video.player(VID)));
    expect(h.calls()).toEqual([
      'visitor_id:VISIONOS',
      'player:VISIONOS',
      'visitor_id:ANDROID',
      'reel:ANDROID',
    ]);
  });

  it('one caller aborting does not fail the others; when all abort, the request is aborted', async () => {
    const h = harness();
    const quitter = new AbortController();
    const a = h.video.player(VID, { signal: quitter.signal });
    const b = h.video.player(VID);
    quitter.abort(new Error('gone'));
    expect(await failure(a)).toBe('Error');
    expect((await b).videoId).toBe(VID);

    const h2 = harness();
    const c1 = new AbortController();
    const c2 = new AbortController();
    const p1 = h2.video.player(VID, { signal: c1.signal });
    const p2 = h2.video.player(VID, { signal: c2.signal });
    await new Promise((resolve) => setTimeout(resolve, 0));
    c1.abort(new Error('one'));
    c2.abort(new Error('two'));
    expect([await failure(p1), await failure(p2)]).toEqual(['Error', 'Error']);
    expect(h2.log.at(-1)?.signal?.aborted).toBe(true);
    expect(await failure(h2.video.player(VID, { signal: AbortSignal.abort() }))).not.toBe('none');
  });

  it('visitorData is fetched once per client, reused, and fetched again after it expires', async () => {
    const clock = new ManualClock();
    const h = harness({ clock });
    await h.video.player(VID);
    await h.video.player('FakeVideo02').catch(() => undefined);
    expect(h.calls().filter((c) => c.startsWith('visitor_id'))).toEqual(['visitor_id:VISIONOS']);
    expect(
      h.log
        .filter((r) => r.endpoint === 'player')
        .every((r) => r.headers['X-Goog-Visitor-Id'] === 'VD-VISIONOS'),
    ).toBe(true);
    clock.advance(6 * 3_600_000 + 1);
    await h.video.player(VID);
    expect(h.calls().filter((c) => c.startsWith('visitor_id'))).toEqual([
      'visitor_id:VISIONOS',
      'visitor_id:VISIONOS',
    ]);
  });
});

const ASR_EN: Omit<CaptionTrack, 'ref'> = {
  languageCode: 'en',
  name: 'en',
  kind: 'asr',
  isTranslatable: true,
  isDefault: false,
};

describe('VideoSource.captions', () => {
  it('GETs the json3 URL with the issuing client’s user agent and returns the events without styling', async () => {
    const h = harness();
    const [track] = (await h.video.player(VID)).tracks;
    const result = await h.video.captions(track!);
    const get = h.log.at(-1)!;
    expect(get.method).toBe('GET');
    expect(get.url.href).toBe(`${captionUrl('VISIONOS', { lang: 'en', asr: true })}&fmt=json3`);
    expect(get.headers['User-Agent']).toBe(DEFAULT_PROFILES.VISIONOS!.userAgent);
    expect(result).toEqual({
      format: 'json3',
      document: {
        events: [
          { tStartMs: 0, dDurationMs: 5000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
          {
            tStartMs: 160,
            dDurationMs: 4000,
            wWinId: 1,
            segs: [
              { utf8: 'hello', acAsrConf: 0 },
              { utf8: ' world', tOffsetMs: 400, acAsrConf: 0 },
            ],
          },
          { tStartMs: 2669, dDurationMs: 1491, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
        ],
      },
    });
    expect(h.calls()).toEqual(['visitor_id:VISIONOS', 'player:VISIONOS', 'timedtext']);
  });

  const emptyFrom =
    (...clients: string[]): Route =>
    (r) =>
      clients.some((c) => r.url.searchParams.get('signature') === `S.${c}`) ? text('') : json(JSON3);

  it('an empty body → the same track from the next client (its URL, its signature)', async () => {
    const h = harness({ timedtext: emptyFrom('VISIONOS') });
    const [track] = (await h.video.player(VID)).tracks;
    const result = await h.video.captions(track!);
    expect(result.format).toBe('json3');
    expect(h.calls()).toEqual([
      'visitor_id:VISIONOS',
      'player:VISIONOS',
      'timedtext',
      'visitor_id:ANDROID',
      'reel:ANDROID',
      'timedtext',
    ]);
    expect(h.log.at(-1)!.url.searchParams.get('signature')).toBe('S.ANDROID');
    expect(h.log.at(-1)!.url.searchParams.get('fmt')).toBe('json3');
  });

  it.each([
    ['whitespace', text(' \n')],
    ['json3 without caption text', json({ wireMagic: 'pb3', events: [{ tStartMs: 0, id: 1 }] })],
    [
      'XML without caption text',
      text('<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body></body></timedtext>'),
    ],
  ])('%s counts as empty', async (_name, empty) => {
    const h = harness({
      timedtext: (r) => (r.url.searchParams.get('signature') === 'S.VISIONOS' ? empty.clone() : json(JSON3)),
    });
    const [track] = (await h.video.player(VID)).tracks;
    expect((await h.video.captions(track!)).format).toBe('json3');
    expect(h.log.at(-1)!.url.searchParams.get('signature')).toBe('S.ANDROID');
  });

  it('every client answers empty → upstream_blocked (PO token), never an empty transcript', async () => {
    const h = harness({ timedtext: () => text('') });
    const [track] = (await h.video.player(VID)).tracks;
    const error = (await h.video.captions(track!).catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ code: 'upstream_blocked', retryable: true, retryAfter: 300 });
    expect(error.message).toMatch(/proof-of-origin/);
    expect(h.calls().filter((c) => c === 'timedtext')).toHaveLength(3);
  });

  it('the next clients offer the track only with a PO token → upstream_blocked', async () => {
    const h = harness({
      timedtext: emptyFrom('VISIONOS'),
      players: {
        ANDROID: (r) => json(player(r.client, { tracks: [{ lang: 'en', asr: true, po: true }] })),
        WEB: (r) => json(player(r.client, { tracks: [] })),
      },
    });
    const [track] = (await h.video.player(VID)).tracks;
    expect(await failure(h.video.captions(track!))).toBe('upstream_blocked');
    expect(h.calls().filter((c) => c === 'timedtext')).toHaveLength(1);
  });

  it('a ref without a client tag (older cache entries) tries the whole chain after an empty answer', async () => {
    const h = harness({ timedtext: emptyFrom('NONE') });
    const track = { ...ASR_EN, ref: captionUrl('NONE', { lang: 'en', asr: true }) };
    expect((await h.video.captions(track)).format).toBe('json3');
    expect(h.calls()).toEqual(['timedtext', 'visitor_id:VISIONOS', 'player:VISIONOS', 'timedtext']);
  });

  it('a 429 is upstream_blocked with Retry-After, without asking other clients', async () => {
    const h = harness({ timedtext: () => text('', 429, { 'retry-after': '90' }) });
    const [track] = (await h.video.player(VID)).tracks;
    const error = await h.video.captions(track!).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'upstream_blocked', status: 503, retryAfter: 90 });
    expect(h.calls()).toEqual(['visitor_id:VISIONOS', 'player:VISIONOS', 'timedtext']);
  });

  it('5xx is retried (2 retries): success on the third attempt, upstream_error after three failures', async () => {
    let n = 0;
    const h = harness({ timedtext: () => (++n < 3 ? text('', 503) : json(JSON3)) });
    const [track] = (await h.video.player(VID)).tracks;
    expect((await h.video.captions(track!)).format).toBe('json3');
    expect(n).toBe(3);
    const h2 = harness({ timedtext: () => text('', 500) });
    const [track2] = (await h2.video.player(VID)).tracks;
    expect(await failure(h2.video.captions(track2!))).toBe('upstream_error');
    expect(h2.calls().filter((c) => c === 'timedtext')).toHaveLength(3);
  });

  it('a refused URL (404: expired) is refreshed from its own client first; refused everywhere → upstream_error', async () => {
    let first = true;
    const h = harness({
      timedtext: () => {
        const answer = first ? text('', 404) : json(JSON3);
        first = false;
        return answer;
      },
    });
    const [track] = (await h.video.player(VID)).tracks;
    expect((await h.video.captions(track!)).format).toBe('json3');
    expect(h.calls()).toEqual([
      'visitor_id:VISIONOS',
      'player:VISIONOS',
      'timedtext',
      'player:VISIONOS',
      'timedtext',
    ]);
    const h2 = harness({ timedtext: () => text('', 404) });
    const [track2] = (await h2.video.player(VID)).tracks;
    const error = (await h2.video.captions(track2!).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('upstream_error');
    expect(error.message).toMatch(/404/);
  });

  it.each([
    [
      'srv3',
      '<?xml version="1.0" encoding="utf-8" ?><timedtext format="3"><body><p t="0" d="1000">Hi</p></body></timedtext>',
    ],
    [
      'srv1',
      '<?xml version="1.0" encoding="utf-8" ?><transcript><text start="0" dur="1">Hi</text></transcript>',
    ],
  ])('an XML answer is returned as %s', async (format, xml) => {
    const h = harness({ timedtext: () => text(xml) });
    const [track] = (await h.video.player(VID)).tracks;
    expect(await h.video.captions(track!)).toEqual({ format, xml });
  });

  it('a bot-check page is upstream_blocked; other junk is a ParseError (→ upstream_error)', async () => {
    const h = harness({ timedtext: () => text('<html><div class="g-recaptcha"></div></html>') });
    const [track] = (await h.video.player(VID)).tracks;
    expect(await failure(h.video.captions(track!))).toBe('upstream_blocked');
    expect(() => readTimedText('not a document')).toThrow(ParseError);
    expect(() => readTimedText('{"error":"nope"}')).toThrow(ParseError);
    expect(readTimedText('{"wireMagic":"pb3","pens":[{}]}')).toEqual({ kind: 'empty' });
    expect(readTimedText('\uFEFF  ')).toEqual({ kind: 'empty' });
  });
});

describe('VideoSource.videoExtras', () => {
  it('WEB player ($fields) and next in parallel, merged: 3 requests cold, 2 warm', async () => {
    const h = harness();
    const extras = await h.video.videoExtras(VID);
    expect(extras).toMatchObject({
      publishedAt: Date.parse('2024-05-06T14:08:09Z') / 1000,
      likeCount: 4321,
      channelSubscribersText: '12K subscribers',
      chapters: [],
    });
    expect(h.calls().sort()).toEqual(['next:WEB', 'player:WEB', 'visitor_id:WEB']);
    const micro = h.log.find((r) => r.endpoint === 'player')!;
    expect(micro.url.href).toBe(
      `https://www.youtube.com/youtubei/v1/player?prettyPrint=false&$fields=${MICROFORMAT_FIELDS}`,
    );
    expect(micro.body).toMatchObject({ videoId: VID, contentCheckOk: true, racyCheckOk: true });
    const next = h.log.find((r) => r.endpoint === 'next')!;
    expect(next.body).toMatchObject({ videoId: VID, contentCheckOk: true, racyCheckOk: true });
    expect(next.headers['X-Goog-Visitor-Id']).toBeUndefined();
    await h.video.videoExtras('FakeVideo02').catch(() => undefined);
    expect(h.log).toHaveLength(5);
  });

  it('an answer for another video is an error, not someone else’s data', async () => {
    const h = harness({ next: () => json(nextJson('OtherVideo1')) });
    expect(await failure(h.video.videoExtras(VID))).toBe('WrongVideoError');
  });

  it('no microformat and no watch page: the player tells the truth (private)', async () => {
    const h = harness({
      micro: () => json({}),
      next: () => json({ responseContext: {} }),
      players: {
        VISIONOS: (r) =>
          json(player(r.client, { status: 'LOGIN_REQUIRED', reason: 'This video is private' })),
      },
    });
    expect(await failure(h.video.videoExtras(VID))).toBe('private_video');
  });

  it('no watch page but a playable video: the parse error stays (→ upstream_error)', async () => {
    const h = harness({ next: () => json({ responseContext: {} }) });
    expect(await failure(h.video.videoExtras(VID))).toBe('ParseError');
  });
});

describe('origin override', () => {
  it('applies to every URL, caption URLs included', async () => {
    const h = harness({ origin: 'http://127.0.0.1:9', timedtext: emptyOnce() });
    const [track] = (await h.video.player(VID)).tracks;
    await h.video.captions(track!);
    await h.video.videoExtras(VID);
    expect(h.log.length).toBeGreaterThanOrEqual(9);
    for (const r of h.log) expect(r.url.origin).toBe('http://127.0.0.1:9');
    expect(h.log.find((r) => r.endpoint === 'timedtext')!.url.pathname).toBe('/api/timedtext');
  });
});

function emptyOnce(): Route {
  let first = true;
  return () => {
    const answer = first ? text('') : json(JSON3);
    first = false;
    return answer;
  };
}

describe('caption refs', () => {
  it('carry the client in a fragment that timedtext URLs drop', () => {
    const ref = tagRef('https://www.youtube.com/api/timedtext?v=x&lang=en', 'ANDROID');
    expect(ref).toBe('https://www.youtube.com/api/timedtext?v=x&lang=en#client=ANDROID');
    expect(refClient(ref)).toBe('ANDROID');
    expect(refClient(tagRef(ref, 'WEB'))).toBe('WEB');
    expect(refClient('https://www.youtube.com/api/timedtext?v=x')).toBeUndefined();
  });
});

describe('Flights (transport.ts): shared work in flight', () => {
  it('joins identical keys, and a caller’s abort rejects only that caller', async () => {
    const flights = new Flights<string>();
    let starts = 0;
    let finish: (value: string) => void = () => {};
    let shared: AbortSignal | undefined;
    const start = (signal: AbortSignal) => {
      starts++;
      shared = signal;
      return new Promise<string>((resolve) => {
        finish = resolve;
      });
    };
    const quitter = new AbortController();
    const a = flights.run('k', quitter.signal, start);
    const b = flights.run('k', undefined, start);
    quitter.abort(new Error('gone'));
    await expect(a).rejects.toThrow('gone');
    expect(shared?.aborted).toBe(false);
    finish('done');
    expect(await b).toBe('done');
    expect(starts).toBe(1);
    // Settled flights are forgotten: the next call starts afresh.
    const c = flights.run('k', undefined, start);
    finish('again');
    expect([await c, starts]).toEqual(['again', 2]);
  });

  it('aborts the shared work once every caller has gone, and refuses callers already aborted', async () => {
    const flights = new Flights<string>();
    let shared: AbortSignal | undefined;
    const start = (signal: AbortSignal) => {
      shared = signal;
      return new Promise<string>(() => {});
    };
    const c1 = new AbortController();
    const c2 = new AbortController();
    const p1 = flights.run('k', c1.signal, start);
    const p2 = flights.run('k', c2.signal, start);
    c1.abort(new Error('one'));
    expect(shared?.aborted).toBe(false);
    c2.abort(new Error('two'));
    expect(shared?.aborted).toBe(true);
    await expect(p1).rejects.toThrow('one');
    await expect(p2).rejects.toThrow('two');
    let started = false;
    await expect(
      flights.run('k', AbortSignal.abort(new Error('late')), () => {
        started = true;
        return Promise.resolve('x');
      }),
    ).rejects.toThrow('late');
    expect(started).toBe(false);
  });
});

describe('VideoSource.captions with translateTo', () => {
  it('asks for the translation with tlang=<code> on the caption URL', async () => {
    const h = harness();
    const [track] = (await h.video.player(VID)).tracks;
    const result = await h.video.captions(track!, { translateTo: 'de' });
    expect(result.format).toBe('json3');
    const get = h.log.at(-1)!;
    expect(get.endpoint).toBe('timedtext');
    expect(get.url.searchParams.get('tlang')).toBe('de');
    expect(get.url.searchParams.get('fmt')).toBe('json3');
  });

  it('a track YouTube marks as not translatable is translation_unavailable, without a request', async () => {
    const h = harness();
    const [track] = (await h.video.player(VID)).tracks;
    const before = h.log.length;
    const error = (await h.video
      .captions({ ...track!, isTranslatable: false }, { translateTo: 'de' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('translation_unavailable');
    expect(h.log.length).toBe(before);
  });

  it('YouTube refusing the translation call is upstream_blocked, never captions_disabled', async () => {
    const h = harness({
      timedtext: (req) => (req.url.searchParams.has('tlang') ? text('', 429) : json(JSON3)),
    });
    const [track] = (await h.video.player(VID)).tracks;
    const error = (await h.video
      .captions(track!, { translateTo: 'de' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('upstream_blocked');
    // The untranslated track still loads.
    expect((await h.video.captions(track!)).format).toBe('json3');
  });
});
