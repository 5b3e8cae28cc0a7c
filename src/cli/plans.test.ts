import { describe, expect, it } from 'vitest';
import { createTubescribe } from '../app.ts';
import { silentLogger } from '../drivers/system.ts';
import { parseArgs } from './args.ts';
import { ConfigError, loadConfig } from './config.ts';
import { parsePlanConfig } from './plans.ts';
import { appOptionsFor } from './serve.ts';

describe('TUBESCRIBE_PLANS and TUBESCRIBE_DEFAULT_PLAN', () => {
  it.each([
    ['not JSON', '{team:', undefined, /TUBESCRIBE_PLANS must be JSON/],
    ['an array', '[]', undefined, /must be a JSON object of plans/],
    ['a rule without a limit', '{"team":[{"window":1}]}', undefined, /Plan "team": a rule's limit/],
    ['a zero limit', '{"team":[{"limit":0,"window":1}]}', undefined, /limit must be a positive whole number/],
    ['a bad window', '{"team":[{"limit":5,"window":"week"}]}', undefined, /window must be a whole number/],
    ['an unknown field', '{"team":[{"limit":5,"window":1,"burst":2}]}', undefined, /unknown field "burst"/],
    ['a rule that is not an object', '{"team":[5]}', undefined, /a rule is \{"limit": N/],
    ['no rules', '{"team":[]}', undefined, /needs at least one rule/],
    ['a bad plan name', '{"Team":[{"limit":5,"window":1}]}', undefined, /Invalid plan name "Team"/],
    ['an unknown default plan', undefined, 'gold', /TUBESCRIBE_DEFAULT_PLAN names the unknown plan "gold"/],
  ])('refuses %s with a clear message', (_name, plans, defaultPlan, message) => {
    expect(() => parsePlanConfig(plans, defaultPlan)).toThrow(message);
    const env = {
      ...(plans === undefined ? {} : { TUBESCRIBE_PLANS: plans }),
      ...(defaultPlan === undefined ? {} : { TUBESCRIBE_DEFAULT_PLAN: defaultPlan }),
    };
    expect(() => loadConfig(parseArgs([]), env)).toThrow(ConfigError);
  });

  it('accepts plans in the shape createTubescribe takes, and a default plan among them', () => {
    const plans = '{"team":[{"limit":20,"window":1},{"limit":50000,"window":"utc-day"}]}';
    expect(parsePlanConfig(plans, 'team')).toEqual({
      plans: {
        team: [
          { limit: 20, window: 1 },
          { limit: 50000, window: 'utc-day' },
        ],
      },
      defaultPlan: 'team',
    });
    expect(parsePlanConfig(undefined, 'paid')).toEqual({ defaultPlan: 'paid' });
    expect(parsePlanConfig(undefined, undefined)).toEqual({});
  });

  it('reaches the app: new accounts start on the default plan with its rules', async () => {
    const config = loadConfig(parseArgs([]), {
      TUBESCRIBE_STORAGE: 'memory',
      TUBESCRIBE_PLANS: '{"team":[{"limit":20,"window":1}]}',
      TUBESCRIBE_DEFAULT_PLAN: 'team',
    });
    const options = appOptionsFor(config, {});
    const ts = createTubescribe({ ...options, logger: silentLogger, limits: { reconcileIntervalMs: 0 } });
    expect(ts.settings.plans.team?.rules).toEqual([{ limit: 20, window: 1 }]);
    expect(ts.settings.planAssignment.initial).toBe('team');
    await ts.close();
  });
});
