/**
 * Agent sign-up as a pure state machine: the contract's "Agent sign-up flow" table, one state per
 * sign-up token. The service checks the address (valid, deliverable, not disposable) and the
 * throttles first, computes the atomic facts (attempt number, consume-once claim, existing
 * account) and then applies the effects returned here, in order.
 * @module
 */
import { ApiError, type ErrorCode } from '../errors.ts';
import { accountKey, grantKey, isMajorProvider, type ParsedEmail } from './email.ts';
import { SIGNUP_SETTINGS, type SignupSettings } from './signup-settings.ts';

/** A pending sign-up: a code was sent and may still be verified. JSON-serialisable. */
export interface PendingSignup {
  status: 'code_sent';
  token: string;
  /** The address as typed (domain lower-cased); the account's contact address. */
  email: string;
  domain: string;
  accountKey: string;
  grantKey: string;
  /** `codeMac` (signup-code.ts) of the code; the code itself is never stored. */
  codeMac: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms; the code is valid while `now < expiresAt`. */
  expiresAt: number;
  /**
   * Wrong codes so far, in the state this module returns; the stored record keeps 0 (a wrong code
   * writes nothing: the service's attempt counter is the authoritative count).
   */
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
 * `buildVerifyResponse` (signup-response.ts) makes once the effects ran and the key exists); or an
 * error to throw.
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
    // Only the first `maxWrongCodes` attempts are ever evaluated, wrong or not.
    return fail(NONE, 'too_many_attempts', `Too many attempts for this code. ${AGAIN}`, [deleted(state)]);
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
  const left = settings.maxWrongCodes - wrong;
  // No `store_pending`: the attempt number (an atomic Ledger counter) already counts this wrong
  // code, and re-writing the record would be a read-modify-write that can bring back a record a
  // concurrent call deleted (a sign-up that replaced this token, or the 3rd wrong code).
  return fail(next, 'invalid_code', `The code is wrong; ${left} attempt${left === 1 ? '' : 's'} left.`, [], {
    attempts_left: left,
  });
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
 * - wrong code → `code_sent` with one more wrong attempt, `invalid_code` (with `attempts_left`,
 *   counted from the attempt number; no effect); the `maxWrongCodes`-th wrong code → none,
 *   `too_many_attempts`.
 */
export function transition(
  state: SignupState,
  event: SignupEvent,
  settings: SignupSettings = SIGNUP_SETTINGS,
): SignupTransition {
  return event.type === 'signup' ? signup(state, event, settings) : verify(state, event, settings);
}
