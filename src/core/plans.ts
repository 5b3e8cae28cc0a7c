/**
 * Rate-limit plans: the default `free` and `paid` plans and the operator's overrides, which plan an
 * account starts on and moves to after a credit pack, and the requests per second and per UTC day
 * reported to clients.
 * @module
 */
import type { RateRule } from '../ports/ledger.ts';

/** A named plan: every rule must admit a request (all-or-nothing). */
export interface Plan {
  name: string;
  rules: RateRule[];
}

/** Plans by name. */
export type Plans = Readonly<Record<string, Plan>>;

/** Seconds in the UTC calendar day; ECMAScript time has no leap seconds, so every day has this many. */
export const SECONDS_PER_DAY = 86_400;

const PLAN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/** A deeply frozen plan, so shared configuration cannot be changed by accident. */
function frozenPlan(name: string, rules: readonly RateRule[]): Plan {
  const copies = rules.map((rule) => Object.freeze({ ...rule }));
  return Object.freeze({ name, rules: Object.freeze(copies) as RateRule[] });
}

/**
 * The default plans (decisions.md). `free`: 1 request per second and 100 per UTC day
 * (statement C). `paid`: 300 per minute with bursts of 10 per second (statement A), no daily cap.
 */
export const DEFAULT_PLANS: Plans = Object.freeze({
  free: frozenPlan('free', [
    { limit: 1, window: 1 },
    { limit: 100, window: 'utc-day' },
  ]),
  paid: frozenPlan('paid', [
    { limit: 300, window: 60 },
    { limit: 10, window: 1 },
  ]),
});

/** Which plan an account is on by default, and which plan a credit-pack grant moves it to. */
export interface PlanAssignment {
  /** The plan of new accounts (agent sign-up, admin keys created without `plan`). */
  initial: string;
  /** The plan an account moves to when any credit pack is granted. */
  afterPack: string;
}

/** The default plan assignment: new accounts are `free`, any pack moves them to `paid`. */
export const DEFAULT_PLAN_ASSIGNMENT: Readonly<PlanAssignment> = Object.freeze({
  initial: 'free',
  afterPack: 'paid',
});

/** The longest window a rule may have: 366 days, in seconds. */
export const MAX_WINDOW_SECONDS: number = 366 * SECONDS_PER_DAY;

/** A rule's window length in seconds (`utc-day` = 86,400). */
export function windowSeconds(rule: RateRule): number {
  return rule.window === 'utc-day' ? SECONDS_PER_DAY : rule.window;
}

/** True for a rule that caps a day or more (`utc-day`, or a window of at least 86,400 seconds). */
export function isDailyRule(rule: RateRule): boolean {
  return windowSeconds(rule) >= SECONDS_PER_DAY;
}

/**
 * Checks one rule from configuration; throws a plain Error starting with `owner` (`Plan "team"`,
 * `The option signup.throttles.address`) on a mistake.
 */
export function validateRule(owner: string, rule: unknown): RateRule {
  const r = rule as Partial<RateRule> | null;
  const limit = r?.limit;
  const window = r?.window;
  if (typeof limit !== 'number' || !Number.isSafeInteger(limit) || limit < 1) {
    throw new Error(
      `${owner}: a rule's limit must be a positive whole number, got ${JSON.stringify(limit)}.`,
    );
  }
  if (
    window !== 'utc-day' &&
    (typeof window !== 'number' || !Number.isSafeInteger(window) || window < 1 || window > MAX_WINDOW_SECONDS)
  ) {
    throw new Error(
      `${owner}: a rule's window must be a whole number of seconds from 1 to ${MAX_WINDOW_SECONDS}, or "utc-day"; got ${JSON.stringify(window)}.`,
    );
  }
  return { limit, window };
}

/**
 * The default plans with the operator's overrides applied: each entry adds a plan or replaces the
 * rules of an existing one. Plan names are lower-case `[a-z0-9_-]` (up to 64 characters); a plan
 * needs at least one rule (use a large limit for "practically unlimited"). A mistake throws a
 * plain Error (fail at start-up).
 */
export function resolvePlans(overrides: Readonly<Record<string, readonly RateRule[]>> = {}): Plans {
  const plans: Record<string, Plan> = { ...DEFAULT_PLANS };
  for (const [name, rules] of Object.entries(overrides)) {
    if (!PLAN_NAME.test(name)) throw new Error(`Invalid plan name "${name}" (use a-z, 0-9, _ and -).`);
    if (!Array.isArray(rules) || rules.length === 0)
      throw new Error(`Plan "${name}" needs at least one rule.`);
    plans[name] = frozenPlan(
      name,
      rules.map((rule) => validateRule(`Plan "${name}"`, rule)),
    );
  }
  return Object.freeze(plans);
}

/** The plan called `name`; an unknown plan is a plain Error naming the known plans. */
export function planOf(plans: Plans, name: string): Plan {
  const plan = Object.hasOwn(plans, name) ? plans[name] : undefined;
  if (plan === undefined)
    throw new Error(`Unknown plan "${name}"; known plans: ${Object.keys(plans).join(', ')}.`);
  return plan;
}

/** True when `name` is a configured plan. */
export function hasPlan(plans: Plans, name: string): boolean {
  return Object.hasOwn(plans, name);
}

/**
 * Requests per second for `X-RateLimit-Limit` and `limits.requests_per_second`: the tightest
 * `limit / windowSeconds` over the plan's sub-daily rules (the daily cap is reported by
 * {@link requestsPerDay}; a plan with daily rules only uses them). free → 1, paid → min(5, 10) = 5.
 * Rounding: floored to a whole number when ≥ 1 (never promise more than allowed); below 1
 * (e.g. 30 per minute → 0.5) floored to two decimals, at least 0.01.
 */
export function requestsPerSecond(plan: { readonly rules: readonly RateRule[] }): number {
  const shortRules = plan.rules.filter((rule) => !isDailyRule(rule));
  const rules = shortRules.length > 0 ? shortRules : plan.rules;
  if (rules.length === 0) return 0;
  const rate = Math.min(...rules.map((rule) => rule.limit / windowSeconds(rule)));
  if (rate >= 1) return Math.floor(rate);
  return Math.max(0.01, Math.floor(rate * 100) / 100);
}

/**
 * Requests per UTC day for `limits.requests_per_day`: the smallest limit among rules whose window
 * is the UTC day (`utc-day`, or exactly 86,400 seconds, which is the same epoch-aligned window);
 * null when the plan has no daily cap.
 */
export function requestsPerDay(plan: { readonly rules: readonly RateRule[] }): number | null {
  const daily = plan.rules
    .filter((rule) => windowSeconds(rule) === SECONDS_PER_DAY)
    .map((rule) => rule.limit);
  return daily.length === 0 ? null : Math.min(...daily);
}
