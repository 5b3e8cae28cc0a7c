/**
 * tubescribe: YouTube transcripts, metadata, channels, playlists and search behind one HTTP API.
 *
 * The public entry: `createApp`, its options, the port types, errors and the pure helpers.
 * Runtime adapters live in `tubescribe/node`, `tubescribe/bun` and `tubescribe/deno`.
 * @module
 */
export { type AppOptions, createApp } from './app.ts';
export {
  ApiError,
  type ApiErrorOptions,
  ERROR_CODES,
  type ErrorCode,
  type ErrorEnvelope,
  isApiError,
  toEnvelope,
} from './errors.ts';
export type * from './ports/index.ts';
