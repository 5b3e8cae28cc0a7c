/**
 * The video side of the YouTube driver (youtube-protocol.md §2.3–2.4, §3, §9): the player
 * fallback chain (VISIONOS → ANDROID → WEB), timed text with a fallback to the next client when a
 * caption URL answers empty (YouTube's PO-token gate), and the WEB watch-page extras.
 *
 * Chain rules: a client is skipped when it answers for another video, refuses the request
 * (`400 FAILED_PRECONDITION`: outdated version; any other 4xx or a 5xx after retries), says the
 * video is unavailable (VISIONOS says so of videos ANDROID plays), meets a bot check (often
 * client-specific, so the next client is worth one request), or offers caption tracks that all
 * need a PO token. Private, age-gated, members-only and geo-blocked videos and a 429 stop the
 * chain at once: they are the truth, or asking again only makes it worse. When every client
 * fails, the most truthful failure is thrown: PO token > bot check > unavailable > unreadable >
 * refused. Identical calls in flight are shared ({@link Flights}).
 *
 * Each caption download has its own timeout ({@link CAPTION_TIMEOUT_MS}): a stall counts as an
 * empty answer and the next client is tried within the caller's deadline. Each client has a
 * circuit breaker ({@link ClientBreakers}): empty, stalled or PO-gated captions open it and the
 * chain skips the client for a while. A client that says "no caption tracks" is confirmed by the
 * next one: only two answers of "none" make a captionless video; an unconfirmed "none" is
 * `upstream_blocked`, never `captions_disabled`.
 *
 * With a PO-token provider (`TUBESCRIBE_POT_PROVIDER`, {@link PoTokenProvider}) a web client's
 * gated tracks are usable: their caption URLs carry `pot`, `potc=1` and `c=<client>`, the token
 * bound to the video. When the provider cannot give a token, the gated URL is not fetched at all
 * (it would only stall and answer empty): the download counts as empty and the chain goes on.
 * @module
 */

import { ClientBreakers, DEFAULT_BREAKER } from '../../core/client-health.ts';
import { Flights } from '../../core/flights.ts';
import { ApiError, isApiError } from '../../errors.ts';
import type { Random } from '../../ports/random.ts';
import type {
  CaptionOptions,
  CaptionTrack,
  ClientHealth,
  Json3Document,
  Json3Event,
  Json3Seg,
  PlayerData,
  TimedText,
  UpstreamOptions,
  UpstreamOutcome,
  VideoExtras,
} from '../../ports/upstream.ts';
import { failureOutcome, type JsonAnswer, parseJson } from './innertube.ts';
import { at, num, obj, ParseError, str } from './json.ts';
import { mergeVideoExtras, parseMicroformat } from './parse-microformat.ts';
import { parseNext } from './parse-next.ts';
import { needsPoToken, type PlayerParse, parsePlayerResponse, timedTextUrl } from './parse-player.ts';
import { BOT_CHECK_RETRY_AFTER, WrongVideoError } from './playability.ts';
import { withPoToken } from './po-token.ts';
import type { ClientProfile } from './profiles.ts';
import type { SourceDeps } from './source-deps.ts';

/** NewPipe's field mask of the WEB player call that only wants the microformat. */
export const MICROFORMAT_FIELDS = 'microformat,videoDetails.thumbnail.thumbnails,videoDetails.videoId';

/** Seconds to wait after YouTube demanded a PO token on every client (it is per IP and lasts). */
export const PO_TOKEN_RETRY_AFTER = 300;

/** Default timeout of one caption download, in ms (`captionTimeoutMs`). */
export const CAPTION_TIMEOUT_MS = 4000;

/** What one player client said: a parse, or a failure ranked by how truthful it is. */
type Attempt = { ok: true; parse: PlayerParse } | { ok: false; error: Error; rank: number };

/** Ranks of skippable failures (higher = reported first when every client failed). */
const RANK = { refused: 1, unreadable: 2, unavailable: 3, bot: 4, poToken: 5 } as const;

const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const checks = { contentCheckOk: true, racyCheckOk: true };

/** The video side of the YouTube upstream: `player`, `captions`, `videoExtras`. */
export class VideoSource {
  private readonly chains = new Flights<PlayerData>();
  private readonly attempts = new Flights<Attempt>();
  private readonly breakers: ClientBreakers;

  /** The `t` and `cpn` nonces come from `deps.random`, the upstream's injected Random, only. */
  constructor(private readonly deps: SourceDeps) {
    this.breakers = new ClientBreakers(deps.playerChain, deps.breaker ?? DEFAULT_BREAKER);
  }

  /** The player clients' circuit breakers, for the operator. */
  health(): ClientHealth[] {
    return this.breakers.health();
  }

  /** Player data from the first client of the chain that gives a usable answer. */
  player(videoId: string, o: UpstreamOptions = {}): Promise<PlayerData> {
    const { hl, gl } = this.locale(o);
    return this.chains.run(`${videoId}|${hl}|${gl}`, o.signal, (signal) =>
      this.chain(videoId, { hl, gl, signal }),
    );
  }

  /**
   * The timed text of a track (json3, or srv3/srv1 XML when YouTube answers XML). An empty answer
   * is YouTube's PO-token gate: the same track is looked up with the next clients of the chain.
   * A refused URL (403/404/410: usually expired) is refreshed from its own client first. Nothing
   * usable → `upstream_blocked` when a URL answered empty, else `upstream_error`; never an empty
   * transcript. With `o.translateTo` every URL carries `tlang=<code>`: a track YouTube marks as
   * not translatable is `translation_unavailable`, and YouTube refusing the translation is
   * `upstream_blocked`, never `captions_disabled`.
   */
  async captions(track: CaptionTrack, o: CaptionOptions = {}): Promise<TimedText> {
    const tlang = o.translateTo;
    if (tlang !== undefined && !track.isTranslatable) {
      throw new ApiError(
        'translation_unavailable',
        `YouTube does not translate the ${track.languageCode} captions of this video.`,
      );
    }
    const own = refClient(track.ref);
    const first = await this.text(track.ref, o);
    this.note(own, first);
    if (first.kind === 'text') return first.text;
    const videoId = refVideoId(track.ref);
    const chain = this.deps.playerChain;
    const from = chain.indexOf(own ?? '');
    const candidates = first.kind === 'refused' ? chain.slice(Math.max(from, 0)) : chain.slice(from + 1);
    let blocked = first.kind === 'empty';
    let status = first.kind === 'refused' ? first.status : 0;
    const same = (t: CaptionTrack) =>
      t.languageCode === track.languageCode && t.kind === track.kind && t.variant === track.variant;
    for (const name of candidates) {
      if (name !== own && !this.breakers.allow(name, this.deps.clock.now())) continue;
      const attempt = await this.attempt(name, videoId, this.locale(o));
      if (!attempt.ok) continue;
      const match = attempt.parse.data.tracks.find(same);
      if (!match) {
        if (attempt.parse.poTokenTracks.some(same)) {
          blocked = true;
          this.breakers.failure(name, this.deps.clock.now());
        }
        continue;
      }
      const next = await this.text(tagRef(match.ref, name), o);
      this.note(name, next);
      if (next.kind === 'text') return next.text;
      if (next.kind === 'empty') blocked = true;
      else status = next.status;
    }
    if (blocked) throw poTokenBlocked(videoId);
    if (tlang !== undefined) {
      throw new ApiError(
        'upstream_blocked',
        `YouTube refused to translate the captions into ${tlang} (HTTP ${status}); retry later.`,
        { retryAfter: BOT_CHECK_RETRY_AFTER },
      );
    }
    throw new ApiError('upstream_error', `YouTube refused the caption URL (HTTP ${status}); retry later.`);
  }

  /** Publish date, likes, chapters and heatmap: WEB `player` (microformat only) and `next`, in parallel. */
  async videoExtras(videoId: string, o: UpstreamOptions = {}): Promise<VideoExtras> {
    const web = this.deps.profiles.WEB;
    if (!web) throw new Error('The WEB client profile is required for video extras.');
    const call = this.locale(o);
    const fields = { query: { $fields: MICROFORMAT_FIELDS }, visitor: true };
    const [micro, next] = await Promise.all([
      this.deps.tube.call(web, 'player', { videoId, ...checks }, { ...call, ...fields }),
      this.deps.tube.call(web, 'next', { videoId, ...checks }, { ...call, visitor: false }),
    ]);
    try {
      const m = parseMicroformat(ok(micro, 'player'));
      if (m.videoId !== undefined && m.videoId !== videoId) throw new WrongVideoError(videoId, m.videoId);
      const n = parseNext(ok(next, 'next'));
      if (n.videoId !== undefined && n.videoId !== videoId) throw new WrongVideoError(videoId, n.videoId);
      // No microformat at all: the video may not be watchable; the player knows why.
      if (Object.keys(m).length === 0) await this.player(videoId, o);
      return mergeVideoExtras(n, m);
    } catch (error) {
      if (!(error instanceof ParseError) || error instanceof WrongVideoError) throw error;
      await this.player(videoId, o); // throws the truthful error when the video cannot be watched
      throw error;
    }
  }

  private locale(o: UpstreamOptions): { hl: string; gl: string; signal?: AbortSignal } {
    const t = this.deps.tube.transport;
    return { hl: o.hl ?? t.hl, gl: o.gl ?? t.gl, ...(o.signal ? { signal: o.signal } : {}) };
  }

  /** Records a caption answer on its client's breaker: text = success, empty/stalled = failure. */
  private note(client: string | undefined, answer: TextAnswer): void {
    if (client === undefined || answer.kind === 'refused') return;
    const now = this.deps.clock.now();
    if (answer.kind === 'text') this.breakers.success(client, now);
    else this.breakers.failure(client, now);
  }

  /**
   * GETs a track's json3 through the transport (origin override and proxies apply), with its own
   * timeout on top of the caller's signal: a stall is `empty` (the PO-token gate stalls too).
   */
  private async text(ref: string, o: CaptionOptions): Promise<TextAnswer> {
    const { hl, signal } = this.locale(o);
    const transport = this.deps.tube.transport;
    const client = refClient(ref);
    const userAgent = (this.deps.profiles[client ?? ''] ?? this.deps.profiles.WEB)?.userAgent;
    const headers: Record<string, string> = { 'Accept-Language': `${hl}, en;q=0.9` };
    if (userAgent) headers['User-Agent'] = userAgent;
    let url = timedTextUrl(ref, 'json3', transport.origin, o.translateTo);
    const profile = this.deps.profiles[client ?? ''];
    if (this.deps.pot && profile?.web && needsPoToken(ref)) {
      const token = await this.deps.pot.token(refVideoId(ref), signal);
      if (token === undefined) return EMPTY; // the gated URL would only stall, then answer empty
      url = withPoToken(url, token, profile.name);
    }
    const timeoutMs = this.deps.captionTimeoutMs ?? CAPTION_TIMEOUT_MS;
    const deadline = withTimeout(signal, timeoutMs);
    const observe = (outcome: UpstreamOutcome) =>
      this.deps.tube.observe(client ?? 'unknown', 'captions', outcome);
    try {
      const answer = await transport.request('GET', url, headers, undefined, deadline.signal);
      const read: TextAnswer =
        answer.status === 200 ? readTimedText(answer.text) : { kind: 'refused', status: answer.status };
      observe(read.kind === 'text' ? 'ok' : read.kind === 'empty' ? 'empty' : 'error');
      return read;
    } catch (error) {
      if (!deadline.timedOut() || signal?.aborted) {
        const outcome = failureOutcome(error, signal);
        if (outcome) observe(outcome);
        throw error;
      }
      observe('empty'); // a stall: the PO-token gate stalls too
      this.deps.logger.log('info', 'caption download stalled; trying the next client', { client, timeoutMs });
      return EMPTY;
    } finally {
      deadline.dispose();
    }
  }

  /**
   * Walks the chain: clients whose breaker is open are skipped (all open: every client is asked
   * anyway). A client without caption tracks is confirmed by the next one that answers.
   */
  private async chain(
    videoId: string,
    o: { hl: string; gl: string; signal: AbortSignal },
  ): Promise<PlayerData> {
    let best: PlayerData | undefined;
    let failure: { error: Error; rank: number } | undefined;
    /** A client's "no caption tracks", and whether a later client failed to confirm it. */
    let none: PlayerData | undefined;
    let unconfirmed = false;
    const chain = this.deps.playerChain;
    const order = [...chain];
    const skipped: string[] = [];
    for (let i = 0; i < order.length; i++) {
      const name = order[i]!;
      // A breaker guards caption downloads; confirming "no tracks" asks every client's player.
      if (i < chain.length && !none && !this.breakers.allow(name, this.deps.clock.now())) {
        this.deps.logger.log('info', 'player client skipped: its breaker is open', { client: name, videoId });
        skipped.push(name);
        if (skipped.length === chain.length) order.push(...skipped.splice(0)); // all open: ask them anyway
        continue;
      }
      const attempt = await this.attempt(name, videoId, o);
      if (!attempt.ok) {
        if (!failure || attempt.rank > failure.rank) failure = attempt;
        if (none) unconfirmed = true;
        this.deps.logger.log('info', 'player client skipped', {
          client: name,
          videoId,
          error: attempt.error.message,
        });
        continue;
      }
      const data = tagged(attempt.parse.data, name);
      if (attempt.parse.poTokenTracks.length === 0) {
        if (data.tracks.length > 0 || none) return data.tracks.length > 0 ? data : (none ?? data);
        none = data; // "no captions" needs a second opinion, from open clients too
        order.push(...skipped.splice(0));
        continue;
      }
      this.breakers.failure(name, this.deps.clock.now());
      this.deps.logger.log('info', 'caption tracks need a PO token; trying the next client', {
        client: name,
        videoId,
        tracks: attempt.parse.poTokenTracks.length,
      });
      if (none) unconfirmed = true;
      if (data.tracks.length > (best?.tracks.length ?? 0)) best = data;
      if (!failure || RANK.poToken > failure.rank)
        failure = { error: poTokenBlocked(videoId), rank: RANK.poToken };
    }
    if (best) return best;
    if (none && !unconfirmed) return none; // no other client could be asked
    if (none) throw unconfirmedNone(videoId, failure?.error);
    throw failure?.error ?? new Error('The player chain is empty.');
  }

  /** One client's player answer (shared in flight); truthful errors and 429s are thrown. */
  private attempt(name: string, videoId: string, o: { hl: string; gl: string; signal?: AbortSignal }) {
    const profile = this.deps.profiles[name];
    if (!profile) throw new Error(`Unknown YouTube client "${name}".`);
    return this.attempts.run(`${name}|${videoId}|${o.hl}|${o.gl}`, o.signal, (signal) =>
      this.load(profile, videoId, { hl: o.hl, gl: o.gl, signal }),
    );
  }

  private async load(
    profile: ClientProfile,
    videoId: string,
    o: { hl: string; gl: string; signal: AbortSignal },
  ) {
    const t = token(this.deps.random, 12);
    const cpn = token(this.deps.random, 16);
    const reel = profile.playerEndpoint === 'reel';
    const query: Record<string, string> = profile.web ? {} : { t, id: videoId };
    if (reel) query.$fields = 'playerResponse';
    const request = profile.web ? { videoId, ...checks } : { videoId, cpn, ...checks };
    const body = reel ? { playerRequest: request, disablePlayerResponse: false } : request;
    const endpoint = reel ? 'reel/reel_item_watch' : 'player';
    const observe = (outcome: UpstreamOutcome) => this.deps.tube.observe(profile.name, endpoint, outcome);
    let answer: JsonAnswer;
    try {
      answer = await this.deps.tube.call(profile, endpoint, body, {
        ...o,
        query,
        visitor: true,
        observeAnswer: false,
      });
    } catch (error) {
      if (o.signal.aborted || isApiError(error, 'upstream_blocked')) throw error;
      if (error instanceof ParseError) return skip(error, RANK.unreadable);
      if (error instanceof ApiError) return skip(error, RANK.refused);
      throw error;
    }
    if (answer.status !== 200) {
      const status = str(at(answer.json, 'error', 'status')) ?? '';
      const why = status === 'FAILED_PRECONDITION' ? ' (client version outdated?)' : '';
      const message = `YouTube refused player client ${profile.name}: HTTP ${answer.status} ${status}${why}; retry later.`;
      observe('error');
      return skip(new ApiError('upstream_error', message), RANK.refused);
    }
    try {
      const parse = this.withTokens(profile, parsePlayerResponse(answer.json, videoId));
      observe(parse.poTokenTracks.length > 0 ? 'po_token' : 'ok');
      return { ok: true, parse } satisfies Attempt;
    } catch (error) {
      observe(
        isApiError(error, 'upstream_blocked') ? 'blocked' : error instanceof ParseError ? 'error' : 'ok',
      );
      if (error instanceof ParseError) return skip(error, RANK.unreadable);
      if (isApiError(error, 'video_unavailable')) return skip(error, RANK.unavailable);
      if (isApiError(error, 'upstream_blocked')) return skip(error, RANK.bot);
      throw error;
    }
  }

  /** A web client's PO-gated tracks count as usable when a PO-token provider is configured. */
  private withTokens(profile: ClientProfile, parse: PlayerParse): PlayerParse {
    if (!this.deps.pot || !profile.web || parse.poTokenTracks.length === 0) return parse;
    return { ...parse, data: { ...parse.data, tracks: parse.allTracks }, poTokenTracks: [] };
  }
}

function skip(error: Error, rank: number): Attempt {
  return { ok: false, error, rank };
}

/** The answer's JSON when it is a 200, else a ParseError naming the endpoint and status. */
function ok(answer: JsonAnswer, endpoint: string): unknown {
  if (answer.status !== 200) throw new ParseError(endpoint, `${endpoint} answered HTTP ${answer.status}`);
  return answer.json;
}

/** The data with each track's ref tagged with the client that issued it. */
function tagged(data: PlayerData, client: string): PlayerData {
  return { ...data, tracks: data.tracks.map((t) => ({ ...t, ref: tagRef(t.ref, client) })) };
}

/** `length` random URL-safe characters (the `t` and `cpn` nonces). */
function token(random: Random, length: number): string {
  return Array.from(random.bytes(length), (b) => TOKEN_ALPHABET[b & 63]).join('');
}

/** A caption URL's answer: a document, empty (the PO-token gate), or refused with a status. */
export type TextAnswer =
  | { kind: 'text'; text: TimedText }
  | { kind: 'empty' }
  | { kind: 'refused'; status: number };

const EMPTY: TextAnswer = { kind: 'empty' };

/**
 * Reads a timedtext body: json3 (events kept, styling tables dropped), srv3 or srv1 XML. A blank
 * body, or a document without any caption text, is `empty`. A bot-check page is
 * `upstream_blocked`; anything else a {@link ParseError}.
 */
export function readTimedText(raw: string): TextAnswer {
  const body = raw.replace(/^\uFEFF/, '').trim();
  if (body === '') return EMPTY;
  if (body.startsWith('{')) {
    const json = parseJson(body, 'timedtext');
    const events = at(json, 'events');
    if (!Array.isArray(events)) {
      if (at(json, 'wireMagic') !== undefined) return EMPTY; // json3 without a single event
      throw new ParseError('timedtext.events');
    }
    const document: Json3Document = { events: events.map(eventOf).filter((e) => e !== undefined) };
    const text = document.events.some((e) => e.segs?.some((seg) => seg.utf8.trim() !== ''));
    return text ? { kind: 'text', text: { format: 'json3', document } } : EMPTY;
  }
  if (/g-recaptcha|unusual traffic/i.test(body)) {
    const message = 'YouTube asked to confirm that tubescribe is not a bot; retry later.';
    throw new ApiError('upstream_blocked', message, { retryAfter: BOT_CHECK_RETRY_AFTER });
  }
  const srv1 = /^(?:<\?xml[^>]*>\s*)?<transcript[\s>]/.test(body);
  if (!srv1 && !/^(?:<\?xml[^>]*>\s*)?<timedtext[\s>]/.test(body)) {
    throw new ParseError('timedtext', 'caption answer is neither json3 nor timed-text XML');
  }
  if (body.replace(/<[^>]*>/g, '').trim() === '') return EMPTY;
  return { kind: 'text', text: { format: srv1 ? 'srv1' : 'srv3', xml: body } };
}

/** A json3 event with the port's fields only; undefined without a start time. */
function eventOf(value: unknown): Json3Event | undefined {
  const e = obj(value);
  const tStartMs = num(e?.tStartMs);
  if (!e || tStartMs === undefined) return undefined;
  const out: Json3Event = { tStartMs };
  for (const key of ['dDurationMs', 'id', 'wWinId', 'wpWinPosId', 'wsWinStyleId', 'aAppend'] as const) {
    const n = num(e[key]);
    if (n !== undefined) out[key] = n;
  }
  if (Array.isArray(e.segs)) {
    out.segs = e.segs.flatMap((raw): Json3Seg[] => {
      const utf8 = str(at(raw, 'utf8'));
      if (utf8 === undefined) return [];
      const seg: Json3Seg = { utf8 };
      const offset = num(at(raw, 'tOffsetMs'));
      if (offset !== undefined) seg.tOffsetMs = offset;
      const conf = num(at(raw, 'acAsrConf'));
      if (conf !== undefined) seg.acAsrConf = conf;
      return [seg];
    });
  }
  return out;
}

const CLIENT_TAG = '#client=';

/** A caption URL tagged with the player client that issued it (a fragment: never sent). */
export function tagRef(ref: string, client: string): string {
  return `${ref.split('#', 1)[0]}${CLIENT_TAG}${client}`;
}

/** The player client a tagged caption ref came from. */
export function refClient(ref: string): string | undefined {
  const i = ref.indexOf(CLIENT_TAG);
  return i < 0 ? undefined : ref.slice(i + CLIENT_TAG.length);
}

/** The video of a caption ref (its `v=`). */
function refVideoId(ref: string): string {
  let v: string | null = null;
  try {
    v = new URL(ref.split('#', 1)[0]!).searchParams.get('v');
  } catch {}
  if (!v) throw new ParseError('captions.ref', 'caption ref without a video id (v=)');
  return v;
}

/**
 * `upstream_blocked`: one client said the video has no caption tracks and no other client could
 * confirm it (the truth may be "blocked"; never report "no captions" then).
 */
function unconfirmedNone(videoId: string, cause: Error | undefined): ApiError {
  if (isApiError(cause, 'upstream_blocked')) return cause;
  return new ApiError(
    'upstream_blocked',
    `One YouTube client says video ${videoId} has no captions, and no other client could confirm it; retry later.`,
    { retryAfter: BOT_CHECK_RETRY_AFTER, ...(cause ? { cause } : {}) },
  );
}

/** `upstream_blocked`: every client's caption URLs need a proof-of-origin token. */
function poTokenBlocked(videoId: string): ApiError {
  return new ApiError(
    'upstream_blocked',
    `YouTube demands a proof-of-origin (PO) token for the captions of video ${videoId} from every player ` +
      'client tubescribe tried; retry later (a proxy with another IP address may help).',
    { retryAfter: PO_TOKEN_RETRY_AFTER },
  );
}

/** A signal that aborts with the caller's `signal` or after `ms`, whichever comes first. */
function withTimeout(
  signal: AbortSignal | undefined,
  ms: number,
): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
  const controller = new AbortController();
  let timedOut = false;
  const onAbort = () => controller.abort(signal?.reason);
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new ApiError('upstream_timeout', `The caption download took longer than ${ms} ms.`));
  }, ms);
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    dispose: () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    },
  };
}
