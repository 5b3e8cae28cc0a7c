/**
 * The YouTube Upstream driver: InnerTube and the public feeds, normalised to the Upstream port.
 * Composition of the video side ({@link VideoSource}), the browse side ({@link BrowseSource}) and
 * the comments ({@link CommentSource}) over one transport; every parse failure becomes
 * `502 upstream_error` with the failing JSON path logged (never a 500, never "no captions").
 * `start()` (the app's start-up) fetches the player clients' visitorData and keeps it fresh in the
 * background, so a cold transcript costs the request path two YouTube requests (player and
 * caption) instead of three; with a PO-token provider it also checks that the provider answers.
 * @module
 */
import { type BreakerConfig, DEFAULT_BREAKER } from '../../core/client-health.ts';
import { ApiError } from '../../errors.ts';
import type { Clock } from '../../ports/clock.ts';
import type { ProxyFetch, UpstreamAnswer, UpstreamFetch } from '../../ports/fetch.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Random } from '../../ports/random.ts';
import type { Upstream, UpstreamObserver } from '../../ports/upstream.ts';
import { cryptoRandom, silentLogger, systemClock } from '../system.ts';
import { BrowseSource } from './browse-source.ts';
import { CommentSource } from './comment-source.ts';
import { InnerTube } from './innertube.ts';
import { ParseError } from './json.ts';
import { PoTokenProvider, potProviderUrl } from './po-token.ts';
import { DEFAULT_PLAYER_CHAIN, type ProfileOverrides, resolveProfiles } from './profiles.ts';
import type { SourceDeps } from './source-deps.ts';
import { Transport } from './transport.ts';
import { VideoSource } from './video-source.ts';

/** Options of {@link createYouTubeUpstream}. */
export interface YouTubeOptions {
  /** Replaces every YouTube host, caption URLs included (`TUBESCRIBE_YOUTUBE_ORIGIN`). */
  origin?: string;
  /** Outbound proxies, rotated (`TUBESCRIBE_PROXY`). They need {@link YouTubeOptions.proxyFetch}. */
  proxies?: readonly string[];
  /**
   * Builds the fetch that goes through one proxy: `proxyFetch` of `tubescribe/node`,
   * `tubescribe/bun` or `tubescribe/deno`. Required when `proxies` are set.
   */
  proxyFetch?: ProxyFetch;
  /**
   * A fetch to use instead of the global one for YouTube: any `fetch` (tests), or one whose
   * answers are only {@link UpstreamAnswer}s (the Node adapter's `nodeUpstreamFetch`). Ignored
   * when proxies are set. The PO-token provider is always reached with the global fetch, never
   * through a proxy.
   */
  fetch?: UpstreamFetch;
  /** Client profile overrides (versions, user agents). */
  clients?: ProfileOverrides;
  /** The player fallback chain. Default VISIONOS → ANDROID → WEB. */
  playerChain?: readonly string[];
  /** Default interface language and country. */
  hl?: string;
  gl?: string;
  /** Timeout of one caption download, in ms (default 4 s): a stall counts as an empty answer. */
  captionTimeoutMs?: number;
  /**
   * The player clients' circuit breakers: failures in a row that open one (default 3), how long
   * it stays open in ms (default 5 min), how long a half-open probe may stay out (default 30 s).
   */
  clientHealth?: Partial<BreakerConfig>;
  /** Transport retries for retryable outcomes (default 2). */
  retries?: number;
  /** Longest Retry-After of YouTube's waited for before answering upstream_blocked (default 3 s). */
  maxRetryAfterMs?: number;
  /** YouTube requests in flight at once, per process (default 32). */
  maxConcurrent?: number;
  /** YouTube requests waiting for a slot before `503 upstream_busy` (default 64). */
  maxQueued?: number;
  /** Longest wait for a slot before `503 upstream_busy` (default 2 s). */
  maxQueueWaitMs?: number;
  /** Cap on a YouTube response body in bytes; past it `upstream_error` (default 16 MiB). */
  maxBodyBytes?: number;
  /**
   * A bgutil PO-token provider (`TUBESCRIBE_POT_PROVIDER`, e.g. `http://127.0.0.1:4416`): the
   * WEB client's PO-gated caption URLs then carry a token. Unset: WEB is a track inventory only.
   */
  potProvider?: string;
  /** Bound on one PO-token provider call, in ms (default 5 s). */
  potTimeoutMs?: number;
  /** How long a client's visitorData is used, in ms (default 6 h); refreshed after 80 % of it once started. */
  visitorTtlMs?: number;
  /**
   * Told of every YouTube request after it ended: client, endpoint (`player`, `next`, `browse`,
   * `search`, `captions`, `visitor_id`, `feed`, `suggestions`, …) and outcome (the app's metrics).
   */
  onUpstream?: UpstreamObserver;
  clock?: Clock;
  random?: Random;
  logger?: Logger;
}

/** The transport behind an upstream, for figures in tests (requests sent). */
export interface YouTubeUpstream extends Upstream {
  readonly transport: Transport;
  /** The PO-token provider, when one is configured. */
  readonly poTokens: PoTokenProvider | undefined;
  /** Fetches the player clients' visitorData and keeps it fresh until `stop()`; never rejects. */
  start(): Promise<void>;
  stop(): void;
}

/**
 * Creates the YouTube upstream. Throws at once when `proxies` are set without a `proxyFetch`,
 * when the player chain names an unknown client, or when `potProvider` is not an http(s) URL.
 */
export function createYouTubeUpstream(options: YouTubeOptions = {}): YouTubeUpstream {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandom;
  const logger = options.logger ?? silentLogger;
  const transport = new Transport({
    clock,
    random,
    logger,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.origin ? { origin: options.origin } : {}),
    ...(options.proxies ? { proxies: options.proxies } : {}),
    ...(options.proxyFetch ? { proxyFetch: options.proxyFetch } : {}),
    ...(options.hl ? { hl: options.hl } : {}),
    ...(options.gl ? { gl: options.gl } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.maxRetryAfterMs !== undefined ? { maxRetryAfterMs: options.maxRetryAfterMs } : {}),
    ...(options.maxConcurrent !== undefined ? { maxConcurrent: options.maxConcurrent } : {}),
    ...(options.maxQueued !== undefined ? { maxQueued: options.maxQueued } : {}),
    ...(options.maxQueueWaitMs !== undefined ? { maxQueueWaitMs: options.maxQueueWaitMs } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });
  const profiles = resolveProfiles(options.clients);
  const playerChain = options.playerChain ?? DEFAULT_PLAYER_CHAIN;
  for (const name of playerChain)
    if (!profiles[name]) throw new Error(`Unknown YouTube client "${name}" in the player chain.`);
  const poTokens = options.potProvider
    ? new PoTokenProvider({
        url: potProviderUrl(options.potProvider, 'youtube.potProvider (TUBESCRIBE_POT_PROVIDER)'),
        clock,
        logger,
        ...(options.potTimeoutMs !== undefined ? { timeoutMs: options.potTimeoutMs } : {}),
      })
    : undefined;
  const tube = new InnerTube(transport, clock, logger, options.visitorTtlMs, options.onUpstream);
  const deps: SourceDeps = {
    tube,
    profiles,
    playerChain,
    logger,
    clock,
    random,
    breaker: { ...DEFAULT_BREAKER, ...options.clientHealth },
    ...(options.captionTimeoutMs !== undefined ? { captionTimeoutMs: options.captionTimeoutMs } : {}),
    ...(poTokens ? { pot: poTokens } : {}),
  };
  const video = new VideoSource(deps);
  const browse = new BrowseSource(deps);
  const comments = new CommentSource(deps, (id, o) => video.player(id, o));

  /** Maps parse failures to upstream_error, logging the path (never the body). */
  const guard =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await fn(...args);
      } catch (error) {
        if (error instanceof ParseError) {
          logger.log('error', 'unparseable YouTube response', { call: name, path: error.path });
          throw new ApiError(
            'upstream_error',
            'YouTube answered with something tubescribe cannot read; retry later.',
            {
              cause: error,
            },
          );
        }
        throw error;
      }
    };

  let started: Promise<void> | undefined;
  /** visitorData for every player client (each one's player call sends it), then the provider's ping. */
  const start = (): Promise<void> => {
    started ??= (async () => {
      const clients = [...new Set(playerChain)].map((name) => profiles[name]!);
      const [ready, version] = await Promise.all([
        tube.keepFresh(clients),
        poTokens ? poTokens.ping() : Promise.resolve(null),
      ]);
      logger.log('info', 'YouTube driver warmed up', { visitorData: ready });
      if (version === undefined) {
        logger.log('warn', 'PO-token provider does not answer /ping; WEB captions stay gated until it does');
      } else if (version !== null) logger.log('info', 'PO-token provider answers', { version });
    })().catch((error: unknown) => {
      logger.log('warn', 'YouTube driver warm-up failed; the request path fetches lazily', {
        error: String(error),
      });
    });
    return started;
  };

  return {
    transport,
    poTokens,
    start,
    stop: () => {
      started = undefined;
      tube.stop();
    },
    player: guard('player', (id, o) => video.player(id, o)),
    captions: guard('captions', (track, o) => video.captions(track, o)),
    videoExtras: guard('videoExtras', (id, o) => video.videoExtras(id, o)),
    resolveChannel: guard('resolveChannel', (locator, o) => browse.resolveChannel(locator, o)),
    channel: guard('channel', (id, o) => browse.channel(id, o)),
    channelVideos: guard('channelVideos', (id, tab, page, o) => browse.channelVideos(id, tab, page, o)),
    channelPlaylists: guard('channelPlaylists', (id, page, o) => browse.channelPlaylists(id, page, o)),
    latest: guard('latest', (id, o) => browse.latest(id, o)),
    playlist: guard('playlist', (id, page, o) => browse.playlist(id, page, o)),
    search: guard('search', (q, filters, page, o) => browse.search(q, filters, page, o)),
    suggestions: guard('suggestions', (q, o) => browse.suggestions(q, o)),
    comments: guard('comments', (id, page, o) => comments.comments(id, page, o)),
    health: () => video.health(),
  };
}
