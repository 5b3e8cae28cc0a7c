import { ApiError, type ErrorCode } from '../errors.ts';
import type { RateRule } from '../ports/ledger.ts';
import type { Random } from '../ports/random.ts';
import { newId } from './api-keys.ts';
import { accountKey, grantKey, isMajorProvider, MAJOR_PROVIDERS, type ParsedEmail } from './email.ts';

/**
 * Agent sign-up as a pure state machine: the contract's "Agent sign-up flow" table, one state per
 * sign-up token. The service checks the address (valid, deliverable, not disposable) and the
 * throttles first, computes the atomic facts (attempt number, consume-once claim, existing
 * account) and then applies the effects returned here, in order.
 */

/** Throttles of the sign-up service, as Ledger rate rules. */
export interface SignupThrottles {
  /** Sign-ups per grant key (default 5 per hour). */
  address: readonly RateRule[];
  /** Sign-ups per client network, see `clientNetwork` (default 20 per hour). */
  network: readonly RateRule[];
  /** Verify calls per client network (default 60 per hour). */
  verifyNetwork: readonly RateRule[];
  /** Free-credit grants per email domain outside the major providers (default 3 per UTC day). */
  domainGrants: readonly RateRule[];
}

/** Every sign-up limit; see {@link SIGNUP_SETTINGS} for the defaults. */
export interface SignupSettings {
  /** Digits per code. */
  codeLength: number;
  /** Lifetime of a token and its code, in seconds (the response's `expires_in`). */
  lifetimeSeconds: number;
  /** How long a pending record is kept, so a late verify gets `code_expired` (≥ lifetime). */
  retentionSeconds: number;
  /** Wrong codes that end a sign-up; also the number of codes ever evaluated per token. */
  maxWrongCodes: number;
  /** Credits granted once per grant key. */
  freeCredits: number;
  /** The free plan's limits, reported in the verify response. */
  requestsPerSecond: number;
  requestsPerDay: number;
  /** Where the verify endpoint lives, named in the sign-up response's `next`. */
  verifyUrl: string;
  /** A video for the verify response's `example_request`. */
  exampleVideoId: string;
  /** Domains exempt from the per-domain grant cap (patterns as in `isMajorProvider`). */
  majorProviders: readonly string[];
  throttles: SignupThrottles;
}

/** The defaults: the contract's 6 digits, 600 s, 3 wrong codes, 200 credits, 1/s and 100/day. */
export const SIGNUP_SETTINGS: SignupSettings = {
  codeLength: 6,
  lifetimeSeconds: 600,
  retentionSeconds: 1800,
  maxWrongCodes: 3,
  freeCredits: 200,
  requestsPerSecond: 1,
  requestsPerDay: 100,
  verifyUrl: '/api/agent/verify',
  exampleVideoId: 'jNQXAC9IVRw',
  majorProviders: MAJOR_PROVIDERS,
  throttles: {
    address: [{ limit: 5, window: 3600 }],
    network: [{ limit: 20, window: 3600 }],
    verifyNetwork: [{ limit: 60, window: 3600 }],
    domainGrants: [{ limit: 3, window: 'utc-day' }],
  },
};

/** Overrides for {@link resolveSignupSettings}; `throttles` may be partial too. */
export type SignupOverrides = Partial<Omit<SignupSettings, 'throttles'>> & {
  throttles?: Partial<SignupThrottles>;
};

/** {@link SIGNUP_SETTINGS} with `overrides` applied. */
export function resolveSignupSettings(overrides: SignupOverrides = {}): SignupSettings {
  const { throttles, ...rest } = overrides;
  return { ...SIGNUP_SETTINGS, ...rest, throttles: { ...SIGNUP_SETTINGS.throttles, ...throttles } };
}

/**
 * A uniformly random code of `length` decimal digits (leading zeros kept). Bytes ≥ 250 are
 * rejected so that `byte % 10` is unbiased.
 */
export function generateCode(random: Random, length = 6): string {
  if (!Number.isInteger(length) || length < 1) throw new RangeError('code length must be a positive integer');
  let code = '';
  for (let round = 0; code.length < length; round++) {
    if (round >= 64) throw new Error('Random source keeps returning unusable bytes');
    for (const byte of random.bytes(length - code.length + 2)) {
      if (byte < 250 && code.length < length) code += String(byte % 10);
    }
  }
  return code;
}

/** True when `code` is exactly `length` ASCII digits (the verify body's shape check). */
export function isWellFormedCode(code: unknown, length = 6): boolean {
  return typeof code === 'string' && code.length === length && /^[0-9]+$/.test(code);
}

/** A new sign-up token: `sut_` + 32 base62 characters (≈ 190 bits). */
export function generateSignupToken(random: Random): string {
  return newId('sut', random, 32);
}

/** True when `token` has the shape of {@link generateSignupToken}'s output (checked before any lookup). */
export function isWellFormedSignupToken(token: unknown): boolean {
  return typeof token === 'string' && /^sut_[0-9A-Za-z]{32}$/.test(token);
}

/**
 * The stored form of a code: lower-case hex HMAC-SHA256 under `secret` of the token and the
 * code, so a stored MAC is useless for any other token and the code itself is never stored.
 */
export async function codeMac(secret: Uint8Array, token: string, code: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const data = new TextEncoder().encode(`tubescribe/signup-code\n${token}\n${code}`);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, data));
  let hex = '';
  for (const byte of mac) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** True when `code` is the code whose {@link codeMac} is `mac`; compares in constant time. */
export async function codeMatches(
  secret: Uint8Array,
  token: string,
  code: string,
  mac: string,
): Promise<boolean> {
  const expected = await codeMac(secret, token, code);
  let diff = expected.length ^ mac.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (mac.charCodeAt(i) | 0);
  return diff === 0;
}

/** A pending sign-up: a code was sent and may still be verified. JSON-serialisable. */
export interface PendingSignup {
  status: 'code_sent';
  token: string;
  /** The address as typed (domain lower-cased); the account's contact address. */
  email: string;
  domain: string;
  accountKey: string;
  grantKey: string;
  /** {@link codeMac} of the code; the code itself is never stored. */
  codeMac: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms; the code is valid while `now < expiresAt`. */
  expiresAt: number;
  /** Wrong codes so far. */
  wrongAttempts: number;
}

/** The state of one sign-up token. */
export type SignupState = { status: 'none' } | PendingSignup;

/** POST sign-up for an address that passed every check; `codeMac` is the MAC of a fresh code. */
export interface SignupRequested {
  type: 'signup';
  email: ParsedEmail;
  token: string;
  codeMac: string;
  now: number;
}

/** POST verify; see {@link precheckVerify} for when the code-dependent fields are read. */
export interface VerifyRequested {
  type: 'verify';
  token: string;
  /** From an atomic per-token counter: 1 for the first verify call of the token. */
  attemptNumber: number;
  now: number;
  /** The code matches the stored MAC. */
  codeCorrect: boolean;
  /** This call won the token's consume-once claim (taken only when the code is correct). */
  claimed: boolean;
  /** An account exists for the pending address's account key. */
  hasAccount: boolean;
  /** The pending address's grant key already received its free credits. */
  alreadyGranted: boolean;
}

/** What can happen to a sign-up token. */
export type SignupEvent = SignupRequested | VerifyRequested;

/**
 * Work for the service, in the order given; a failing effect stops the rest (a failed
 * `send_code` therefore changes no state and becomes `email_failed`).
 * - `send_code`: mail the code the service generated (never part of any effect or state) to `to`.
 * - `store_pending` / `delete_pending`: write or remove the token's record (and the service's
 *   account-key → token index, which lets a new sign-up find and replace the previous one).
 * - `grant_free_credits`: when `domainLimited`, first count a hit against the domain's
 *   `throttles.domainGrants` and skip the grant when refused; grant with idempotency key per grant key.
 */
export type SignupEffect =
  | { type: 'send_code'; to: string; token: string; expiresAt: number }
  | { type: 'store_pending'; token: string; record: PendingSignup; ttlMs: number }
  | { type: 'delete_pending'; token: string; accountKey: string }
  | { type: 'create_account'; accountKey: string; grantKey: string; email: string }
  | {
      type: 'grant_free_credits';
      accountKey: string;
      grantKey: string;
      domain: string;
      amount: number;
      domainLimited: boolean;
    };

/** The sign-up response body (HTTP 200). */
export interface SignupResponse {
  status: 'code_sent';
  signup_token: string;
  expires_in: number;
  next: string;
}

/**
 * What the caller answers: the sign-up body; `account_created` (HTTP 201, whose body
 * {@link buildVerifyResponse} makes once the effects ran and the key exists); or an error to throw.
 */
export type SignupOutcome =
  | { kind: 'code_sent'; status: 200; body: SignupResponse }
  | { kind: 'account_created'; status: 201; accountKey: string; email: string; freeCredits: number }
  | { kind: 'error'; status: number; error: ApiError };

/** The result of {@link transition}. */
export interface SignupTransition {
  state: SignupState;
  effects: SignupEffect[];
  outcome: SignupOutcome;
}

const NONE: SignupState = { status: 'none' };
const AGAIN = 'Sign up again to get a new code.';

function fail(
  state: SignupState,
  code: ErrorCode,
  message: string,
  effects: SignupEffect[] = [],
  details?: Record<string, unknown>,
): SignupTransition {
  const error = new ApiError(code, message, details === undefined ? {} : { details });
  return { state, effects, outcome: { kind: 'error', status: error.status, error } };
}

function deleted(pending: PendingSignup): SignupEffect {
  return { type: 'delete_pending', token: pending.token, accountKey: pending.accountKey };
}

/** The pending record when the code must be evaluated, else the transition that ends the call. */
function gate(
  state: SignupState,
  event: Pick<VerifyRequested, 'token' | 'attemptNumber' | 'now'>,
  settings: SignupSettings,
): PendingSignup | SignupTransition {
  if (state.status === 'none' || state.token !== event.token) {
    return fail(state, 'invalid_signup_token', `The sign-up token is unknown, used or expired. ${AGAIN}`);
  }
  if (event.now >= state.expiresAt) {
    const minutes = settings.lifetimeSeconds / 60;
    return fail(
      NONE,
      'code_expired',
      `The code has expired (codes are valid for ${minutes} minutes). ${AGAIN}`,
      [deleted(state)],
    );
  }
  if (event.attemptNumber > settings.maxWrongCodes) {
    return fail(NONE, 'too_many_attempts', `Too many wrong codes. ${AGAIN}`, [deleted(state)]);
  }
  return state;
}

/**
 * The verify rows that must not look at the code: unknown (or replaced) token, expiry, and any
 * attempt numbered above `maxWrongCodes`. Returns their transition, or `undefined` when the code
 * must be evaluated; the service calls this first so that at most `maxWrongCodes` calls per token
 * ever compute a MAC or take the claim, however many arrive at once.
 */
export function precheckVerify(
  state: SignupState,
  event: Pick<VerifyRequested, 'token' | 'attemptNumber' | 'now'>,
  settings: SignupSettings = SIGNUP_SETTINGS,
): SignupTransition | undefined {
  const result = gate(state, event, settings);
  return 'effects' in result ? result : undefined;
}

function signup(state: SignupState, event: SignupRequested, settings: SignupSettings): SignupTransition {
  const address = event.email.address;
  const lifetimeMs = settings.lifetimeSeconds * 1000;
  const record: PendingSignup = {
    status: 'code_sent',
    token: event.token,
    email: address,
    domain: event.email.domain,
    accountKey: accountKey(address),
    grantKey: grantKey(address),
    codeMac: event.codeMac,
    createdAt: event.now,
    expiresAt: event.now + lifetimeMs,
    wrongAttempts: 0,
  };
  const ttlMs = Math.max(settings.retentionSeconds * 1000, lifetimeMs);
  const effects: SignupEffect[] = [
    { type: 'send_code', to: address, token: event.token, expiresAt: record.expiresAt },
    { type: 'store_pending', token: event.token, record, ttlMs },
  ];
  if (state.status === 'code_sent' && state.token !== event.token) effects.push(deleted(state));
  const body: SignupResponse = {
    status: 'code_sent',
    signup_token: event.token,
    expires_in: settings.lifetimeSeconds,
    next:
      `Ask the user for the ${settings.codeLength}-digit code just emailed to them, then POST ` +
      `{"signup_token": "<signup_token>", "code": "<code>"} to ${settings.verifyUrl} within ` +
      `${settings.lifetimeSeconds} seconds. A new sign-up replaces this code.`,
  };
  return { state: record, effects, outcome: { kind: 'code_sent', status: 200, body } };
}

function verify(current: SignupState, event: VerifyRequested, settings: SignupSettings): SignupTransition {
  const state = gate(current, event, settings);
  if ('effects' in state) return state;
  if (event.codeCorrect && !event.claimed) {
    return fail(NONE, 'invalid_signup_token', `This sign-up was already completed. ${AGAIN}`);
  }
  if (event.codeCorrect && event.hasAccount) {
    return fail(NONE, 'account_exists', 'This email address already has an account; no key was created.', [
      deleted(state),
    ]);
  }
  if (event.codeCorrect) {
    const { accountKey: account, grantKey: grant, email, domain } = state;
    const effects: SignupEffect[] = [{ type: 'create_account', accountKey: account, grantKey: grant, email }];
    if (!event.alreadyGranted && settings.freeCredits > 0) {
      const domainLimited = !isMajorProvider(domain, settings.majorProviders);
      effects.push({
        type: 'grant_free_credits',
        accountKey: account,
        grantKey: grant,
        domain,
        amount: settings.freeCredits,
        domainLimited,
      });
    }
    effects.push(deleted(state));
    const freeCredits = event.alreadyGranted ? 0 : settings.freeCredits;
    return {
      state: NONE,
      effects,
      outcome: { kind: 'account_created', status: 201, accountKey: account, email, freeCredits },
    };
  }
  const wrong = Math.max(state.wrongAttempts + 1, event.attemptNumber);
  if (wrong >= settings.maxWrongCodes) {
    return fail(NONE, 'too_many_attempts', `Too many wrong codes. ${AGAIN}`, [deleted(state)]);
  }
  const next: PendingSignup = { ...state, wrongAttempts: wrong };
  const ttlMs = Math.max(1, state.createdAt + settings.retentionSeconds * 1000 - event.now);
  const left = settings.maxWrongCodes - wrong;
  return fail(
    next,
    'invalid_code',
    `The code is wrong; ${left} attempt${left === 1 ? '' : 's'} left.`,
    [{ type: 'store_pending', token: state.token, record: next, ttlMs }],
    { attempts_left: left },
  );
}

/**
 * The contract's sign-up state table as a pure function (see the module comment). Rows:
 * - any state + sign-up → `code_sent` with a new token and code (a pending code for the same
 *   address is replaced); the body is identical whether or not the address has an account.
 * - verify, unknown or replaced token → `invalid_signup_token`; at or after `expiresAt` → none,
 *   `code_expired`; attempt number > `maxWrongCodes` → none, `too_many_attempts` (code not evaluated).
 * - correct code, claim lost → none, `invalid_signup_token` (another call completed it).
 * - correct code, account exists → none, 409 `account_exists`, no key.
 * - correct code, no account → none, 201 `account_created`, create the account and grant the free
 *   credits unless the grant key already had them.
 * - wrong code → `code_sent` with one more wrong attempt, `invalid_code` (with `attempts_left`);
 *   the `maxWrongCodes`-th wrong code → none, `too_many_attempts`.
 */
export function transition(
  state: SignupState,
  event: SignupEvent,
  settings: SignupSettings = SIGNUP_SETTINGS,
): SignupTransition {
  return event.type === 'signup' ? signup(state, event, settings) : verify(state, event, settings);
}

/** The verify response body (HTTP 201). */
export interface VerifyResponse {
  status: 'account_created';
  api_key: string;
  credits: number;
  limits: { requests_per_second: number; requests_per_day: number };
  next: string;
  example_request: string;
  docs: string;
  notes: string;
}

/**
 * Builds the verify response. `credits` is the account's balance after the effects ran (the free
 * grant may have been skipped); `baseUrl` is the data API's origin (a trailing `/` is dropped).
 */
export function buildVerifyResponse(
  input: { apiKey: string; credits: number; baseUrl: string },
  settings: SignupSettings = SIGNUP_SETTINGS,
): VerifyResponse {
  const base = input.baseUrl.replace(/\/+$/, '');
  const perSecond = settings.requestsPerSecond;
  const perDay = settings.requestsPerDay;
  const grant =
    input.credits > 0
      ? `The account starts with ${input.credits} free credits.`
      : "No free credits were granted: this address (or a +tag or dotted variant) already received them, or its domain used up today's free grants.";
  return {
    status: 'account_created',
    api_key: input.apiKey,
    credits: input.credits,
    limits: { requests_per_second: perSecond, requests_per_day: perDay },
    next: `Store api_key server-side and send it as "Authorization: Bearer <api_key>" (or "X-API-Key") on every request to ${base}/v1/.`,
    example_request: `curl -H "Authorization: Bearer ${input.apiKey}" "${base}/v1/transcripts?video_id=${settings.exampleVideoId}"`,
    docs: `${base}/docs`,
    notes:
      `${grant} The key is shown only once and must not be exposed in client code. ` +
      `Until a credit pack is bought the key is limited to ${perSecond} request(s) per second and ` +
      `${perDay} requests per UTC day; any credit pack removes the daily limit.`,
  };
}
