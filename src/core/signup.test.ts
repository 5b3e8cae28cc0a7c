import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseEmail } from './email.ts';
import {
  type PendingSignup,
  precheckVerify,
  type SignupState,
  type SignupTransition,
  transition,
  type VerifyRequested,
} from './signup.ts';
import { resolveSignupSettings, SIGNUP_SETTINGS } from './signup-settings.ts';

const T0 = 1_700_000_000_000;
const TOKEN = 'sut_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const LIFETIME_MS = 600_000;

function pending(overrides: Partial<PendingSignup> = {}): PendingSignup {
  return {
    status: 'code_sent',
    token: TOKEN,
    email: 'Jane.Doe+x@example.com',
    domain: 'example.com',
    accountKey: 'jane.doe@example.com',
    grantKey: 'janedoe@example.com',
    codeMac: 'mac',
    createdAt: T0,
    expiresAt: T0 + LIFETIME_MS,
    wrongAttempts: 0,
    ...overrides,
  };
}

function verifyEvent(overrides: Partial<VerifyRequested> = {}): VerifyRequested {
  return {
    type: 'verify',
    token: TOKEN,
    attemptNumber: 1,
    now: T0 + 1000,
    codeCorrect: false,
    claimed: false,
    hasAccount: false,
    alreadyGranted: false,
    ...overrides,
  };
}

function errorCode(result: SignupTransition): string {
  return result.outcome.kind === 'error' ? result.outcome.error.code : result.outcome.kind;
}

describe('sign-up rows', () => {
  const email = parseEmail('Jane.Doe+x@Example.com');
  const event = { type: 'signup', email, token: TOKEN, codeMac: 'mac', now: T0 } as const;

  it('no pending sign-up → code_sent, code mailed, record stored', () => {
    const result = transition({ status: 'none' }, event);
    expect(result.state).toEqual(pending());
    expect(result.outcome).toEqual({
      kind: 'code_sent',
      status: 200,
      body: { status: 'code_sent', signup_token: TOKEN, expires_in: 600, next: expect.any(String) },
    });
    expect(result.effects).toEqual([
      { type: 'send_code', to: 'Jane.Doe+x@example.com', token: TOKEN, expiresAt: T0 + LIFETIME_MS },
      { type: 'store_pending', token: TOKEN, record: pending(), ttlMs: 1_800_000 },
    ]);
  });

  it('the body depends only on the token: identical for any address, account or not', () => {
    const a = transition({ status: 'none' }, event).outcome;
    const b = transition({ status: 'none' }, { ...event, email: parseEmail('someone@gmail.com') }).outcome;
    expect(b).toEqual(a);
  });

  it('a new sign-up for the same address replaces the previous code', () => {
    const old = pending({ token: 'sut_OLD', wrongAttempts: 2, codeMac: 'old-mac' });
    const result = transition(old, { ...event, now: T0 + 5000 });
    expect(result.state).toMatchObject({
      token: TOKEN,
      codeMac: 'mac',
      wrongAttempts: 0,
      createdAt: T0 + 5000,
    });
    expect(result.effects.map((e) => e.type)).toEqual(['send_code', 'store_pending', 'delete_pending']);
    expect(result.effects[2]).toEqual({
      type: 'delete_pending',
      token: 'sut_OLD',
      accountKey: old.accountKey,
    });
    const stale = transition(
      result.state,
      verifyEvent({ token: 'sut_OLD', codeCorrect: true, claimed: true }),
    );
    expect(errorCode(stale)).toBe('invalid_signup_token');
  });
});

describe('verify rows', () => {
  type Row = [string, SignupState, Partial<VerifyRequested>, string, number, string, string[]];
  const p = pending();
  const rows: Row[] = [
    ['unknown token', { status: 'none' }, {}, 'invalid_signup_token', 400, 'none', []],
    ['token of another sign-up', p, { token: 'sut_OTHER' }, 'invalid_signup_token', 400, 'code_sent', []],
    [
      'correct code, no account',
      p,
      { codeCorrect: true, claimed: true },
      'account_created',
      201,
      'none',
      ['create_account', 'grant_free_credits', 'delete_pending'],
    ],
    [
      'correct code, no account, grant key already granted',
      p,
      { codeCorrect: true, claimed: true, alreadyGranted: true },
      'account_created',
      201,
      'none',
      ['create_account', 'delete_pending'],
    ],
    [
      'correct code, account exists',
      p,
      { codeCorrect: true, claimed: true, hasAccount: true },
      'account_exists',
      409,
      'none',
      ['delete_pending'],
    ],
    [
      'correct code, claim lost',
      p,
      { codeCorrect: true, claimed: false },
      'invalid_signup_token',
      400,
      'none',
      [],
    ],
    ['1st wrong code', p, {}, 'invalid_code', 400, 'code_sent', []],
    [
      '2nd wrong code',
      pending({ wrongAttempts: 1 }),
      { attemptNumber: 2 },
      'invalid_code',
      400,
      'code_sent',
      [],
    ],
    ['2nd wrong code, stale state', p, { attemptNumber: 2 }, 'invalid_code', 400, 'code_sent', []],
    [
      '3rd wrong code',
      pending({ wrongAttempts: 2 }),
      { attemptNumber: 3 },
      'too_many_attempts',
      400,
      'none',
      ['delete_pending'],
    ],
    [
      '3rd wrong code, stale state',
      p,
      { attemptNumber: 3 },
      'too_many_attempts',
      400,
      'none',
      ['delete_pending'],
    ],
    [
      'attempt 4, correct code',
      p,
      { attemptNumber: 4, codeCorrect: true, claimed: true },
      'too_many_attempts',
      400,
      'none',
      ['delete_pending'],
    ],
    [
      'attempt 50, wrong code',
      p,
      { attemptNumber: 50 },
      'too_many_attempts',
      400,
      'none',
      ['delete_pending'],
    ],
    [
      'after expiry, correct code',
      p,
      { now: T0 + LIFETIME_MS, codeCorrect: true, claimed: true },
      'code_expired',
      400,
      'none',
      ['delete_pending'],
    ],
    [
      'after expiry, attempt 9',
      p,
      { now: T0 + LIFETIME_MS + 1, attemptNumber: 9 },
      'code_expired',
      400,
      'none',
      ['delete_pending'],
    ],
  ];
  it.each(rows)('%s → %s', (_name, state, overrides, outcome, status, next, effects) => {
    const result = transition(state, verifyEvent(overrides));
    expect(errorCode(result)).toBe(outcome);
    expect(result.outcome.status).toBe(status);
    expect(result.state.status).toBe(next);
    expect(result.effects.map((e) => e.type)).toEqual(effects);
    if (result.outcome.kind === 'error') expect(result.outcome.error.retryable).toBe(false);
  });

  it('creates the account with its keys and the free grant', () => {
    const result = transition(pending(), verifyEvent({ codeCorrect: true, claimed: true }));
    expect(result.outcome).toEqual({
      kind: 'account_created',
      status: 201,
      accountKey: 'jane.doe@example.com',
      email: 'Jane.Doe+x@example.com',
      freeCredits: 200,
    });
    expect(result.effects).toEqual([
      {
        type: 'create_account',
        accountKey: 'jane.doe@example.com',
        grantKey: 'janedoe@example.com',
        email: 'Jane.Doe+x@example.com',
      },
      {
        type: 'grant_free_credits',
        accountKey: 'jane.doe@example.com',
        grantKey: 'janedoe@example.com',
        domain: 'example.com',
        amount: 200,
        domainLimited: true,
      },
      { type: 'delete_pending', token: TOKEN, accountKey: 'jane.doe@example.com' },
    ]);
    const gmail = transition(
      pending({ domain: 'gmail.com', email: 'jane@gmail.com' }),
      verifyEvent({ codeCorrect: true, claimed: true }),
    );
    expect(gmail.effects[1]).toMatchObject({ type: 'grant_free_credits', domainLimited: false });
  });

  it('counts wrong codes and reports the attempts left', () => {
    const first = transition(pending(), verifyEvent());
    expect(first.state).toEqual(pending({ wrongAttempts: 1 }));
    // Nothing is written: the attempt number (the service's atomic counter) carries the count, and a
    // re-written record could bring back one that a concurrent sign-up or verify deleted.
    expect(first.effects).toEqual([]);
    expect(first.outcome.kind === 'error' && first.outcome.error.details).toEqual({ attempts_left: 2 });
    const second = transition(first.state, verifyEvent({ attemptNumber: 2, now: T0 + 2000 }));
    expect(second.state).toMatchObject({ wrongAttempts: 2 });
    expect(second.outcome.kind === 'error' && second.outcome.error.message).toMatch(/1 attempt left/);
    expect(errorCode(transition(second.state, verifyEvent({ attemptNumber: 3 })))).toBe('too_many_attempts');
  });

  it('expires exactly 600,000 ms after the sign-up', () => {
    const at = (now: number): string =>
      errorCode(transition(pending(), verifyEvent({ now, codeCorrect: true, claimed: true })));
    expect(at(T0)).toBe('account_created');
    expect(at(T0 + LIFETIME_MS - 1)).toBe('account_created');
    expect(at(T0 + LIFETIME_MS)).toBe('code_expired');
    expect(at(T0 + LIFETIME_MS + 1)).toBe('code_expired');
  });

  it('evaluates exactly 3 of 50 concurrent guesses on one token', () => {
    const snapshot = pending();
    const results = Array.from({ length: 50 }, (_, i) => {
      const gate = precheckVerify(snapshot, { token: TOKEN, attemptNumber: i + 1, now: T0 + 1000 });
      return gate ?? transition(snapshot, verifyEvent({ attemptNumber: i + 1 }));
    });
    const evaluated = Array.from({ length: 50 }, (_, i) =>
      precheckVerify(snapshot, { token: TOKEN, attemptNumber: i + 1, now: T0 + 1000 }),
    ).filter((gate) => gate === undefined);
    expect(evaluated).toHaveLength(3);
    expect(results.map(errorCode)).toEqual([
      'invalid_code',
      'invalid_code',
      ...Array(48).fill('too_many_attempts'),
    ]);
  });

  it('honours configured limits', () => {
    const settings = resolveSignupSettings({ maxWrongCodes: 5, lifetimeSeconds: 60, freeCredits: 0 });
    expect(errorCode(transition(pending(), verifyEvent({ attemptNumber: 4 }), settings))).toBe(
      'invalid_code',
    );
    expect(errorCode(transition(pending(), verifyEvent({ attemptNumber: 5 }), settings))).toBe(
      'too_many_attempts',
    );
    const ok = transition(pending(), verifyEvent({ codeCorrect: true, claimed: true }), settings);
    expect(ok.effects.map((e) => e.type)).toEqual(['create_account', 'delete_pending']);
    expect(ok.outcome).toMatchObject({ freeCredits: 0 });
  });
});

describe('laws over verify sequences', () => {
  const call = fc.record({
    codeCorrect: fc.boolean(),
    hasAccount: fc.boolean(),
    alreadyGranted: fc.boolean(),
    dt: fc.integer({ min: 0, max: 200_000 }),
  });
  // Each batch runs concurrently: every call reads the same snapshot, then all apply their effects.
  const batches = fc.array(fc.array(call, { minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 12 });

  it('at most one account outcome, at most 3 evaluations, none after a terminal outcome', () => {
    fc.assert(
      fc.property(batches, (plan) => {
        const store = new Map<string, PendingSignup>([[TOKEN, pending()]]);
        let attempts = 0;
        let claimedBy: number | undefined;
        let evaluations = 0;
        let accounts = 0;
        let now = T0;
        for (const batch of plan) {
          const snapshot: SignupState = store.get(TOKEN) ?? { status: 'none' };
          const results = batch.map((c) => {
            now += c.dt;
            attempts += 1;
            const base = { token: TOKEN, attemptNumber: attempts, now };
            const gate = precheckVerify(snapshot, base);
            if (gate !== undefined) return gate;
            evaluations += 1;
            const claimed = c.codeCorrect && claimedBy === undefined;
            if (claimed) claimedBy = attempts;
            return transition(snapshot, { type: 'verify', ...base, ...c, claimed });
          });
          for (const result of results) {
            const kind = errorCode(result);
            if (kind === 'account_created' || kind === 'account_exists') accounts += 1;
            if (kind !== 'invalid_code' && kind !== 'invalid_signup_token') {
              expect(result.state).toEqual({ status: 'none' });
            }
            for (const effect of result.effects) {
              if (effect.type === 'store_pending') store.set(effect.token, effect.record);
              if (effect.type === 'delete_pending') store.delete(effect.token);
            }
          }
        }
        expect(accounts).toBeLessThanOrEqual(1);
        expect(evaluations).toBeLessThanOrEqual(SIGNUP_SETTINGS.maxWrongCodes);
      }),
    );
  });

  it('sequentially, nothing follows a terminal outcome but invalid_signup_token', () => {
    fc.assert(
      fc.property(fc.array(call, { minLength: 1, maxLength: 10 }), (calls) => {
        let state: SignupState = pending();
        let finished = false;
        let now = T0;
        calls.forEach((c, i) => {
          now += c.dt;
          const result = transition(
            state,
            verifyEvent({ ...c, attemptNumber: i + 1, now, claimed: c.codeCorrect }),
          );
          if (finished) expect(errorCode(result)).toBe('invalid_signup_token');
          if (errorCode(result) !== 'invalid_code') finished = true;
          if (finished) expect(result.state).toEqual({ status: 'none' });
          state = result.state;
        });
      }),
    );
  });
});
