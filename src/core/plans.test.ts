import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RateRule } from '../ports/ledger.ts';
import {
  DEFAULT_PLAN_ASSIGNMENT,
  DEFAULT_PLANS,
  hasPlan,
  isDailyRule,
  MAX_WINDOW_SECONDS,
  planOf,
  requestsPerDay,
  requestsPerSecond,
  resolvePlans,
  windowSeconds,
} from './plans.ts';

const plan = (...rules: RateRule[]) => ({ name: 'x', rules });

describe('default plans', () => {
  it('free is 1 per second and 100 per UTC day', () => {
    expect(planOf(DEFAULT_PLANS, 'free').rules).toEqual([
      { limit: 1, window: 1 },
      { limit: 100, window: 'utc-day' },
    ]);
  });

  it('paid is 300 per minute with bursts of 10', () => {
    expect(planOf(DEFAULT_PLANS, 'paid').rules).toEqual([
      { limit: 300, window: 60 },
      { limit: 10, window: 1 },
    ]);
  });

  it('assigns new accounts to free and pack buyers to paid', () => {
    expect(DEFAULT_PLAN_ASSIGNMENT).toEqual({ initial: 'free', afterPack: 'paid' });
    expect(hasPlan(DEFAULT_PLANS, DEFAULT_PLAN_ASSIGNMENT.initial)).toBe(true);
    expect(hasPlan(DEFAULT_PLANS, DEFAULT_PLAN_ASSIGNMENT.afterPack)).toBe(true);
  });

  it('is frozen all the way down', () => {
    const free = planOf(DEFAULT_PLANS, 'free');
    expect(Object.isFrozen(DEFAULT_PLANS)).toBe(true);
    expect(Object.isFrozen(free.rules)).toBe(true);
    expect(Object.isFrozen(free.rules[0])).toBe(true);
  });
});

describe('planOf', () => {
  it.each(['pro', 'toString', '__proto__', ''])('rejects unknown plan %j naming the known plans', (name) => {
    expect(() => planOf(DEFAULT_PLANS, name)).toThrow(/Unknown plan .*; known plans: free, paid\./);
  });
});

describe('resolvePlans', () => {
  it('keeps the defaults, adds plans and replaces rules', () => {
    const plans = resolvePlans({
      pro: [{ limit: 600, window: 60 }],
      free: [{ limit: 2, window: 1 }],
    });
    expect(Object.keys(plans).sort()).toEqual(['free', 'paid', 'pro']);
    expect(planOf(plans, 'pro')).toEqual({ name: 'pro', rules: [{ limit: 600, window: 60 }] });
    expect(planOf(plans, 'free').rules).toEqual([{ limit: 2, window: 1 }]);
    expect(planOf(DEFAULT_PLANS, 'free').rules).toHaveLength(2);
  });

  it.each<[string, unknown, RegExp]>([
    ['Pro Plan', [{ limit: 1, window: 1 }], /Invalid plan name/],
    ['pro', [], /needs at least one rule/],
    ['pro', 'fast', /needs at least one rule/],
    ['pro', [{ limit: 0, window: 1 }], /limit must be a positive whole number, got 0/],
    ['pro', [{ limit: 1.5, window: 1 }], /limit must be a positive whole number/],
    ['pro', [{ limit: '5', window: 1 }], /limit must be a positive whole number/],
    ['pro', [{ window: 1 }], /limit must be a positive whole number/],
    ['pro', [null], /limit must be a positive whole number/],
    ['pro', [{ limit: 5, window: 0 }], /window must be a whole number of seconds/],
    ['pro', [{ limit: 5, window: 0.5 }], /window must be a whole number of seconds/],
    ['pro', [{ limit: 5, window: 'day' }], /or "utc-day"; got "day"/],
    ['pro', [{ limit: 5, window: MAX_WINDOW_SECONDS + 1 }], /from 1 to 31622400/],
  ])('rejects %j: %j', (name, rules, message) => {
    expect(() => resolvePlans({ [name]: rules as RateRule[] })).toThrow(message);
  });
});

describe('windows', () => {
  it.each<[RateRule, number, boolean]>([
    [{ limit: 1, window: 1 }, 1, false],
    [{ limit: 1, window: 3600 }, 3600, false],
    [{ limit: 1, window: 86_399 }, 86_399, false],
    [{ limit: 1, window: 86_400 }, 86_400, true],
    [{ limit: 1, window: 'utc-day' }, 86_400, true],
    [{ limit: 1, window: 604_800 }, 604_800, true],
  ])('%j lasts %i s, daily=%s', (rule, seconds, daily) => {
    expect(windowSeconds(rule)).toBe(seconds);
    expect(isDailyRule(rule)).toBe(daily);
  });
});

describe('requestsPerSecond', () => {
  it.each<[string, RateRule[], number]>([
    ['free', planOf(DEFAULT_PLANS, 'free').rules, 1],
    ['paid', planOf(DEFAULT_PLANS, 'paid').rules, 5],
    [
      'statement A free (30/min, burst 2)',
      [
        { limit: 30, window: 60 },
        { limit: 2, window: 1 },
      ],
      0.5,
    ],
    ['600 per minute', [{ limit: 600, window: 60 }], 10],
    ['100 per minute (1.67/s floored)', [{ limit: 100, window: 60 }], 1],
    ['1 per hour', [{ limit: 1, window: 3600 }], 0.01],
    ['7 per 3 s', [{ limit: 7, window: 3 }], 2],
    ['daily only', [{ limit: 100, window: 'utc-day' }], 0.01],
    ['daily only, large', [{ limit: 864_000, window: 'utc-day' }], 10],
    ['none', [], 0],
  ])('%s → %d', (_name, rules, rps) => {
    expect(requestsPerSecond({ rules })).toBe(rps);
  });

  it('never exceeds the true rate of any sub-daily rule and is never 0 with rules', () => {
    const rule = fc.record({
      limit: fc.integer({ min: 1, max: 100_000 }),
      window: fc.integer({ min: 1, max: 86_399 }),
    });
    fc.assert(
      fc.property(fc.array(rule, { minLength: 1, maxLength: 4 }), (rules) => {
        const rps = requestsPerSecond(plan(...rules));
        expect(rps).toBeGreaterThan(0);
        const tightest = Math.min(...rules.map((r) => r.limit / r.window));
        if (tightest >= 0.01) expect(rps).toBeLessThanOrEqual(tightest);
      }),
    );
  });
});

describe('requestsPerDay', () => {
  it.each<[string, RateRule[], number | null]>([
    ['free', planOf(DEFAULT_PLANS, 'free').rules, 100],
    ['paid', planOf(DEFAULT_PLANS, 'paid').rules, null],
    ['86400-second window', [{ limit: 50, window: 86_400 }], 50],
    [
      'two daily rules',
      [
        { limit: 50, window: 86_400 },
        { limit: 40, window: 'utc-day' },
      ],
      40,
    ],
    ['weekly only', [{ limit: 500, window: 604_800 }], null],
  ])('%s → %s', (_name, rules, perDay) => {
    expect(requestsPerDay({ rules })).toBe(perDay);
  });
});
