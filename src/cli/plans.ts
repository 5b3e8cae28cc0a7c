/**
 * Rate-limit plans from the environment: `TUBESCRIBE_PLANS`, a JSON object of plans in the shape
 * `createTubescribe({ plans })` takes (`{"team":[{"limit":20,"window":1},{"limit":50000,"window":"utc-day"}]}`:
 * each entry adds a plan or replaces a default one's rules), and `TUBESCRIBE_DEFAULT_PLAN`, the
 * plan new accounts start on (default `free`). Checked at start-up; a mistake is an Error whose
 * message names the variable and what is wrong.
 * @module
 */
import { hasPlan, resolvePlans } from '../core/plans.ts';
import type { RateRule } from '../ports/ledger.ts';

/** The plan settings of the environment (only what is set). */
export interface PlanConfig {
  plans?: Record<string, RateRule[]>;
  defaultPlan?: string;
}

/** Parses and checks `TUBESCRIBE_PLANS` and `TUBESCRIBE_DEFAULT_PLAN` (either may be undefined). */
export function parsePlanConfig(plansText: string | undefined, defaultPlan: string | undefined): PlanConfig {
  const out: PlanConfig = {};
  if (plansText !== undefined && plansText.trim() !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(plansText);
    } catch (error) {
      throw new Error(`TUBESCRIBE_PLANS must be JSON: ${(error as Error).message}.`);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(
        'TUBESCRIBE_PLANS must be a JSON object of plans, e.g. {"team":[{"limit":20,"window":1}]}.',
      );
    }
    const plans = parsed as Record<string, RateRule[]>;
    for (const [name, rules] of Object.entries(plans)) {
      for (const rule of Array.isArray(rules) ? rules : []) {
        const extra = Object.keys(rule ?? {}).filter((k) => k !== 'limit' && k !== 'window');
        if (typeof rule !== 'object' || rule === null || extra.length > 0) {
          throw new Error(
            `TUBESCRIBE_PLANS: plan "${name}": a rule is {"limit": N, "window": seconds | "utc-day"}` +
              (extra.length > 0 ? `; unknown field "${extra[0]}".` : '.'),
          );
        }
      }
    }
    try {
      resolvePlans(plans);
    } catch (error) {
      throw new Error(`TUBESCRIBE_PLANS: ${(error as Error).message}`);
    }
    out.plans = plans;
  }
  if (defaultPlan !== undefined && defaultPlan !== '') {
    const known = resolvePlans(out.plans);
    if (!hasPlan(known, defaultPlan)) {
      throw new Error(
        `TUBESCRIBE_DEFAULT_PLAN names the unknown plan "${defaultPlan}"; known plans: ${Object.keys(known).join(', ')}.`,
      );
    }
    out.defaultPlan = defaultPlan;
  }
  return out;
}
