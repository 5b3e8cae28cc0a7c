/**
 * Signing people in to the dashboard by email code, over the agent sign-up machinery: the code is
 * requested through {@link Signups.signup} (same code rules, throttles and identical answers), and
 * a correct code either creates the account exactly as agent sign-up does (a new address: one
 * account per address, one free grant per grant key, a first key shown once) or, for an address
 * that has an account, signs it in. The sign-in path checks the code with the same attempt
 * counter, pre-check, MAC and single-use claim as {@link Signups.verify}, so a code is worth one
 * sign-in and three wrong codes end it.
 * @module
 */
import { clientNetwork } from '../core/network.ts';
import { rateLimitApiError } from '../core/ratelimit.ts';
import { type PendingSignup, precheckVerify, type SignupEffect, transition } from '../core/signup.ts';
import { codeMatches, isWellFormedSignupToken } from '../core/signup-code.ts';
import type { SignupSettings } from '../core/signup-settings.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import type { SharedSecret } from './secret.ts';
import type { SignupClient, Signups } from './signup.ts';

/** Dependencies of {@link EmailSignin}. */
export interface EmailSigninDeps {
  kv: KeyValue;
  ledger: Ledger;
  clock: Clock;
  secret: SharedSecret;
  signups: Signups;
  settings: SignupSettings;
}

/** What a correct code gives. */
export type SigninResult =
  | { kind: 'signed_in'; accountId: string; email: string }
  | { kind: 'account_created'; accountId: string; email: string; apiKey: string; credits: number };

const unknownToken = () =>
  new ApiError('invalid_signup_token', 'The code is unknown, used or expired. Ask for a new code.');

/** Email-code sign-in and sign-up for the dashboard. */
export class EmailSignin {
  constructor(private readonly deps: EmailSigninDeps) {}

  /** Mails a code to `email`; the answer (a sign-up token) is the same whether or not it has an account. */
  async request(email: string, client: SignupClient): Promise<{ token: string; email: string }> {
    const body = await this.deps.signups.signup(email, client);
    return { token: body.signup_token, email: email.trim() };
  }

  /** Checks `code` for the sign-up `token`. */
  async verify(token: string, code: string, client: SignupClient): Promise<SigninResult> {
    const { kv } = this.deps;
    if (!isWellFormedSignupToken(token)) throw unknownToken();
    const pending = await kv.get<PendingSignup>(`signup:${token}`);
    if (!pending) throw unknownToken();
    const accountId = await kv.get<string>(`email:${pending.accountKey}`);
    if (accountId === undefined) {
      const created = await this.deps.signups.verify(token, code, client);
      const id = await kv.get<string>(`email:${pending.accountKey}`);
      if (id === undefined) throw new ApiError('internal_error', 'The new account was not found.');
      return {
        kind: 'account_created',
        accountId: id,
        email: pending.email,
        apiKey: created.api_key,
        credits: created.credits,
      };
    }
    await this.checkCode(pending, code, client.address);
    return { kind: 'signed_in', accountId, email: pending.email };
  }

  /** The agent verify's checks, for an address that has an account; throws what verify throws. */
  private async checkCode(pending: PendingSignup, code: string, address: string): Promise<void> {
    const { ledger, clock, settings, secret } = this.deps;
    const rules = settings.throttles.verifyNetwork;
    const decision = await ledger.hit(`signup:verify:${clientNetwork(address)}`, rules);
    if (!decision.allowed) {
      const limited = rateLimitApiError(decision, rules);
      throw new ApiError(
        'rate_limited',
        `Too many verification attempts; retry in ${limited.retryAfter ?? 1} s.`,
        {
          retryAfter: limited.retryAfter ?? 1,
        },
      );
    }
    const { token } = pending;
    const retentionMs = settings.retentionSeconds * 1000;
    const attemptNumber = await ledger.counter(`signup:attempt:${token}`, 1, retentionMs);
    const now = clock.now();
    const early = precheckVerify(pending, { token, attemptNumber, now }, settings);
    if (early) {
      for (const effect of early.effects) await this.apply(effect);
      if (early.outcome.kind === 'error') throw early.outcome.error;
    }
    const codeCorrect = await codeMatches(secret.bytes, token, code, pending.codeMac);
    const claimed = codeCorrect ? await ledger.consumeOnce(`signup:claim:${token}`, retentionMs) : false;
    if (!codeCorrect || !claimed) {
      const step = transition(
        pending,
        {
          type: 'verify',
          token,
          attemptNumber,
          now,
          codeCorrect,
          claimed,
          hasAccount: true,
          alreadyGranted: true,
        },
        settings,
      );
      for (const effect of step.effects) await this.apply(effect);
      throw step.outcome.kind === 'error' ? step.outcome.error : unknownToken();
    }
    await this.apply({ type: 'delete_pending', token, accountKey: pending.accountKey });
  }

  private async apply(effect: SignupEffect): Promise<void> {
    const { kv } = this.deps;
    if (effect.type !== 'delete_pending') return;
    await kv.delete(`signup:${effect.token}`);
    if ((await kv.get<string>(`signup-index:${effect.accountKey}`)) === effect.token) {
      await kv.delete(`signup-index:${effect.accountKey}`);
    }
  }
}
