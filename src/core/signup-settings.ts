/**
 * Agent sign-up settings: code and token lifetimes, attempt limits, the free grant and the throttles.
 * @module
 */
import type { RateRule } from '../ports/ledger.ts';
import { MAJOR_PROVIDERS } from './email.ts';
import { checkNumbers } from './option-numbers.ts';
import { validateRule } from './plans.ts';

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
  // A video of the demo data set (fixtures/demo) that is also on YouTube.
  exampleVideoId: 'rCAS2eD-mcw',
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

/**
 * {@link SIGNUP_SETTINGS} with `overrides` applied; a number or throttle rule that cannot work
 * (a code of 0 digits, a lifetime of NaN seconds, fractional credits) throws a plain Error naming
 * the option, so it stops start-up instead of failing each sign-up.
 */
export function resolveSignupSettings(overrides: SignupOverrides = {}): SignupSettings {
  const { throttles, ...rest } = overrides;
  const settings = { ...SIGNUP_SETTINGS, ...rest, throttles: { ...SIGNUP_SETTINGS.throttles, ...throttles } };
  checkNumbers('signup.', settings, {
    codeLength: 'whole ≥ 1',
    lifetimeSeconds: '> 0',
    retentionSeconds: '≥ 0',
    maxWrongCodes: 'whole ≥ 1',
    freeCredits: 'whole ≥ 0',
    requestsPerSecond: '≥ 0',
    requestsPerDay: 'whole ≥ 0',
  });
  for (const [name, rules] of Object.entries(settings.throttles)) {
    const option = `The option signup.throttles.${name}`;
    if (!Array.isArray(rules) || rules.length === 0) throw new Error(`${option} needs at least one rule.`);
    for (const rule of rules) validateRule(option, rule);
  }
  return settings;
}
