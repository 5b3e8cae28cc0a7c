import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import type { RateDecision, RateRule } from '../ports/ledger.ts';
import { DEFAULT_PLANS, planOf, windowSeconds } from './plans.ts';
import {
  evaluateHit,
  nextUtcMidnight,
  rateLimitApiError,
  rateLimitError,
  rateLimitHeaders,
  retryAt,
  windowKey,
  windowOf,
} from './ratelimit.ts';
import { retryAfterSeconds } from './retry-after.ts';

const FREE = planOf(DEFAULT_PLANS, 'free').rules;
const PAID = planOf(DEFAULT_PLANS, 'paid').rules;
const utc = (iso: string): number => Date.parse(iso);
const DAY: RateRule = { limit: 100, window: 'utc-day' };

/** The in-memory ledger's algorithm in miniature: read counts by key, decide, count all or none. */
function miniLedger() {
  const counters = new Map<string, number>();
  return (bucket: string, rules: readonly RateRule[], now: number): RateDecision => {
    const keys = rules.map((rule, i) => windowKey(bucket, i, rule, now));
    const decision = evaluateHit(
      keys.map((key) => counters.get(key)),
      rules,
      now,
    );
    if (decision.allowed) for (const key of keys) counters.set(key, (counters.get(key) ?? 0) + 1);
    return decision;
  };
}

describe('windowOf', () => {
  it.each<[string, RateRule, string, string, string]>([
    [
      '1 s, mid-second',
      { limit: 1, window: 1 },
      '2024-05-05T10:00:00.500Z',
      '2024-05-05T10:00:00.000Z',
      '2024-05-05T10:00:01.000Z',
    ],
    [
      '1 s, last ms',
      { limit: 1, window: 1 },
      '2024-05-05T10:00:00.999Z',
      '2024-05-05T10:00:00.000Z',
      '2024-05-05T10:00:01.000Z',
    ],
    [
      '1 s, boundary',
      { limit: 1, window: 1 },
      '2024-05-05T10:00:01.000Z',
      '2024-05-05T10:00:01.000Z',
      '2024-05-05T10:00:02.000Z',
    ],
    [
      '60 s, last ms',
      { limit: 1, window: 60 },
      '2024-01-01T00:00:59.999Z',
      '2024-01-01T00:00:00.000Z',
      '2024-01-01T00:01:00.000Z',
    ],
    [
      '60 s, boundary',
      { limit: 1, window: 60 },
      '2024-01-01T00:01:00.000Z',
      '2024-01-01T00:01:00.000Z',
      '2024-01-01T00:02:00.000Z',
    ],
    [
      'utc-day, last ms',
      DAY,
      '2023-12-31T23:59:59.999Z',
      '2023-12-31T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
    ],
    [
      'utc-day, midnight',
      DAY,
      '2024-01-01T00:00:00.000Z',
      '2024-01-01T00:00:00.000Z',
      '2024-01-02T00:00:00.000Z',
    ],
    [
      'utc-day, leap day',
      DAY,
      '2024-02-29T12:00:00.000Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ],
    [
      'utc-day, end of leap day',
      DAY,
      '2024-02-29T23:59:59.999Z',
      '2024-02-29T00:00:00.000Z',
      '2024-03-01T00:00:00.000Z',
    ],
    [
      'utc-day, 28 Feb 2023',
      DAY,
      '2023-02-28T23:59:59.999Z',
      '2023-02-28T00:00:00.000Z',
      '2023-03-01T00:00:00.000Z',
    ],
    [
      'utc-day, 2000 (leap)',
      DAY,
      '2000-02-28T23:00:00.000Z',
      '2000-02-28T00:00:00.000Z',
      '2000-02-29T00:00:00.000Z',
    ],
    [
      'utc-day, 2100 (no leap)',
      DAY,
      '2100-02-28T23:00:00.000Z',
      '2100-02-28T00:00:00.000Z',
      '2100-03-01T00:00:00.000Z',
    ],
    [
      'utc-day, epoch',
      DAY,
      '1970-01-01T00:00:00.000Z',
      '1970-01-01T00:00:00.000Z',
      '1970-01-02T00:00:00.000Z',
    ],
  ])('%s', (_name, rule, now, start, end) => {
    expect(windowOf(rule, utc(now))).toEqual({ start: utc(start), end: utc(end) });
  });

  it('holds now, has the rule length, and a 86,400 s window is the UTC day', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        (now, w) => {
          const { start, end } = windowOf({ limit: 1, window: w }, now);
          expect(start).toBeLessThanOrEqual(now);
          expect(end).toBeGreaterThan(now);
          expect(end - start).toBe(w * 1000);
          expect(start % (w * 1000)).toBe(0);
          expect(windowOf({ limit: 1, window: 86_400 }, now)).toEqual(windowOf(DAY, now));
        },
      ),
    );
  });
});

describe('nextUtcMidnight', () => {
  it.each([
    ['2024-02-28T23:59:59.999Z', '2024-02-29T00:00:00.000Z'],
    ['2024-02-29T00:00:00.000Z', '2024-03-01T00:00:00.000Z'],
    ['2024-12-31T23:59:59.999Z', '2025-01-01T00:00:00.000Z'],
    ['2024-06-15T13:14:15.161Z', '2024-06-16T00:00:00.000Z'],
  ])('%s → %s', (now, midnight) => {
    expect(nextUtcMidnight(utc(now))).toBe(utc(midnight));
  });

  it('is the next calendar day at 00:00 UTC', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_102_444_800_000 }), (now) => {
        const d = new Date(now);
        expect(nextUtcMidnight(now)).toBe(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + 1));
      }),
    );
  });
});

describe('windowKey', () => {
  it.each<[RateRule, number, string, string]>([
    [{ limit: 1, window: 1 }, 0, '2024-01-01T00:00:00.999Z', 'rl:k1:0:1:1704067200000'],
    [{ limit: 300, window: 60 }, 1, '2024-01-01T00:00:59.999Z', 'rl:k1:1:60:1704067200000'],
    [DAY, 1, '2024-01-01T23:59:59.999Z', 'rl:k1:1:d:1704067200000'],
    [DAY, 1, '2024-01-02T00:00:00.000Z', 'rl:k1:1:d:1704153600000'],
  ])('%j #%i at %s → %s', (rule, index, now, key) => {
    expect(windowKey('k1', index, rule, utc(now))).toBe(key);
  });

  it('changes with the window length but not with the limit', () => {
    const now = utc('2024-01-01T00:00:30.000Z');
    expect(windowKey('b', 0, { limit: 5, window: 60 }, now)).toBe(
      windowKey('b', 0, { limit: 9, window: 60 }, now),
    );
    expect(windowKey('b', 0, { limit: 5, window: 60 }, now)).not.toBe(
      windowKey('b', 0, { limit: 5, window: 30 }, now),
    );
  });
});

describe('evaluateHit', () => {
  const now = utc('2024-02-29T23:59:30.250Z');
  const second = utc('2024-02-29T23:59:31.000Z');
  const minute = utc('2024-03-01T00:00:00.000Z');
  it.each<[string, RateRule[], (number | undefined)[], boolean, number[], number | undefined]>([
    ['free, fresh', FREE, [undefined, undefined], true, [0, 99], undefined],
    ['free, counts missing', FREE, [], true, [0, 99], undefined],
    ['free, second used', FREE, [1, 5], false, [0, 95], 0],
    ['free, day used', FREE, [0, 100], false, [1, 0], 1],
    ['free, both used', FREE, [1, 100], false, [0, 0], 0],
    ['free, last of the day', FREE, [0, 99], true, [0, 0], undefined],
    ['paid, last of the minute', PAID, [299, 9], true, [0, 0], undefined],
    ['paid, minute used', PAID, [300, 0], false, [0, 10], 0],
    ['paid, burst used', PAID, [10, 10], false, [290, 0], 1],
    ['limit lowered below the count', [{ limit: 1, window: 60 }], [5], false, [0], 0],
    ['no rules', [], [], true, [], undefined],
  ])('%s', (_name, rules, counts, allowed, remaining, blockedBy) => {
    const decision = evaluateHit(counts, rules, now);
    expect(decision.allowed).toBe(allowed);
    expect(decision.rules.map((r) => r.remaining)).toEqual(remaining);
    expect(decision.rules.map((r) => r.limit)).toEqual(rules.map((r) => r.limit));
    expect(decision.blockedBy).toBe(blockedBy);
    expect('blockedBy' in decision).toBe(blockedBy !== undefined);
    expect(decision.now).toBe(now);
  });

  it('reports each window end as resetAt', () => {
    expect(evaluateHit([], FREE, now).rules.map((r) => r.resetAt)).toEqual([second, minute]);
    expect(evaluateHit([], PAID, now).rules.map((r) => r.resetAt)).toEqual([minute, second]);
  });

  const rulesArb = fc.array(
    fc.record({
      limit: fc.integer({ min: 1, max: 20 }),
      window: fc.oneof(fc.integer({ min: 1, max: 100_000 }), fc.constant<'utc-day'>('utc-day')),
    }),
    { maxLength: 4 },
  );
  const caseArb = rulesArb.chain((rules) =>
    fc.tuple(
      fc.constant(rules),
      fc.tuple(...rules.map(() => fc.option(fc.integer({ min: 0, max: 25 }), { nil: undefined }))),
      fc.integer({ min: 0, max: 4_102_444_800_000 }),
    ),
  );

  it('allows ⇔ every rule has room; remaining stays within [0, limit]', () => {
    fc.assert(
      fc.property(caseArb, ([rules, counts, now]) => {
        const decision = evaluateHit(counts, rules, now);
        expect(decision.allowed).toBe(rules.every((rule, i) => (counts[i] ?? 0) + 1 <= rule.limit));
        for (const [i, state] of decision.rules.entries()) {
          expect(state.remaining).toBeGreaterThanOrEqual(0);
          expect(state.remaining).toBeLessThanOrEqual(state.limit);
          expect(state.resetAt).toBe(windowOf(rules[i]!, now).end);
        }
        if (!decision.allowed) {
          const first = rules.findIndex((rule, i) => (counts[i] ?? 0) >= rule.limit);
          expect(decision.blockedBy).toBe(first);
        }
      }),
    );
  });

  it('Retry-After is ≥ 1 and ≤ the longest exhausted window (≤ 86,400 for daily rules)', () => {
    fc.assert(
      fc.property(caseArb, ([rules, counts, now]) => {
        const decision = evaluateHit(counts, rules, now);
        const seconds = retryAfterSeconds(retryAt(decision), decision.now);
        expect(Number.isInteger(seconds)).toBe(true);
        expect(seconds).toBeGreaterThanOrEqual(1);
        if (!decision.allowed) {
          const longest = Math.max(
            ...rules.filter((_, i) => decision.rules[i]!.remaining === 0).map((rule) => windowSeconds(rule)),
          );
          expect(seconds).toBeLessThanOrEqual(Math.max(1, longest));
          if (rules.every((rule) => rule.window === 'utc-day')) expect(seconds).toBeLessThanOrEqual(86_400);
          // After waiting Retry-After seconds, every refusing rule is in a new window.
          const later = now + seconds * 1000;
          for (const [i, rule] of rules.entries()) {
            if (decision.rules[i]!.remaining === 0) expect(windowOf(rule, later).start).toBeGreaterThan(now);
          }
        }
      }),
    );
  });
});

describe('a ledger built on windowKey + evaluateHit', () => {
  it('resets the daily counter at 00:00 UTC (23:59:59.999 → 00:00:00.000)', () => {
    const hit = miniLedger();
    const rules: RateRule[] = [{ limit: 3, window: 'utc-day' }];
    for (const t of ['2024-02-29T00:00:00.000Z', '2024-02-29T12:00:00.000Z', '2024-02-29T23:00:00.000Z']) {
      expect(hit('k', rules, utc(t)).allowed).toBe(true);
    }
    const refused = hit('k', rules, utc('2024-02-29T23:59:59.999Z'));
    expect(refused.allowed).toBe(false);
    expect(rateLimitError(refused, rules)).toBe('daily_limit_exceeded');
    expect(retryAfterSeconds(retryAt(refused), refused.now)).toBe(1);
    const next = hit('k', rules, utc('2024-03-01T00:00:00.000Z'));
    expect(next.allowed).toBe(true);
    expect(next.rules[0]?.remaining).toBe(2);
  });

  it('rolls the per-second window on the second boundary and counts nothing on a refusal', () => {
    const hit = miniLedger();
    const t0 = utc('2024-03-01T08:00:00.000Z');
    expect(hit('k', FREE, t0).allowed).toBe(true);
    const refused = hit('k', FREE, t0 + 999);
    expect(refused).toMatchObject({ allowed: false, blockedBy: 0 });
    expect(refused.rules[1]?.remaining).toBe(99);
    expect(rateLimitError(refused, FREE)).toBe('rate_limited');
    expect(retryAfterSeconds(retryAt(refused), refused.now)).toBe(1);
    const next = hit('k', FREE, t0 + 1000);
    expect(next.allowed).toBe(true);
    expect(next.rules[1]?.remaining).toBe(98);
  });

  it('keeps buckets apart', () => {
    const hit = miniLedger();
    const now = utc('2024-03-01T08:00:00.000Z');
    expect(hit('a', FREE, now).allowed).toBe(true);
    expect(hit('b', FREE, now).allowed).toBe(true);
    expect(hit('a', FREE, now).allowed).toBe(false);
  });
});

describe('retryAfterSeconds and rateLimitError', () => {
  const now = utc('2024-03-01T18:00:00.400Z');
  it.each<[string, RateRule[], number[], number, string]>([
    ['per-second refusal', FREE, [1, 10], 1, 'rate_limited'],
    ['daily refusal waits for midnight', FREE, [0, 100], 6 * 3600, 'daily_limit_exceeded'],
    ['both: the day wins', FREE, [1, 100], 6 * 3600, 'daily_limit_exceeded'],
    ['paid minute', PAID, [300, 0], 60, 'rate_limited'],
    ['weekly window counts as daily', [{ limit: 1, window: 604_800 }], [1], 453_600, 'daily_limit_exceeded'],
  ])('%s', (_name, rules, counts, seconds, code) => {
    const decision = evaluateHit(counts, rules, now);
    expect(retryAfterSeconds(retryAt(decision), decision.now)).toBe(seconds);
    expect(rateLimitError(decision, rules)).toBe(code);
    const error = rateLimitApiError(decision, rules);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ code, status: 429, retryable: true, retryAfter: seconds });
  });
});

describe('rateLimitHeaders', () => {
  const now = utc('2024-03-01T18:00:00.400Z');
  it.each<[string, RateRule[], number[], Record<string, string>]>([
    ['free, first hit', FREE, [0, 0], { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0' }],
    ['paid, first hit', PAID, [0, 0], { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '9' }],
    ['paid, near the minute cap', PAID, [297, 0], { 'X-RateLimit-Limit': '5', 'X-RateLimit-Remaining': '2' }],
    [
      'free, refused',
      FREE,
      [1, 3],
      { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'Retry-After': '1' },
    ],
    [
      'free, daily cap',
      FREE,
      [0, 100],
      { 'X-RateLimit-Limit': '1', 'X-RateLimit-Remaining': '0', 'Retry-After': '21600' },
    ],
  ])('%s', (_name, rules, counts, headers) => {
    expect(rateLimitHeaders(evaluateHit(counts, rules, now), rules)).toEqual(headers);
  });

  it('adds the IETF fields on request', () => {
    const headers = rateLimitHeaders(evaluateHit([0, 41], FREE, now), FREE, { ietf: true });
    expect(headers['RateLimit-Policy']).toBe('"1s";q=1;w=1, "day";q=100;w=86400');
    expect(headers.RateLimit).toBe('"1s";r=0;t=1, "day";r=58;t=21600');
    const twice: RateRule[] = [
      { limit: 5, window: 60 },
      { limit: 9, window: 60 },
    ];
    expect(rateLimitHeaders(evaluateHit([], twice, now), twice, { ietf: true })['RateLimit-Policy']).toBe(
      '"60s-0";q=5;w=60, "60s-1";q=9;w=60',
    );
  });
});
