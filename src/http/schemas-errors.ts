/**
 * The error side of the OpenAPI document: one reusable response per HTTP status, each with the
 * contract's envelope (`{"error":{"code","message","retryable"}}`) as schema and one example per
 * error code of that status (decisions.md, Errors), plus the headers that come with some of them.
 * @module
 */
import { ERROR_CODES } from '../errors.ts';

type Json = Record<string, unknown>;

/** The error envelope as JSON Schema. */
export const ERROR_SCHEMA: Json = {
  type: 'object',
  description: 'The error envelope: every error answer has this shape, and every error is free.',
  required: ['error'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable'],
      additionalProperties: false,
      properties: {
        code: { type: 'string', description: 'Machine-readable; clients switch on it, never on message' },
        message: { type: 'string', description: 'Human-readable; safe to show' },
        retryable: { type: 'boolean', description: 'True when the same request may succeed later' },
        details: {
          type: 'object',
          description: 'Structured extras (the parameter, the available languages)',
        },
      },
    },
  },
};

/** What each status means. */
export const STATUS_TEXT: Readonly<Record<number, string>> = {
  400: 'Invalid parameters or body (invalid_parameter, invalid_video_id, invalid_cursor, invalid_json, …)',
  401: 'Missing or invalid API key (or admin token); see WWW-Authenticate',
  402: 'Credit balance too low (insufficient_credits)',
  403: 'Restricted video, or the key lacks the scope',
  404: 'No captions, language not found, or the resource does not exist',
  405: 'Method not allowed on this path; see Allow',
  409: 'Conflict (account_exists, idempotency_conflict)',
  413: 'The request body is larger than the limit (payload_too_large)',
  415: 'A POST body that is not application/json (unsupported_media_type)',
  429: 'Rate limited (rate_limited, daily_limit_exceeded); see Retry-After',
  500: 'Internal error (retryable)',
  502: 'YouTube answered something unparseable (upstream_error), or the code email could not be sent (email_failed)',
  503: 'YouTube refused us, this server is busy with YouTube work, storage is down, or sign-up is paused or off; see Retry-After',
  504: 'The upstream work took too long (upstream_timeout)',
};

/** Codes the app answers that the table in src/errors.ts may not list yet. */
const EXTRA_CODES: Readonly<Record<string, { status: number; retryable: boolean }>> = {
  unsupported_media_type: { status: 415, retryable: false },
};

/** A sample message per code (the real ones name the parameter, the video, the limit). */
const MESSAGES: Readonly<Record<string, string>> = {
  invalid_request: 'The request body must be a JSON object.',
  invalid_video_id: "'abc' is not a YouTube video ID or URL.",
  invalid_playlist_id: "'RDabc' is a mix, not a playlist.",
  invalid_channel_id: "'x' is not a channel ID, @handle or channel URL.",
  invalid_parameter: "Invalid parameter 'limit': expected an integer from 1 to 50.",
  invalid_cursor: 'The cursor is not valid for this request.',
  invalid_json: 'The request body is not valid JSON.',
  invalid_webhook_url: 'The webhook URL must be https: and resolve to a public address.',
  invalid_email: 'The email address is not valid.',
  disposable_email: 'Disposable email addresses are not accepted.',
  undeliverable_email: 'The email domain cannot receive mail.',
  invalid_signup_token: 'The sign-up token is wrong or expired.',
  invalid_code: 'The code is wrong.',
  code_expired: 'The code expired; sign up again.',
  too_many_attempts: 'Too many wrong codes; sign up again.',
  missing_api_key: 'Send an API key as "Authorization: Bearer <key>" or "X-API-Key".',
  invalid_api_key: 'The API key is not valid.',
  insufficient_credits: 'This request costs 1 credit; the balance is 0.',
  region_blocked: 'The video is not available in this region.',
  age_restricted: 'The video is age-restricted.',
  private_video: 'The video is private.',
  members_only: 'The video is for channel members only.',
  insufficient_scope: 'This key lacks the data:read scope.',
  not_found: 'No route for GET /v1/nothing.',
  captions_disabled: 'The video has no captions.',
  comments_disabled: 'Comments are turned off for this video.',
  language_not_found: 'No track in de; available: en, fr.',
  translation_unavailable: 'The track cannot be translated to xx.',
  video_unavailable: 'The video is unavailable.',
  playlist_not_found: 'The playlist does not exist.',
  channel_not_found: 'The channel does not exist.',
  batch_not_found: 'No batch job batch_abc.',
  account_not_found: 'No account with id acc_abc.',
  key_not_found: 'No key with id key_abc.',
  live_stream_not_ready: 'The live stream has no transcript yet.',
  method_not_allowed: 'PUT is not allowed here; use GET.',
  account_exists: 'This email address already has an account.',
  idempotency_conflict: 'The Idempotency-Key was used with another body.',
  payload_too_large: 'The request body exceeds 1048576 bytes.',
  unsupported_media_type: 'Send the body as application/json.',
  rate_limited: 'Too many requests; retry after 1 second.',
  daily_limit_exceeded: 'The daily limit of 100 requests is reached; it resets at 00:00 UTC.',
  internal_error: 'Something went wrong on our side; retry.',
  upstream_error: 'YouTube answered something we could not read.',
  email_failed: 'The code email could not be sent.',
  upstream_blocked: 'YouTube refused the request; retry later.',
  upstream_busy: 'This server is busy with YouTube work; retry shortly.',
  storage_unavailable: 'Storage does not answer; retry shortly.',
  agent_signup_busy: 'Sign-up is paused for a while.',
  agent_signup_disabled: 'Agent sign-up is switched off.',
  upstream_timeout: 'YouTube took too long to answer.',
};

const HEADERS: Readonly<Record<number, Json>> = {
  401: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } },
  405: { Allow: { $ref: '#/components/headers/Allow' } },
  429: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  503: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
};

/** The headers error answers refer to. */
export const ERROR_HEADERS: Json = {
  'WWW-Authenticate': { description: 'The authentication scheme: `Bearer`', schema: { type: 'string' } },
  Allow: { description: 'The methods the path answers', schema: { type: 'string' } },
  'Retry-After': {
    description: 'Seconds to wait before retrying (≥ 1)',
    schema: { type: 'integer', minimum: 1 },
  },
};

/** The reusable response of `status`: the envelope, its codes as examples, and its headers. */
export function errorResponse(status: number): Json {
  const codes = Object.entries({ ...ERROR_CODES, ...EXTRA_CODES }).filter(
    ([code, info]) => info.status === status && code !== 'cancelled',
  );
  const examples = Object.fromEntries(
    codes.map(([code, info]) => [
      code,
      {
        summary: code,
        value: { error: { code, message: MESSAGES[code] ?? code, retryable: info.retryable } },
      },
    ]),
  );
  return {
    description: STATUS_TEXT[status] ?? `HTTP ${status}`,
    ...(HEADERS[status] ? { headers: HEADERS[status] } : {}),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' }, examples } },
  };
}
