/**
 * tubescribe: YouTube transcripts, metadata, channels, playlists and search behind one HTTP API.
 *
 * The public entry: `createApp` / `createTubescribe`, their options, the port types, errors,
 * the runtime-neutral drivers (memory storage, the embedded ledger, the YouTube driver, the HTTP
 * mailer, the DoH resolver) and the pure helpers. It imports nothing runtime-specific (checked by
 * bundling it for a neutral platform): runtime adapters and drivers live in `tubescribe/node`,
 * `tubescribe/bun`, `tubescribe/deno` and `tubescribe/redis`.
 * @module
 */
export { createApp, createTubescribe, type Tubescribe } from './app.ts';
export { parseChannel, parsePlaylistId, parseVideoId } from './core/ids.ts';
export { renderTranscript, TRANSCRIPT_FORMATS, type TranscriptFormat } from './core/render/index.ts';
export { parseTimedText } from './core/timedtext.ts';
export { chooseTrack, type TrackPolicy } from './core/tracks.ts';
export { type Ports, resolvePorts } from './defaults.ts';
export { type BoundedKeyValue, DEFAULT_MAX_CACHE_BYTES } from './drivers/kv-bounded.ts';
export { createMemoryKv, type MemoryKvOptions } from './drivers/kv-memory.ts';
export { createUnstorageKv, type UnstorageKvOptions } from './drivers/kv-unstorage.ts';
export { createEmbeddedLedger, type EmbeddedLedgerOptions } from './drivers/ledger-embedded.ts';
export { createConsoleMailer } from './drivers/mailer-console.ts';
export { createHttpMailer } from './drivers/mailer-http.ts';
export { createDohResolver } from './drivers/resolver-doh.ts';
export { createJsonLogger, cryptoRandom, silentLogger, systemClock } from './drivers/system.ts';
export { createYouTubeUpstream, type YouTubeOptions } from './drivers/youtube/index.ts';
export {
  ApiError,
  type ApiErrorOptions,
  ERROR_CODES,
  type ErrorCode,
  type ErrorEnvelope,
  isApiError,
  toEnvelope,
} from './errors.ts';
export type {
  AppOptions,
  ClientAddressOf,
  ClientGoneOf,
  DefaultYouTubeOptions,
  Limits,
  RequestHeaderOf,
  RouteSet,
} from './options.ts';
export type * from './ports/index.ts';
export type { CacheTtls } from './services/cache.ts';
export type { Services } from './services/index.ts';
export { SharedSecret } from './services/secret.ts';
export { DEFAULT_CACHE_TTLS, DEFAULT_LIMITS, resolveSettings, type Settings } from './settings.ts';
