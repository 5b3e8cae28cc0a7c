import { describe, expect, it } from 'vitest';
import { resolveSignupSettings, SIGNUP_SETTINGS } from './signup-settings.ts';

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
