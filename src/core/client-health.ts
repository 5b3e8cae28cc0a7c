/**
 * A circuit breaker per YouTube player client, as a pure state machine (time passed in): a client
 * whose captions come back empty, stalled or PO-gated `threshold` times in a row is skipped
 * (`open`) for `cooldownMs`; then one probe request is let through (`half_open`): success closes
 * it, failure opens it again. A probe that never reports back is replaced after `probeTimeoutMs`.
 * @module
 */
import type { ClientHealth } from '../ports/upstream.ts';

/** Tunables of {@link BreakerState} transitions. */
export interface BreakerConfig {
  /** Failures in a row that open the breaker (default 3). */
  threshold: number;
  /** How long an open breaker skips its client, in ms (default 5 min). */
  cooldownMs: number;
  /** How long a half-open probe may stay unanswered before another one is let through (ms). */
  probeTimeoutMs: number;
}

/** The defaults: 3 failures in a row, 5 minutes open, a probe answers within 30 s. */
export const DEFAULT_BREAKER: BreakerConfig = { threshold: 3, cooldownMs: 300_000, probeTimeoutMs: 30_000 };

/** One client's breaker. Times are epoch milliseconds. */
export interface BreakerState {
  state: 'closed' | 'open' | 'half_open';
  /** Failures in a row since the last success. */
  failures: number;
  /** When the breaker last opened (open) or let its probe through (half_open). */
  since: number;
  lastSuccessAt: number | null;
}

/** A closed breaker without history. */
export const CLOSED: BreakerState = { state: 'closed', failures: 0, since: 0, lastSuccessAt: null };

/**
 * May the client be asked now? Closed: yes. Open: no until the cooldown is over, then yes once
 * (the state becomes half-open: the probe). Half-open: no while the probe is out.
 */
export function admit(
  s: BreakerState,
  now: number,
  c: BreakerConfig,
): { allowed: boolean; state: BreakerState } {
  if (s.state === 'closed') return { allowed: true, state: s };
  const wait = s.state === 'open' ? c.cooldownMs : c.probeTimeoutMs;
  if (now - s.since < wait) return { allowed: false, state: s };
  return { allowed: true, state: { ...s, state: 'half_open', since: now } };
}

/** A success: closed, failures reset. */
export function succeed(s: BreakerState, now: number): BreakerState {
  return { ...s, state: 'closed', failures: 0, since: now, lastSuccessAt: now };
}

/** A failure: counted; opens at the threshold, and at once when it was the half-open probe. */
export function fail(s: BreakerState, now: number, c: BreakerConfig): BreakerState {
  const failures = s.failures + 1;
  if (s.state === 'half_open' || (s.state === 'closed' && failures >= c.threshold))
    return { ...s, state: 'open', failures, since: now };
  return { ...s, failures };
}

/** The operator's view of one client's breaker. */
export function report(name: string, s: BreakerState): ClientHealth {
  return {
    name,
    state: s.state,
    last_success_at: s.lastSuccessAt === null ? null : new Date(s.lastSuccessAt).toISOString(),
    recent_failures: s.failures,
  };
}

/** The breakers of a set of clients (a mutable holder of {@link BreakerState}s). */
export class ClientBreakers {
  private readonly states = new Map<string, BreakerState>();

  /** `names` are reported even before their first outcome. */
  constructor(
    private readonly names: readonly string[],
    private readonly config: BreakerConfig = DEFAULT_BREAKER,
  ) {}

  /** See {@link admit}; records the half-open transition. */
  allow(name: string, now: number): boolean {
    const { allowed, state } = admit(this.get(name), now, this.config);
    this.states.set(name, state);
    return allowed;
  }

  /** Records a success of `name`. */
  success(name: string, now: number): void {
    this.states.set(name, succeed(this.get(name), now));
  }

  /** Records a failure of `name` (empty, stalled or PO-gated captions). */
  failure(name: string, now: number): void {
    this.states.set(name, fail(this.get(name), now, this.config));
  }

  /** Every known client's health, chain order first. */
  health(): ClientHealth[] {
    const names = [...new Set([...this.names, ...this.states.keys()])];
    return names.map((n) => report(n, this.get(n)));
  }

  private get(name: string): BreakerState {
    return this.states.get(name) ?? CLOSED;
  }
}
