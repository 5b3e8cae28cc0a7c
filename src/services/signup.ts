/**
 * Agent sign-up: an API key by email code, without a browser (the contract's sign-up part).
 *
 * The pure state machine (core/signup.ts) decides; this service checks the address and the
 * throttles, computes the atomic facts (attempt number from a Ledger counter, a consume-once claim,
 * whether the address has an account) and applies the effects in order. Codes exist only in
 * memory long enough to be mailed: storage holds an HMAC bound to the token.
 *
 * Storage: `signup:<token>` (the pending record, with TTL), `signup-index:<account key>` (the
 * address's current token, so a new sign-up replaces the old code). The Ledger holds the attempt
 * counters, claims and throttles, so every instance sees the same numbers.
 * @module
 */
import {
  accountKey,
  deliverability,
  grantKey,
  isDisposableDomain,
  isMajorProvider,
  type ParsedEmail,
  parseEmail,
} from '../core/email.ts';
import { clientNetwork } from '../core/network.ts';
import { type PlanAssignment, type Plans, planOf, requestsPerDay, requestsPerSecond } from '../core/plans.ts';
import { rateLimitApiError } from '../core/ratelimit.ts';
import {
  type PendingSignup,
  precheckVerify,
  type SignupEffect,
  type SignupResponse,
  type SignupState,
  transition,
} from '../core/signup.ts';
import {
  codeMac,
  codeMatches,
  generateCode,
  generateSignupToken,
  isWellFormedSignupToken,
} from '../core/signup-code.ts';
import { buildVerifyResponse, type VerifyResponse } from '../core/signup-response.ts';
import type { SignupSettings } from '../core/signup-settings.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';
import type { Resolver } from '../ports/dns.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger, RateRule } from '../ports/ledger.ts';
import type { Logger } from '../ports/logger.ts';
import type { Mailer } from '../ports/mailer.ts';
import type { Random } from '../ports/random.ts';
import type { Accounts } from './accounts.ts';
import type { SharedSecret } from './secret.ts';

/** Whether sign-up takes new requests: `paused` answers 503 agent_signup_busy, `off` agent_signup_disabled. */
export type SignupMode = 'on' | 'paused' | 'off';

/** Dependencies of {@link Signups}. */
export interface SignupDeps {
  kv: KeyValue;
  ledger: Ledger;
  clock: Clock;
  random: Random;
  logger: Logger;
  secret: SharedSecret;
  accounts: Accounts;
  mailer: Mailer;
  /** Undefined = no deliverability lookups (`TUBESCRIBE_DNS=off`). */
  resolver: Resolver | undefined;
  /** Loads the disposable-domain set once (lazily: it is large). */
  disposable: () => Promise<(domain: string) => boolean>;
  settings: SignupSettings;
  mode: SignupMode;
  plans: Plans;
  planAssignment: PlanAssignment;
}

/** Who is calling, for the throttles. */
export interface SignupClient {
  /** The client's address (IPv4/IPv6); throttled per /24 and /56. */
  address: string;
  /** The data API's public base URL, for the verify response's links. */
  baseUrl: string;
  /** Where verify lives (absolute when sign-up is mounted on another host). */
  verifyUrl: string;
}

/** How long an address's account marker is kept: the account is permanent. */
const FOREVER_MS = 100 * 365 * 24 * 3_600_000;

/** The Ledger counter that says a grant key received its free credits (the grant itself is idempotent). */
function grantedMarker(grantKey: string): string {
  return `signup:granted:${grantKey}`;
}

/** The sign-up service. */
export class Signups {
  constructor(private readonly deps: SignupDeps) {}

  private guardMode(): void {
    if (this.deps.mode === 'off')
      throw new ApiError('agent_signup_disabled', 'Agent sign-up is switched off on this server.');
    if (this.deps.mode === 'paused') {
      throw new ApiError('agent_signup_busy', 'Agent sign-up is paused for a while; retry later.', {
        retryAfter: 300,
      });
    }
  }

  private async throttle(bucket: string, rules: readonly RateRule[], what: string): Promise<void> {
    const decision = await this.deps.ledger.hit(bucket, rules);
    if (decision.allowed) return;
    const limited = rateLimitApiError(decision, rules);
    throw new ApiError('rate_limited', `Too many ${what}; retry in ${limited.retryAfter ?? 1} s.`, {
      retryAfter: limited.retryAfter ?? 1,
    });
  }

  /** Rejects disposable and undeliverable addresses (a DNS failure lets the address through). */
  private async checkAddress(email: ParsedEmail): Promise<void> {
    const has = await this.deps.disposable();
    if (isDisposableDomain(email.domain, has)) {
      throw new ApiError('disposable_email', 'Temporary (disposable) email addresses cannot sign up.');
    }
    const resolver = this.deps.resolver;
    if (!resolver || isMajorProvider(email.domain, this.deps.settings.majorProviders)) return;
    const mx = await resolver.mx(email.domain);
    const addresses = mx.ok || mx.reason === 'failure' ? undefined : await resolver.addresses(email.domain);
    if (deliverability(mx, addresses) === 'undeliverable') {
      throw new ApiError('undeliverable_email', `The domain ${email.domain} cannot receive email.`);
    }
  }

  private async stateOf(token: string): Promise<SignupState> {
    return (await this.deps.kv.get<PendingSignup>(`signup:${token}`)) ?? { status: 'none' };
  }

  /** POST /api/agent/signup: validates, throttles, mails a code, answers `code_sent`. */
  async signup(input: unknown, client: SignupClient): Promise<SignupResponse> {
    this.guardMode();
    const { clock, settings, kv } = this.deps;
    const email = parseEmail(typeof input === 'string' ? input : '');
    await this.throttle(
      `signup:net:${clientNetwork(client.address)}`,
      settings.throttles.network,
      'sign-ups from this network',
    );
    const keys = { account: accountKey(email.address), grant: grantKey(email.address) };
    await this.throttle(`signup:addr:${keys.grant}`, settings.throttles.address, 'sign-ups for this address');
    await this.checkAddress(email);

    const token = generateSignupToken(this.deps.random);
    const code = generateCode(this.deps.random, settings.codeLength);
    const previousToken = await kv.get<string>(`signup-index:${keys.account}`);
    const previous = previousToken ? await this.stateOf(previousToken) : ({ status: 'none' } as const);
    const step = transition(
      previous,
      {
        type: 'signup',
        email,
        token,
        codeMac: await codeMac(this.deps.secret.bytes, token, code),
        now: clock.now(),
      },
      { ...settings, verifyUrl: client.verifyUrl },
    );
    for (const effect of step.effects) {
      if (effect.type === 'send_code') await this.sendCode(effect.to, code, effect.expiresAt);
      else await this.apply(effect);
    }
    if (step.outcome.kind !== 'code_sent')
      throw new ApiError('internal_error', 'Unexpected sign-up outcome.');
    return step.outcome.body;
  }

  /** POST /api/agent/verify: checks the code; 201 with a new key, or the contract's errors. */
  async verify(tokenInput: unknown, code: string, client: SignupClient): Promise<VerifyResponse> {
    this.guardMode();
    const { clock, ledger, settings, kv } = this.deps;
    await this.throttle(
      `signup:verify:${clientNetwork(client.address)}`,
      settings.throttles.verifyNetwork,
      'verification attempts from this network',
    );
    if (!isWellFormedSignupToken(tokenInput)) {
      throw new ApiError(
        'invalid_signup_token',
        'The sign-up token is unknown, used or expired. Sign up again to get a new code.',
      );
    }
    const token = tokenInput as string;
    const state = await this.stateOf(token);
    const retentionMs = settings.retentionSeconds * 1000;
    const attemptNumber =
      state.status === 'none' ? 1 : await ledger.counter(`signup:attempt:${token}`, 1, retentionMs);
    const now = clock.now();
    const early = precheckVerify(state, { token, attemptNumber, now }, settings);
    if (early) {
      for (const effect of early.effects) await this.apply(effect);
      if (early.outcome.kind === 'error') throw early.outcome.error;
    }
    const pending = state as PendingSignup;
    const codeCorrect = await codeMatches(this.deps.secret.bytes, token, code, pending.codeMac);
    const claimed = codeCorrect ? await ledger.consumeOnce(`signup:claim:${token}`, retentionMs) : false;
    const hasAccount =
      codeCorrect && claimed ? (await kv.get(`email:${pending.accountKey}`)) !== undefined : false;
    // Read before the domain budget is touched: a variant of a granted address gets no grant and
    // must not use up one of its domain's free grants for the day.
    const alreadyGranted =
      codeCorrect && claimed && !hasAccount
        ? (await ledger.counter(grantedMarker(pending.grantKey), 0, FOREVER_MS)) > 0
        : false;
    const step = transition(
      state,
      { type: 'verify', token, attemptNumber, now, codeCorrect, claimed, hasAccount, alreadyGranted },
      settings,
    );
    if (step.outcome.kind === 'error') {
      for (const effect of step.effects) await this.apply(effect);
      throw step.outcome.error;
    }
    if (step.outcome.kind !== 'account_created')
      throw new ApiError('internal_error', 'Unexpected verify outcome.');
    // One account per account key, even when two different tokens of one address race.
    if (!(await ledger.consumeOnce(`signup:account:${pending.accountKey}`, FOREVER_MS))) {
      await this.apply({ type: 'delete_pending', token, accountKey: pending.accountKey });
      throw new ApiError('account_exists', 'This email address already has an account; no key was created.');
    }
    let created: { api_key: string; account_id: string } | undefined;
    for (const effect of step.effects) {
      if (effect.type === 'create_account') {
        created = await this.deps.accounts.createKey({
          email: effect.email,
          emailKey: effect.accountKey,
          plan: this.deps.planAssignment.initial,
        });
      } else if (effect.type === 'grant_free_credits' && created) {
        await this.grantFree(created.account_id, effect);
      } else {
        await this.apply(effect);
      }
    }
    if (!created) throw new ApiError('internal_error', 'No account was created.');
    const plan = planOf(this.deps.plans, this.deps.planAssignment.initial);
    return buildVerifyResponse(
      {
        apiKey: created.api_key,
        credits: (await ledger.credits(created.account_id)).balance,
        baseUrl: client.baseUrl,
      },
      { ...settings, requestsPerSecond: requestsPerSecond(plan), requestsPerDay: requestsPerDay(plan) ?? 0 },
    );
  }

  /** Free credits once per grant key; outside the major providers only a few per domain per day. */
  private async grantFree(
    accountId: string,
    effect: Extract<SignupEffect, { type: 'grant_free_credits' }>,
  ): Promise<void> {
    if (effect.domainLimited) {
      const decision = await this.deps.ledger.hit(
        `signup:domain:${effect.domain}`,
        this.deps.settings.throttles.domainGrants,
      );
      if (!decision.allowed) {
        this.deps.logger.log('info', 'free credits skipped: domain budget used up', {
          domain: effect.domain,
        });
        return;
      }
    }
    await this.deps.ledger.grant(accountId, effect.amount, `signup-grant:${effect.grantKey}`);
    await this.deps.ledger.counter(grantedMarker(effect.grantKey), 1, FOREVER_MS);
  }

  private async sendCode(to: string, code: string, expiresAt: number): Promise<void> {
    const minutes = Math.round((expiresAt - this.deps.clock.now()) / 60_000);
    try {
      await this.deps.mailer.send({
        to,
        subject: `Your tubescribe sign-up code: ${code}`,
        text:
          `Your tubescribe sign-up code is ${code}\n\n` +
          `It is valid for ${minutes} minutes. Give it to the agent that is signing you up; ` +
          'if you did not ask for it, ignore this message.\n',
      });
    } catch (error) {
      this.deps.logger.log('warn', 'sign-up mail failed', {
        error: String((error as Error).message ?? error),
      });
      throw new ApiError('email_failed', 'The code email could not be sent; retry later.', { cause: error });
    }
  }

  private async apply(effect: SignupEffect): Promise<void> {
    const { kv } = this.deps;
    if (effect.type === 'store_pending') {
      await kv.set(`signup:${effect.token}`, effect.record, { ttlMs: effect.ttlMs });
      await kv.set(`signup-index:${effect.record.accountKey}`, effect.token, { ttlMs: effect.ttlMs });
    } else if (effect.type === 'delete_pending') {
      await kv.delete(`signup:${effect.token}`);
      if ((await kv.get<string>(`signup-index:${effect.accountKey}`)) === effect.token) {
        await kv.delete(`signup-index:${effect.accountKey}`);
      }
    }
  }
}
