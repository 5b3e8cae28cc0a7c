/**
 * Fixed-window rate limiting, the one algorithm every Ledger implements (the in-memory ledger
 * calls these functions; the Redis Lua script mirrors {@link evaluateHit} and {@link windowKey}).
 * @module
 */
import { ApiError } from '../errors.ts';
import type { RateDecision, RateRule, RuleState } from '../ports/ledger.ts';
import { isDailyRule, requestsPerSecond, SECONDS_PER_DAY, windowSeconds } from './plans.ts';
import { retryAfterSeconds, secondsUntil } from './retry-after.ts';

const DAY_MS = SECONDS_PER_DAY * 1000;

/** A half-open window `[start, end)` in epoch milliseconds. */
export interface Window {
  start: number;
  end: number;
}

/** The next 00:00:00.000 UTC strictly after `now` (epoch ms). */
export function nextUtcMidnight(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS + DAY_MS;
}

/**
 * The window of `rule` that holds `now`. Windows of N seconds are aligned to the Unix epoch
 * (`floor(now / N s) * N s`); `utc-day` is the UTC calendar day, ending at the next 00:00 UTC.
 */
export function windowOf(rule: RateRule, now: number): Window {
  if (rule.window === 'utc-day') {
    const end = nextUtcMidnight(now);
    return { start: end - DAY_MS, end };
  }
  const length = rule.window * 1000;
  const start = Math.floor(now / length) * length;
  return { start, end: start + length };
}

/**
 * The name of the counter of rule `ruleIndex` for the window holding `now`:
 * `rl:{bucket}:{ruleIndex}:{window}:{windowStart}`. A new window gets a new name, so counters roll
 * over on their own (expire each after its window ends). The window length is part of the name, so
 * a changed rule never reuses an old rule's count; its limit is not, so a raised or lowered limit
 * applies to the running count.
 */
export function windowKey(bucket: string, ruleIndex: number, rule: RateRule, now: number): string {
  const spec = rule.window === 'utc-day' ? 'd' : String(rule.window);
  return `rl:${bucket}:${ruleIndex}:${spec}:${windowOf(rule, now).start}`;
}

/**
 * Decides one hit, all-or-nothing. `counts[i]` is rule i's count in its current window before
 * this hit (`undefined` = the window has not started = 0). The hit is allowed only if every rule
 * has room (`count + 1 ≤ limit`); then every rule counts it and `remaining = limit - count - 1`.
 * Otherwise no rule counts it, `remaining = max(0, limit - count)` (0 exactly for the rules that
 * refuse) and `blockedBy` is the first refusing rule.
 */
export function evaluateHit(
  counts: readonly (number | undefined)[],
  rules: readonly RateRule[],
  now: number,
): RateDecision {
  const used = rules.map((_, i) => counts[i] ?? 0);
  const blockedBy = rules.findIndex((rule, i) => (used[i] ?? 0) + 1 > rule.limit);
  const allowed = blockedBy === -1;
  const states: RuleState[] = rules.map((rule, i) => ({
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - (used[i] ?? 0) - (allowed ? 1 : 0)),
    resetAt: windowOf(rule, now).end,
  }));
  return allowed ? { allowed, rules: states, now } : { allowed, rules: states, blockedBy, now };
}

/**
 * Indexes of the rules that stand in the way of the next hit: on a refusal `blockedBy` and every
 * other rule with nothing left (each of them refused too); on an allowed hit, the rules it used up.
 */
function exhaustedRules(decision: RateDecision): number[] {
  const out = decision.rules.flatMap((state, i) => (state.remaining === 0 ? [i] : []));
  if (decision.blockedBy !== undefined && !out.includes(decision.blockedBy)) out.push(decision.blockedBy);
  return out;
}

/**
 * When (epoch ms) a hit can pass again: when the last of the exhausted rules' windows resets (so a
 * client refused by both the per-second and the daily rule waits for 00:00 UTC); `decision.now`
 * when no rule is exhausted. Its Retry-After is `retryAfterSeconds(retryAt(decision), decision.now)`
 * (whole seconds, at least 1), never more than the longest exhausted rule's window.
 */
export function retryAt(decision: RateDecision): number {
  const resets = exhaustedRules(decision).map((i) => decision.rules[i]?.resetAt ?? decision.now);
  return resets.length === 0 ? decision.now : Math.max(...resets);
}

/**
 * The error code of a refusal: `daily_limit_exceeded` when a refusing rule caps a day
 * (`utc-day` or a window ≥ 1 day; the client waits until it resets), else `rate_limited`.
 */
export function rateLimitError(
  decision: RateDecision,
  rules: readonly RateRule[],
): 'daily_limit_exceeded' | 'rate_limited' {
  if (decision.allowed) return 'rate_limited';
  const daily = exhaustedRules(decision).some((i) => {
    const rule = rules[i];
    return rule !== undefined && isDailyRule(rule);
  });
  return daily ? 'daily_limit_exceeded' : 'rate_limited';
}

/** The 429 {@link ApiError} of a refusal, with its Retry-After seconds. */
export function rateLimitApiError(decision: RateDecision, rules: readonly RateRule[]): ApiError {
  const code = rateLimitError(decision, rules);
  const retryAfter = retryAfterSeconds(retryAt(decision), decision.now);
  const message =
    code === 'daily_limit_exceeded'
      ? `Daily request limit reached; it resets at 00:00 UTC (in ${retryAfter} s).`
      : `Too many requests; retry in ${retryAfter} s.`;
  return new ApiError(code, message, { retryAfter, details: { retry_after: retryAfter } });
}

/** Options of {@link rateLimitHeaders}. */
export interface RateLimitHeaderOptions {
  /** Also send the IETF draft's `RateLimit-Policy` and `RateLimit` fields (default false). */
  ietf?: boolean;
}

/** The IETF policy name of a rule: `1s`, `60s`, `day`; made unique with the rule's index if needed. */
function policyNames(rules: readonly RateRule[]): string[] {
  const names = rules.map((rule) => (rule.window === 'utc-day' ? 'day' : `${rule.window}s`));
  return names.map((name, i) => (names.indexOf(name) === names.lastIndexOf(name) ? name : `${name}-${i}`));
}

/** `X-RateLimit-Limit` per plan's rules (the same rules object for every call of a plan). */
const limitHeaders = new WeakMap<readonly RateRule[], string>();

/**
 * The rate-limit response headers of a decision: `X-RateLimit-Limit` (the plan's requests per
 * second), `X-RateLimit-Remaining` (the smallest remaining count over the rules, i.e. the rule
 * closest to its limit), `Retry-After` on a refusal, and with `ietf` the draft's
 * `RateLimit-Policy: "60s";q=300;w=60, …` and `RateLimit: "60s";r=299;t=42, …`.
 */
export function rateLimitHeaders(
  decision: RateDecision,
  rules: readonly RateRule[],
  options: RateLimitHeaderOptions = {},
): Record<string, string> {
  let limit = limitHeaders.get(rules);
  if (limit === undefined) {
    limit = String(requestsPerSecond({ rules }));
    limitHeaders.set(rules, limit);
  }
  const headers: Record<string, string> = { 'X-RateLimit-Limit': limit };
  if (decision.rules.length > 0) {
    let remaining = Number.POSITIVE_INFINITY;
    for (const state of decision.rules) remaining = Math.min(remaining, state.remaining);
    headers['X-RateLimit-Remaining'] = String(remaining);
  }
  if (!decision.allowed) headers['Retry-After'] = String(retryAfterSeconds(retryAt(decision), decision.now));
  if (options.ietf === true && rules.length > 0) {
    const names = policyNames(rules);
    headers['RateLimit-Policy'] = rules
      .map((rule, i) => `"${names[i]}";q=${rule.limit};w=${windowSeconds(rule)}`)
      .join(', ');
    headers.RateLimit = decision.rules
      .map((state, i) => {
        return `"${names[i]}";r=${state.remaining};t=${secondsUntil(state.resetAt, decision.now)}`;
      })
      .join(', ');
  }
  return headers;
}
