import { describe, expect, it } from 'vitest';
import {
  admit,
  type BreakerConfig,
  type BreakerState,
  CLOSED,
  ClientBreakers,
  DEFAULT_BREAKER,
  fail,
  report,
  succeed,
} from './client-health.ts';

const C: BreakerConfig = { threshold: 3, cooldownMs: 1000, probeTimeoutMs: 100 };
const T0 = Date.parse('2026-06-01T00:00:00Z');

type Step = ['allow', boolean] | ['ok'] | ['fail'] | ['wait', number];

/** Runs steps on one breaker with a manual clock; returns the final state. */
function run(steps: Step[]): BreakerState {
  let s = CLOSED;
  let now = T0;
  for (const step of steps) {
    if (step[0] === 'wait') now += step[1];
    else if (step[0] === 'ok') s = succeed(s, now);
    else if (step[0] === 'fail') s = fail(s, now, C);
    else {
      const r = admit(s, now, C);
      expect(r.allowed, `allow at +${now - T0} ms in state ${s.state}`).toBe(step[1]);
      s = r.state;
    }
  }
  return s;
}

describe('client health: the breaker state machine', () => {
  it.each<[string, Step[], BreakerState['state'], number]>([
    ['a new breaker is closed and admits', [['allow', true]], 'closed', 0],
    ['two failures in a row stay closed', [['fail'], ['fail'], ['allow', true]], 'closed', 2],
    ['a success resets the count', [['fail'], ['fail'], ['ok'], ['fail'], ['allow', true]], 'closed', 1],
    ['three failures in a row open it: skipped', [['fail'], ['fail'], ['fail'], ['allow', false]], 'open', 3],
    [
      'still open just before the cooldown ends',
      [['fail'], ['fail'], ['fail'], ['wait', 999], ['allow', false]],
      'open',
      3,
    ],
    [
      'after the cooldown: one probe (half-open), the others wait',
      [['fail'], ['fail'], ['fail'], ['wait', 1000], ['allow', true], ['allow', false]],
      'half_open',
      3,
    ],
    [
      'the probe succeeds: closed',
      [['fail'], ['fail'], ['fail'], ['wait', 1000], ['allow', true], ['ok'], ['allow', true]],
      'closed',
      0,
    ],
    [
      'the probe fails: open again for a whole cooldown',
      [
        ['fail'],
        ['fail'],
        ['fail'],
        ['wait', 1000],
        ['allow', true],
        ['fail'],
        ['wait', 999],
        ['allow', false],
      ],
      'open',
      4,
    ],
    [
      'a probe that never reports back is replaced after probeTimeoutMs',
      [['fail'], ['fail'], ['fail'], ['wait', 1000], ['allow', true], ['wait', 100], ['allow', true]],
      'half_open',
      3,
    ],
  ])('%s', (_name, steps, state, failures) => {
    const s = run(steps);
    expect(s.state).toBe(state);
    expect(s.failures).toBe(failures);
  });

  it('reports name, state, last success (ISO) and failures in a row', () => {
    expect(report('VISIONOS', CLOSED)).toEqual({
      name: 'VISIONOS',
      state: 'closed',
      last_success_at: null,
      recent_failures: 0,
    });
    const s = fail(succeed(CLOSED, T0), T0 + 5, C);
    expect(report('WEB', s)).toEqual({
      name: 'WEB',
      state: 'closed',
      last_success_at: '2026-06-01T00:00:00.000Z',
      recent_failures: 1,
    });
  });

  it('ClientBreakers keeps one breaker per client and lists the chain first', () => {
    expect(DEFAULT_BREAKER).toMatchObject({ threshold: 3, cooldownMs: 300_000 });
    const b = new ClientBreakers(['VISIONOS', 'ANDROID'], C);
    for (let i = 0; i < 3; i++) b.failure('VISIONOS', T0);
    b.success('ANDROID', T0);
    expect(b.allow('VISIONOS', T0)).toBe(false);
    expect(b.allow('ANDROID', T0)).toBe(true);
    expect(b.health().map((h) => [h.name, h.state, h.recent_failures])).toEqual([
      ['VISIONOS', 'open', 3],
      ['ANDROID', 'closed', 0],
    ]);
  });
});
