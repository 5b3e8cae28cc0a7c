/**
 * Who is calling: the API key (or the admin token) a request presents, checked against the
 * accounts, with failed attempts limited per client network (an IPv4 address, an IPv6 /64) in a
 * fixed window on the Ledger. Only failures count and only failures are refused: once an address
 * is throttled, guessing earns 429s, while a valid key from the same address is still served
 * (addresses are shared: NAT, offices, mobile carriers). Each key's last use is recorded in the
 * background (`key-touch.ts`).
 * @module
 */
import { constantTimeEquals } from '../core/constant-time.ts';
import { clientNetwork } from '../core/network.ts';
import { rateLimitApiError } from '../core/ratelimit.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { Ledger, RateRule } from '../ports/ledger.ts';
import type { Accounts, Principal } from './accounts.ts';
import { KeyTouches } from './key-touch.ts';

/** Dependencies of {@link AuthGuard}. */
export interface AuthGuardDeps {
  accounts: Accounts;
  ledger: Ledger;
  /** The admin token; undefined = admin calls need a key with the `admin` scope. */
  adminToken: string | undefined;
  /** Failed authentications allowed per client network and window. */
  failures: { limit: number; windowSeconds: number };
  /** Time for the keys' last uses (see `key-touch.ts`). */
  clock: Clock;
}

/** Authentication of API keys and of the admin token. */
export class AuthGuard {
  private readonly rules: readonly RateRule[];
  /** Records each key's last use (once a minute per key at most, in the background). */
  readonly touches: KeyTouches;

  constructor(private readonly deps: AuthGuardDeps) {
    this.rules = [{ limit: deps.failures.limit, window: deps.failures.windowSeconds }];
    this.touches = new KeyTouches(deps.ledger, deps.clock);
  }

  /**
   * The caller behind `key`, presented from `address` (read only to count a failure: finding a
   * connection's address costs a call into the runtime on Bun). `missing_api_key` without a key
   * (not a failure); `invalid_api_key` for a key that is malformed, unknown or revoked, or
   * `rate_limited` once the address's network has failed too often in the window.
   */
  async authenticate(key: string | undefined, address: () => string): Promise<Principal> {
    if (key === undefined) {
      throw new ApiError(
        'missing_api_key',
        'An API key is required: send "Authorization: Bearer <key>" or "X-API-Key".',
      );
    }
    try {
      const principal = await this.deps.accounts.authenticate(key);
      this.touches.touch(principal.keyId);
      return principal;
    } catch (error) {
      if (error instanceof ApiError && error.code === 'invalid_api_key') await this.countFailure(address());
      throw error;
    }
  }

  /** An admin call: `'token'` for the admin token, else a principal whose key has the `admin` scope. */
  async authenticateAdmin(key: string | undefined, address: () => string): Promise<Principal | 'token'> {
    const token = this.deps.adminToken;
    if (key !== undefined && token !== undefined && constantTimeEquals(key, token)) return 'token';
    const principal = await this.authenticate(key, address);
    if (!principal.scopes.includes('admin')) {
      throw new ApiError(
        'insufficient_scope',
        'This endpoint needs the admin token or a key with the admin scope.',
      );
    }
    return principal;
  }

  /** Counts a failure of `address`; throws `rate_limited` when the window's allowance is spent. */
  private async countFailure(address: string): Promise<void> {
    const network = clientNetwork(address, { ipv4: 32, ipv6: 64 });
    const decision = await this.deps.ledger.hit(`authfail:${network}`, this.rules);
    if (decision.allowed) return;
    const { retryAfter = 1 } = rateLimitApiError(decision, this.rules);
    throw new ApiError(
      'rate_limited',
      `Too many failed authentications from this address; retry in ${retryAfter} s.`,
      { retryAfter },
    );
  }
}
