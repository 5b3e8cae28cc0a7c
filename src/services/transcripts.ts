/**
 * Transcripts: negotiate the track, fetch and parse its timed text (cached), and hand back a
 * document every renderer can use.
 * @module
 */
import {
  contentTypeOf,
  type RenderOptions,
  renderTranscriptBytes,
  type TranscriptFormat,
} from '../core/render/index.ts';
import { parseTimedText } from '../core/timedtext.ts';
import {
  type AvailableLanguage,
  availableLanguages,
  chooseTrack,
  type TrackChoice,
  type TrackPolicy,
} from '../core/tracks.ts';
import type { ParsedTimedText, TranscriptDoc } from '../core/transcript.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { CaptionTrack, Chapter, PlayerData, Upstream, VideoExtras } from '../ports/upstream.ts';
import {
  type CacheStatus,
  type CacheTtls,
  combineStatus,
  type RenderedBody,
  type ResponseCache,
  type TranscriptBodies,
} from './cache.ts';
import { type CallContext, upstreamOptions } from './context.ts';

/** A transcript request, aliases already normalised at the edge. */
export interface TranscriptRequest {
  videoId: string;
  languages: readonly string[];
  policy: TrackPolicy;
  format: TranscriptFormat;
  wordLevel: boolean;
  /** YouTube's machine translation of the negotiated track into this language (`translate_to`). */
  translateTo?: string;
}

/** A transcript ready to render. */
export interface TranscriptResult {
  doc: TranscriptDoc;
  choice: TrackChoice;
  cache: CacheStatus;
  /** Seconds spent producing it (the `X-Duration-Seconds` header). */
  seconds: number;
  /** Where the document came from: the cached text and every other value it used (for {@link Transcripts.render}). */
  source: { key: string; text: ParsedTimedText; deps: readonly unknown[] };
}

/** Dependencies of {@link Transcripts}. */
export interface TranscriptsDeps {
  upstream: Upstream;
  cache: ResponseCache;
  clock: Clock;
  ttl: CacheTtls;
  /** Deadline for shared upstream loads (they outlive any one caller). */
  deadlineMs: number;
  /** How rendered transcripts are kept and answered (`AppOptions.transcriptBodies`). Default: bytes. */
  bodies?: TranscriptBodies;
  /**
   * Resolves when the event loop may run another step of work (see `ResponseCache`): a caption
   * document is parsed, and a transcript not served from memory is rendered, in a turn of its
   * own once the step before used up its turn's slice. By default, at once.
   */
  backgroundTurn?: () => Promise<void>;
}

/** A rendered transcript: its `Content-Type`, and its UTF-8 body as bytes or as a Blob of them. */
export interface RenderedTranscriptBody {
  contentType: string;
  body: RenderedBody;
}

/**
 * The cache key of a track's parsed text (a translation has its own, with the target): never the
 * track URL, which is signed and expires.
 */
function timedTextCacheKey(videoId: string, track: CaptionTrack, translateTo?: string): string {
  const key = `captions:${videoId}:${track.languageCode}:${track.kind}:${track.variant ?? ''}`;
  return translateTo === undefined ? key : `${key}:tlang=${translateTo}`;
}

/** Whether `target` is among YouTube's translation languages (case-insensitive, `_` as `-`). */
function offers(languages: readonly string[], target: string): boolean {
  const norm = (code: string) => code.toLowerCase().replace(/_/g, '-');
  const wanted = norm(target);
  return languages.some((code) => norm(code) === wanted);
}

/**
 * Track choices remembered per track list (a cached player's, so the same list object while it
 * stays cached), per requested languages and policy: a cache hit skips the negotiation.
 */
const choices = new WeakMap<readonly CaptionTrack[], Map<string, TrackChoice>>();

/** {@link chooseTrack}, remembered (at most 32 choices per track list). */
function rememberedChoice(
  tracks: readonly CaptionTrack[],
  languages: readonly string[],
  policy: TrackPolicy,
): TrackChoice {
  const key = `${policy}\n${languages.join('\n')}`;
  let known = choices.get(tracks);
  const hit = known?.get(key);
  if (hit) return hit;
  const choice = Object.freeze(chooseTrack(tracks, languages, policy));
  if (!known) {
    known = new Map();
    choices.set(tracks, known);
  }
  if (known.size >= 32) known.clear();
  known.set(key, choice);
  return choice;
}

/** Loads player data through the cache (shared by transcripts and videos). */
export function cachedPlayer(
  deps: Pick<TranscriptsDeps, 'upstream' | 'cache' | 'ttl' | 'deadlineMs'>,
  videoId: string,
  ctx: CallContext,
): Promise<{ value: PlayerData; status: CacheStatus }> {
  return deps.cache.get(
    `player:${videoId}:${ctx.hl ?? ''}:${ctx.gl ?? ''}`,
    deps.ttl.player,
    () => deps.upstream.player(videoId, upstreamOptions(ctx, AbortSignal.timeout(deps.deadlineMs))),
    () => ctx.signal,
  );
}

/** Loads the watch-page extras through the cache (shared by transcripts and videos). */
export function cachedExtras(
  deps: Pick<TranscriptsDeps, 'upstream' | 'cache' | 'ttl' | 'deadlineMs'>,
  videoId: string,
  ctx: CallContext,
): Promise<{ value: VideoExtras; status: CacheStatus }> {
  return deps.cache.get(
    `extras:${videoId}:${ctx.hl ?? ''}:${ctx.gl ?? ''}`,
    deps.ttl.extras,
    () => deps.upstream.videoExtras(videoId, upstreamOptions(ctx, AbortSignal.timeout(deps.deadlineMs))),
    () => ctx.signal,
  );
}

/** The transcript service. */
export class Transcripts {
  constructor(private readonly deps: TranscriptsDeps) {}

  /** The transcript of a video in the negotiated language. */
  async get(request: TranscriptRequest, ctx: CallContext): Promise<TranscriptResult> {
    const started = this.deps.clock.now();
    const player = await cachedPlayer(this.deps, request.videoId, ctx);
    const data = player.value;
    if (data.live === 'upcoming' || data.live === 'live') {
      throw new ApiError(
        'live_stream_not_ready',
        data.live === 'upcoming'
          ? 'This live stream has not started; its transcript exists once it has ended.'
          : 'This live stream is still running; its transcript exists once it has ended.',
      );
    }
    const choice = rememberedChoice(data.tracks, request.languages, request.policy);
    const track = choice.track;
    const target = request.translateTo;
    if (target !== undefined && !track.isTranslatable) {
      throw new ApiError(
        'translation_unavailable',
        `YouTube does not translate the ${track.languageCode} captions of this video.`,
      );
    }
    if (target !== undefined && data.translationLanguages && !offers(data.translationLanguages, target)) {
      throw new ApiError(
        'translation_unavailable',
        `YouTube does not offer a ${target} translation of the captions of this video.`,
      );
    }
    const textKey = timedTextCacheKey(request.videoId, track, target);
    const text = await this.deps.cache.get<ParsedTimedText>(
      textKey,
      this.deps.ttl.captions,
      async () => {
        const options = upstreamOptions(ctx, AbortSignal.timeout(this.deps.deadlineMs));
        const raw = await this.deps.upstream.captions(
          track,
          target === undefined ? options : { ...options, translateTo: target },
        );
        await this.deps.backgroundTurn?.();
        const parsed = parseTimedText(raw, track.kind);
        if (parsed.segments.length === 0) {
          throw new ApiError('upstream_error', 'YouTube returned an empty caption document; retry later.');
        }
        return parsed;
      },
      () => ctx.signal,
    );
    const doc: TranscriptDoc = {
      videoId: request.videoId,
      language: target ?? track.languageCode,
      ...(target === undefined ? {} : { translatedFrom: track.languageCode }),
      trackKind: track.kind,
      durationSeconds: data.lengthSeconds,
      title: data.title,
      author: data.author,
      segments: text.value.segments,
      hasWordLevel: text.value.hasWordLevel,
      events: text.value.events,
      speechMs: text.value.speechMs,
    };
    let status = combineStatus(player.status, text.status);
    const deps: unknown[] = [data];
    if (request.format === 'markdown') {
      const chapters = await this.chapters(request.videoId, ctx);
      if (chapters) {
        doc.chapters = chapters.value;
        deps.push(chapters.value);
        status = combineStatus(status, chapters.status);
      }
    }
    // Rendered next (by the caller): after a fill or an L2 read, in a turn of its own.
    if (text.status !== 'HIT') await this.deps.backgroundTurn?.();
    return {
      doc,
      choice,
      cache: status,
      seconds: (this.deps.clock.now() - started) / 1000,
      source: { key: textKey, text: text.value, deps },
    };
  }

  /**
   * The document of `result` rendered in `format`, as UTF-8 bytes (or a Blob of them, see
   * {@link TranscriptsDeps.bodies}): rendered once per format and kept next to the cached text (in
   * the cache's memory bound) while neither it nor the player data (nor, for markdown, the
   * chapters) it was made with changes.
   */
  render(result: TranscriptResult, format: TranscriptFormat, options: RenderOptions): RenderedTranscriptBody {
    const { key, text, deps } = result.source;
    const variant = `${format}:${options.wordLevel ? 1 : 0}`;
    const blob = this.deps.bodies === 'blob';
    const body = this.deps.cache.rendered<RenderedBody>(key, text, variant, deps, () => {
      const bytes = renderTranscriptBytes(result.doc, format, options).body;
      return blob ? new Blob([bytes as Uint8Array<ArrayBuffer>]) : bytes;
    });
    return { contentType: contentTypeOf(format), body };
  }

  /** The track inventory (`/v1/transcripts/{id}/languages`). */
  async languages(
    videoId: string,
    ctx: CallContext,
  ): Promise<{ video_id: string; languages: AvailableLanguage[] }> {
    const player = await cachedPlayer(this.deps, videoId, ctx);
    return { video_id: videoId, languages: availableLanguages(player.value.tracks) };
  }

  /** Chapters for markdown headings; a failure only costs the headings. */
  private async chapters(
    videoId: string,
    ctx: CallContext,
  ): Promise<{ value: Chapter[]; status: CacheStatus } | undefined> {
    try {
      const extras = await cachedExtras(this.deps, videoId, ctx);
      return { value: extras.value.chapters, status: extras.status };
    } catch (error) {
      if (ctx.signal?.aborted) throw error;
      return undefined;
    }
  }
}
