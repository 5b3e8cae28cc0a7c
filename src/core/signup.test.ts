import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Random } from '../ports/random.ts';
import { parseEmail } from './email.ts';
import {
  buildVerifyResponse,
  codeMac,
  codeMatches,
  generateCode,
  generateSignupToken,
  isWellFormedCode,
  isWellFormedSignupToken,
  type PendingSignup,
  precheckVerify,
  resolveSignupSettings,
  SIGNUP_SETTINGS,
  type SignupState,
  type SignupTransition,
  transition,
  type VerifyRequested,
} from './signup.ts';

/** A seeded xorshift32 source (tests only). */
function seeded(seed: number): Random {
  let x = seed | 0 || 1;
  return {
    bytes(length: number): Uint8Array {
      const out = new Uint8Array(length);
      for (let i = 0; i < length; i++) {
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        out[i] = x & 255;
      }
      return out;
    },
  };
}

/** A source that replays `bytes` and then repeats the last one. */
function scripted(bytes: number[]): Random {
  let i = 0;
  return {
    bytes: (length) => Uint8Array.from({ length }, () => bytes[Math.min(i++, bytes.length - 1)]!),
  };
}

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

describe('settings', () => {
  it('has the contract defaults and documented throttles', () => {
    expect(SIGNUP_SETTINGS).toMatchObject({
      codeLength: 6,
      lifetimeSeconds: 600,
      maxWrongCodes: 3,
      freeCredits: 200,
      requestsPerSecond: 1,
      requestsPerDay: 100,
    });
    expect(SIGNUP_SETTINGS.throttles.address).toEqual([{ limit: 5, window: 3600 }]);
    expect(SIGNUP_SETTINGS.throttles.network).toEqual([{ limit: 20, window: 3600 }]);
    expect(SIGNUP_SETTINGS.throttles.domainGrants).toEqual([{ limit: 3, window: 'utc-day' }]);
  });

  it('merges overrides, throttles included', () => {
    const s = resolveSignupSettings({ freeCredits: 50, throttles: { network: [{ limit: 2, window: 60 }] } });
    expect(s.freeCredits).toBe(50);
    expect(s.codeLength).toBe(6);
    expect(s.throttles.network).toEqual([{ limit: 2, window: 60 }]);
    expect(s.throttles.address).toEqual(SIGNUP_SETTINGS.throttles.address);
  });
});

describe('codes and tokens', () => {
  it('generates 6 digits, every digit in every position over 10,000 seeded draws', () => {
    const random = seeded(42);
    const seen = Array.from({ length: 6 }, () => new Set<string>());
    for (let i = 0; i < 10_000; i++) {
      const code = generateCode(random);
      expect(code).toMatch(/^[0-9]{6}$/);
      for (const [position, digit] of [...code].entries()) seen[position]!.add(digit);
    }
    for (const digits of seen) expect(digits.size).toBe(10);
  });

  it('rejects bytes ≥ 250 and keeps leading zeros', () => {
    expect(generateCode(scripted([250, 255, 0, 10, 249, 20, 30, 40, 5]))).toBe('009000');
    expect(generateCode(scripted([251, 7, 252, 1, 2, 3, 4, 5]), 4)).toBe('7123');
  });

  it('takes a length and refuses nonsense or a broken source', () => {
    expect(generateCode(seeded(7), 8)).toMatch(/^[0-9]{8}$/);
    expect(() => generateCode(seeded(7), 0)).toThrow(RangeError);
    expect(() => generateCode(scripted([255]))).toThrow(/unusable/);
  });

  it('checks code and token shapes', () => {
    expect(isWellFormedCode('012345')).toBe(true);
    expect(isWellFormedCode('12345')).toBe(false);
    expect(isWellFormedCode('12345a')).toBe(false);
    expect(isWellFormedCode(123456)).toBe(false);
    expect(isWellFormedCode('１２３４５６')).toBe(false);
    const token = generateSignupToken(seeded(1));
    expect(isWellFormedSignupToken(token)).toBe(true);
    expect(generateSignupToken(seeded(2))).not.toBe(token);
    expect(isWellFormedSignupToken(`${token}x`)).toBe(false);
    expect(isWellFormedSignupToken('sut_../../etc/passwd')).toBe(false);
  });

  it('stores codes only as a token-bound HMAC and compares it', async () => {
    const secret = new TextEncoder().encode('s3cret');
    const mac = await codeMac(secret, TOKEN, '012345');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(mac).not.toContain('012345');
    expect(await codeMac(secret, TOKEN, '012345')).toBe(mac);
    expect(await codeMac(secret, `${TOKEN}B`, '012345')).not.toBe(mac);
    expect(await codeMatches(secret, TOKEN, '012345', mac)).toBe(true);
    expect(await codeMatches(secret, TOKEN, '012346', mac)).toBe(false);
    expect(await codeMatches(secret, TOKEN, '012345', mac.slice(0, 63))).toBe(false);
    expect(await codeMatches(secret, TOKEN, '012345', `${mac}0`)).toBe(false);
    expect(await codeMatches(new TextEncoder().encode('other'), TOKEN, '012345', mac)).toBe(false);
  });
});

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
    ['1st wrong code', p, {}, 'invalid_code', 400, 'code_sent', ['store_pending']],
    [
      '2nd wrong code',
      pending({ wrongAttempts: 1 }),
      { attemptNumber: 2 },
      'invalid_code',
      400,
      'code_sent',
      ['store_pending'],
    ],
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
    expect(first.effects).toEqual([
      { type: 'store_pending', token: TOKEN, record: pending({ wrongAttempts: 1 }), ttlMs: 1_800_000 - 1000 },
    ]);
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

describe('buildVerifyResponse', () => {
  it('builds the contract body', () => {
    const body = buildVerifyResponse({
      apiKey: 'tsk_KEY',
      credits: 200,
      baseUrl: 'https://api.example.com/',
    });
    expect(body).toEqual({
      status: 'account_created',
      api_key: 'tsk_KEY',
      credits: 200,
      limits: { requests_per_second: 1, requests_per_day: 100 },
      next: expect.stringContaining('https://api.example.com/v1/'),
      example_request:
        'curl -H "Authorization: Bearer tsk_KEY" "https://api.example.com/v1/transcripts?video_id=jNQXAC9IVRw"',
      docs: 'https://api.example.com/docs',
      notes: expect.stringContaining('200 free credits'),
    });
    expect(body.notes).toMatch(/100 requests per UTC day/);
  });

  it('says so when no free credits were granted, and follows the settings', () => {
    const settings = resolveSignupSettings({
      requestsPerSecond: 2,
      requestsPerDay: 50,
      exampleVideoId: 'dQw4w9WgXcQ',
    });
    const body = buildVerifyResponse({ apiKey: 'k', credits: 0, baseUrl: 'http://127.0.0.1:8787' }, settings);
    expect(body.limits).toEqual({ requests_per_second: 2, requests_per_day: 50 });
    expect(body.notes).toMatch(/No free credits/);
    expect(body.example_request).toContain('http://127.0.0.1:8787/v1/transcripts?video_id=dQw4w9WgXcQ');
  });
});
