import type { Redis } from 'ioredis';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { intBetween, mulberry32 } from '../../../bench/prng.ts';
import { ManualClock } from '../../../test/fakes/clock.ts';
import { connect, deleteKeys, describeRedis, uniquePrefix } from '../../../test/helpers/redis.ts';
import type { AdmitPayment, RateRule } from '../../ports/ledger.ts';
import { createRedisLedger } from './ledger.ts';

/** One payment of a scenario: when (ms after the round's start), whose, under which rules. */
interface Step {
  at: number;
  bucket: string;
  rules: RateRule[];
  payment: AdmitPayment;
}

const RULE_SETS: RateRule[][] = [
  [{ limit: 4, window: 1 }],
  [
    { limit: 50, window: 60 },
    { limit: 6, window: 2 },
  ],
  [{ limit: 9, window: 'utc-day' }],
];

/**
 * Rounds of payments: several accounts (one always short), small limits, free answers, and
 * repeats (a retry: the same payment at the same moment, so one by one it meets the first
 * attempt's kept answer in the same slice, as it does when sent together).
 */
function scenario(seed: number): Step[][] {
  const random = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  let ids = 0;
  return Array.from({ length: 6 }, () => {
    const steps: Step[] = [];
    for (let i = intBetween(random, 1, 45); i > 0; i--) {
      if (steps.length > 0 && random() < 0.15) {
        steps.push(pick(steps));
        continue;
      }
      const account = pick(['a', 'b', 'c']);
      const price = intBetween(random, 1, 3);
      steps.push({
        at: intBetween(random, 0, 2500),
        bucket: `acct:${account}`,
        rules: RULE_SETS[intBetween(random, 0, RULE_SETS.length - 1)]!,
        payment: {
          account,
          price,
          cost: random() < 0.2 ? 0 : price,
          paymentId: `p${ids++}`,
          usage: { operation: pick(['transcript', 'search']) },
        },
      });
    }
    return steps.sort((x, y) => x.at - y.at);
  });
}

describeRedis(
  'Redis ledger: payments sent together (one script call a turn) equal the same payments one by one',
  () => {
    let client: Redis;
    const prefixes: string[] = [];
    beforeEach(async () => {
      client = await connect();
    });
    afterEach(async () => {
      for (const prefix of prefixes.splice(0)) await deleteKeys(client, prefix);
      await client.quit();
    });

    /**
     * Every key under `prefix` (named without it): a hash's fields in their order (sorted in a
     * hash table, which has none: the payments hashes), and whether it has a lifetime.
     */
    async function state(prefix: string): Promise<Record<string, { fields: string[][]; expires: boolean }>> {
      const out: Record<string, { fields: string[][]; expires: boolean }> = {};
      for (const key of (await client.keys(`*${prefix}*`)).sort()) {
        const flat = (await client.call('HGETALL', key)) as string[];
        const fields: string[][] = [];
        for (let i = 0; i < flat.length; i += 2) fields.push([flat[i]!, flat[i + 1]!]);
        if ((await client.object('ENCODING', key)) === 'hashtable')
          fields.sort(([a], [b]) => (a! < b! ? -1 : 1));
        out[key.replace(prefix, '<prefix>')] = { fields, expires: (await client.pttl(key)) > 0 };
      }
      return out;
    }

    /** A fresh key prefix, whose keys are deleted after the test. */
    function freshPrefix(): string {
      const prefix = uniquePrefix('ledger-batch');
      prefixes.push(prefix);
      return prefix;
    }

    /**
     * A ledger on a fresh prefix where account `a` holds 10 credits, and `pay`: one payment of
     * `price` by `a` under `rules`.
     */
    async function ledgerPaying(rules: readonly RateRule[], price: number) {
      const prefix = freshPrefix();
      const ledger = createRedisLedger({ client, prefix });
      await ledger.grant('a', 10, 'ga');
      const pay = (paymentId: string, operation: string) =>
        ledger.admitPaid!('acct:a', rules, {
          account: 'a',
          price,
          cost: price,
          paymentId,
          usage: { operation },
        });
      return { prefix, ledger, pay };
    }

    /** Runs the scenario on a fresh prefix; `together`: each round's payments in one turn. */
    async function run(rounds: Step[][], together: boolean) {
      const prefix = freshPrefix();
      const clock = new ManualClock('2026-03-01T23:59:57.000Z'); // the UTC day turns in round 1
      const ledger = createRedisLedger({ client, prefix, clock });
      await ledger.grant('a', 40, 'ga');
      await ledger.grant('b', 6, 'gb');
      const replies: unknown[] = [];
      const begin = clock.now();
      for (const [round, steps] of rounds.entries()) {
        const start = begin + round * 1700;
        const pay = (step: Step) => {
          clock.set(start + step.at);
          return ledger.admitPaid!(step.bucket, step.rules, step.payment).then(
            (result) => result,
            (error: Error) => ({ error: error.message }),
          );
        };
        if (together) replies.push(...(await Promise.all(steps.map(pay))));
        else for (const step of steps) replies.push(await pay(step));
      }
      const credits = await Promise.all(['a', 'b', 'c'].map((id) => ledger.credits(id)));
      return { replies, credits, state: await state(prefix) };
    }

    it('every hash the payments write but the account and the grants has a lifetime (windows, kept payments, usage days)', async () => {
      const { prefix, ledger, pay } = await ledgerPaying(
        [
          { limit: 100, window: 60 },
          { limit: 100, window: 'utc-day' },
        ],
        1,
      );
      await Promise.all([pay('p1', 'transcript'), pay('p2', 'search'), pay('p3', 'transcript')]);
      const lifetimes: Record<string, boolean> = {};
      for (const key of await client.keys(`*${prefix}*`))
        lifetimes[key.replace(prefix, '')] = (await client.pttl(key)) > 0;
      // Each kind of key (the payments may straddle two 100 ms slices: one hash each).
      const kinds = [...new Set(Object.keys(lifetimes).map((key) => key.split(':')[1]))].sort();
      expect(kinds).toEqual(['acct', 'grants', 'paid', 'rl', 'use', 'use-all']);
      expect(Object.keys(lifetimes).filter((key) => key.includes(':rl:'))).toHaveLength(2);
      for (const [key, expires] of Object.entries(lifetimes))
        expect([key, expires]).toEqual([key, !/^{c}:(acct:|grants$)/.test(key)]);
      expect(await ledger.usage!('a', [new Date().toISOString().slice(0, 10)])).toMatchObject([
        { requests: 3, credits: 3, by_operation: { transcript: 2, search: 1 } },
      ]);
    });

    it('payments sent together keep their own operation, spaces and all, and their own id', async () => {
      const { ledger, pay } = await ledgerPaying([{ limit: 100, window: 60 }], 2);
      const [first, second, repeat] = await Promise.all([
        pay('p 1', 'an operation with spaces'),
        pay('p2', 'search'),
        pay('p 1', 'an operation with spaces'),
      ]);
      expect([first?.paid, second?.paid, repeat?.paid]).toEqual([
        { ok: true, balance: 8 },
        { ok: true, balance: 6 },
        { ok: true, balance: 8 },
      ]);
      expect(await ledger.usage!('a', [new Date().toISOString().slice(0, 10)])).toMatchObject([
        { requests: 2, credits: 4, by_operation: { 'an operation with spaces': 1, search: 1 } },
      ]);
    });

    for (const seed of [2, 3, 4, 5, 6]) {
      it(`scenario ${seed}: the same answers, balances, windows, usage and kept payments`, async () => {
        const rounds = scenario(seed);
        const alone = await run(rounds, false);
        const together = await run(rounds, true);
        expect(together.replies).toEqual(alone.replies);
        expect(together.credits).toEqual(alone.credits);
        expect(together.state).toEqual(alone.state);
        // The scenario reaches what it means to: refusals by a rule, short balances, paid answers.
        const results = alone.replies as { decision?: { allowed: boolean }; paid?: { ok: boolean } }[];
        expect(results.some((r) => r.decision?.allowed === false)).toBe(true);
        expect(results.some((r) => r.paid?.ok === false)).toBe(true);
        expect(results.filter((r) => r.paid?.ok).length).toBeGreaterThan(5);
        expect(rounds.some((steps) => new Set(steps).size < steps.length)).toBe(true); // repeats
      });
    }
  },
);
