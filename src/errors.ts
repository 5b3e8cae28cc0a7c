/**
 * The errors clients see: every error code with its HTTP status and whether a retry may succeed,
 * {@link ApiError}, which services, drivers and the core throw, and the contract's error envelope.
 * @module
 */

/** A stable machine-readable error code. */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_video_id'
  | 'invalid_playlist_id'
  | 'invalid_channel_id'
  | 'invalid_parameter'
  | 'invalid_cursor'
  | 'invalid_json'
  | 'invalid_webhook_url'
  | 'invalid_email'
  | 'disposable_email'
  | 'undeliverable_email'
  | 'invalid_signup_token'
  | 'invalid_code'
  | 'code_expired'
  | 'too_many_attempts'
  | 'missing_api_key'
  | 'invalid_api_key'
  | 'session_required'
  | 'insufficient_credits'
  | 'region_blocked'
  | 'age_restricted'
  | 'private_video'
  | 'members_only'
  | 'insufficient_scope'
  | 'csrf_rejected'
  | 'not_found'
  | 'captions_disabled'
  | 'comments_disabled'
  | 'language_not_found'
  | 'translation_unavailable'
  | 'video_unavailable'
  | 'playlist_not_found'
  | 'channel_not_found'
  | 'batch_not_found'
  | 'account_not_found'
  | 'key_not_found'
  | 'live_stream_not_ready'
  | 'method_not_allowed'
  | 'account_exists'
  | 'idempotency_conflict'
  | 'cancelled'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'rate_limited'
  | 'daily_limit_exceeded'
  | 'internal_error'
  | 'upstream_error'
  | 'email_failed'
  | 'upstream_blocked'
  | 'upstream_busy'
  | 'storage_unavailable'
  | 'agent_signup_busy'
  | 'agent_signup_disabled'
  | 'upstream_timeout';

/**
 * Every error tubescribe reports, with its HTTP status and whether a retry may succeed.
 * The codes are the contract's and decisions.md's: clients switch on `code`, never on `message`.
 */
export const ERROR_CODES: Readonly<Record<ErrorCode, { status: number; retryable: boolean }>> = {
  // 400
  invalid_request: { status: 400, retryable: false },
  invalid_video_id: { status: 400, retryable: false },
  invalid_playlist_id: { status: 400, retryable: false },
  invalid_channel_id: { status: 400, retryable: false },
  invalid_parameter: { status: 400, retryable: false },
  invalid_cursor: { status: 400, retryable: false },
  invalid_json: { status: 400, retryable: false },
  invalid_webhook_url: { status: 400, retryable: false },
  invalid_email: { status: 400, retryable: false },
  disposable_email: { status: 400, retryable: false },
  undeliverable_email: { status: 400, retryable: false },
  invalid_signup_token: { status: 400, retryable: false },
  invalid_code: { status: 400, retryable: false },
  code_expired: { status: 400, retryable: false },
  too_many_attempts: { status: 400, retryable: false },
  // 401
  missing_api_key: { status: 401, retryable: false },
  invalid_api_key: { status: 401, retryable: false },
  /** The dashboard: no live session (never signed in, signed out, or expired). */
  session_required: { status: 401, retryable: false },
  // 402
  insufficient_credits: { status: 402, retryable: false },
  // 403
  region_blocked: { status: 403, retryable: false },
  age_restricted: { status: 403, retryable: false },
  private_video: { status: 403, retryable: false },
  members_only: { status: 403, retryable: false },
  insufficient_scope: { status: 403, retryable: false },
  /** The dashboard: a form POST without the session's CSRF token or from another origin. */
  csrf_rejected: { status: 403, retryable: false },
  // 404
  not_found: { status: 404, retryable: false },
  captions_disabled: { status: 404, retryable: false },
  comments_disabled: { status: 404, retryable: false },
  language_not_found: { status: 404, retryable: false },
  translation_unavailable: { status: 404, retryable: false },
  video_unavailable: { status: 404, retryable: false },
  playlist_not_found: { status: 404, retryable: false },
  channel_not_found: { status: 404, retryable: false },
  batch_not_found: { status: 404, retryable: false },
  account_not_found: { status: 404, retryable: false },
  key_not_found: { status: 404, retryable: false },
  live_stream_not_ready: { status: 404, retryable: true },
  // 405, 409, 413, 415
  method_not_allowed: { status: 405, retryable: false },
  account_exists: { status: 409, retryable: false },
  idempotency_conflict: { status: 409, retryable: false },
  /** The error of a batch task that a cancel stopped before it ran (a task result, not a response). */
  cancelled: { status: 409, retryable: false },
  payload_too_large: { status: 413, retryable: false },
  unsupported_media_type: { status: 415, retryable: false },
  // 429
  rate_limited: { status: 429, retryable: true },
  daily_limit_exceeded: { status: 429, retryable: true },
  // 5xx
  internal_error: { status: 500, retryable: true },
  upstream_error: { status: 502, retryable: true },
  email_failed: { status: 502, retryable: true },
  upstream_blocked: { status: 503, retryable: true },
  /** tubescribe's own bound on concurrent YouTube work is full (free for the caller, Retry-After). */
  upstream_busy: { status: 503, retryable: true },
  storage_unavailable: { status: 503, retryable: true },
  agent_signup_busy: { status: 503, retryable: true },
  agent_signup_disabled: { status: 503, retryable: false },
  upstream_timeout: { status: 504, retryable: true },
};

/** Optional parts of an {@link ApiError}. */
export interface ApiErrorOptions {
  /** Structured extra data sent to the client as `error.details` (for example the available languages). */
  details?: Record<string, unknown>;
  /** Seconds the client should wait; sent as `Retry-After`. */
  retryAfter?: number;
  /** Overrides the code's default `retryable`. */
  retryable?: boolean;
  /** The underlying cause; logged, never sent to the client. */
  cause?: unknown;
  /** A 401's `WWW-Authenticate` challenge, where not the plain `Bearer` (a realm, say). */
  challenge?: string;
}

/**
 * The one error type services, drivers and the core throw for anything a client should see.
 * Its message is safe to show: it never holds upstream bodies or secrets.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details: Record<string, unknown> | undefined;
  readonly retryAfter: number | undefined;
  readonly challenge: string | undefined;

  constructor(code: ErrorCode, message: string, options: ApiErrorOptions = {}) {
    // A client's mistake (4xx) is an answer, not a fault: nothing reads its stack, and collecting
    // one was about a quarter of answering a 401 (V8 walks every frame). Faults (5xx) keep theirs.
    const known = ERROR_CODES[code];
    const stackTraceLimit = Error.stackTraceLimit;
    if (known.status < 500) Error.stackTraceLimit = 0;
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    Error.stackTraceLimit = stackTraceLimit;
    this.name = 'ApiError';
    this.challenge = options.challenge;
    this.code = code;
    this.status = known.status;
    this.retryable = options.retryable ?? known.retryable;
    this.details = options.details;
    this.retryAfter = options.retryAfter;
  }
}

/** The contract's error envelope. */
export interface ErrorEnvelope {
  error: { code: string; message: string; retryable: boolean; details?: Record<string, unknown> };
}

/** Builds the envelope for an error; anything that is not an {@link ApiError} becomes `internal_error`. */
export function toEnvelope(error: unknown): ErrorEnvelope {
  const e = error instanceof ApiError ? error : new ApiError('internal_error', 'Internal server error.');
  const body: ErrorEnvelope = { error: { code: e.code, message: e.message, retryable: e.retryable } };
  if (e.details !== undefined) body.error.details = e.details;
  return body;
}

/** True when `value` is an {@link ApiError} with the given code (or any code when omitted). */
export function isApiError(value: unknown, code?: ErrorCode): value is ApiError {
  return value instanceof ApiError && (code === undefined || value.code === code);
}
