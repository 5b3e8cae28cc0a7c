/**
 * The Ledger contract: every Ledger implementation (embedded, Redis, Deno KV) runs this suite
 * unchanged. It proves the promises written as MUSTs in src/ports/ledger.ts.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Ledger, RateRule } from '../../src/ports/ledger.ts';
import { ManualClock } from '../fakes/clock.ts';

/** What a factory hands the suite. */
export interface LedgerUnderTest {
  ledger: Ledger;
  /** Builds a fresh ledger on the same backing storage (a restart), when the backend persists. */
  restart?: () => Promise<Ledger>;
  cleanup?: () => Promise<void>;
}

/** Figures the suite records, for the closing notes. */
export const ledgerFigures: Record<string, string> = {};

const HOUR = 3_600_000;

/**
 * Runs the contract. `create` builds a ledger that reads time from `clock` and whose accounts and
 * keys are fresh (use a unique prefix per call).
 */
export function ledgerContract(name: string, create: (clock: ManualClock) => Promise<LedgerUnderTest>): void {
  describe(`Ledger contract: ${name}`, () => {
    let clock: ManualClock;
    let subject: LedgerUnderTest;
    let ledger: Ledger;
    beforeEach(async () => {
      clock = new ManualClock('2026-03-01T10:00:00.000Z');
      subject = await create(clock);
      ledger = subject.ledger;
    });
    afterEach(async () => {
      await ledger.close?.();
      await subject.cleanup?.();
    });

    const invariant = async (account: string) => {
      const c = await ledger.credits(account);
      expect(c.granted).toBe(c.balance + c.reserved + c.spent);
      expect(c.balance).toBeGreaterThanOrEqual(0);
      return c;
    };

    it('knows nothing of an unknown account', async () => {
      expect(await ledger.credits('nobody')).toEqual({ balance: 0, reserved: 0, spent: 0, granted: 0 });
    });

    it('applies a grant once per idempotency key', async () => {
      expect(await ledger.grant('a', 100, 'g1')).toEqual({ applied: true, balance: 100 });
      expect(await ledger.grant('a', 100, 'g1')).toEqual({ applied: false, balance: 100 });
      expect(await ledger.grant('b', 100, 'g1')).toEqual({ applied: false, balance: 0 });
      expect(await ledger.grant('a', 50, 'g2')).toEqual({ applied: true, balance: 150 });
      await invariant('a');
    });

    it('applies exactly one of many concurrent grants with one key', async () => {
      const results = await Promise.all(Array.from({ length: 50 }, () => ledger.grant('a', 10, 'same')));
      expect(results.filter((r) => r.applied)).toHaveLength(1);
      expect((await ledger.credits('a')).balance).toBe(10);
    });

    it('reserves only what the balance covers', async () => {
      await ledger.grant('a', 5, 'g');
      expect(await ledger.reserve('a', 3, 'r1', HOUR)).toEqual({ ok: true, balance: 2 });
      expect(await ledger.reserve('a', 3, 'r2', HOUR)).toEqual({ ok: false, balance: 2 });
      expect(await ledger.reserve('nobody', 1, 'r3', HOUR)).toEqual({ ok: false, balance: 0 });
      expect(await invariant('a')).toMatchObject({ balance: 2, reserved: 3 });
    });

    it('is idempotent per reservation id', async () => {
      await ledger.grant('a', 5, 'g');
      const first = await ledger.reserve('a', 2, 'r1', HOUR);
      expect(await ledger.reserve('a', 2, 'r1', HOUR)).toEqual(first);
      expect(await invariant('a')).toMatchObject({ balance: 3, reserved: 2 });
    });

    it('lets exactly 100 of 1,000 concurrent reserves against a balance of 100 succeed', async () => {
      await ledger.grant('hot', 100, 'g');
      const started = performance.now();
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) => ledger.reserve('hot', 1, `r${i}`, HOUR)),
      );
      const ms = performance.now() - started;
      expect(results.filter((r) => r.ok)).toHaveLength(100);
      expect(await invariant('hot')).toMatchObject({ balance: 0, reserved: 100 });
      // Commit half, release half: the books still add up exactly.
      await Promise.all(
        results.map((r, i) => (r.ok ? (i % 2 ? ledger.commit(`r${i}`) : ledger.release(`r${i}`)) : null)),
      );
      const after = await invariant('hot');
      expect(after.reserved).toBe(0);
      expect(after.balance + after.spent).toBe(100);
      ledgerFigures[`${name}: 1,000 concurrent reserves`] =
        `${results.filter((r) => r.ok).length} succeeded in ${ms.toFixed(0)} ms`;
    });

    it('commits idempotently; commit after release and release after commit change nothing', async () => {
      await ledger.grant('a', 10, 'g');
      await ledger.reserve('a', 4, 'c', HOUR);
      expect(await ledger.commit('c')).toBe(true);
      expect(await ledger.commit('c')).toBe(false);
      expect(await ledger.release('c')).toBe(false);
      expect(await invariant('a')).toMatchObject({ balance: 6, reserved: 0, spent: 4 });

      await ledger.reserve('a', 3, 'r', HOUR);
      expect(await ledger.release('r')).toBe(true);
      expect(await ledger.release('r')).toBe(false);
      expect(await ledger.commit('r')).toBe(false);
      expect(await invariant('a')).toMatchObject({ balance: 6, reserved: 0, spent: 4 });
      expect(await ledger.commit('unknown')).toBe(false);
      expect(await ledger.release('unknown')).toBe(false);
    });

    it('settles a reservation once under concurrent commits and releases', async () => {
      await ledger.grant('a', 10, 'g');
      await ledger.reserve('a', 10, 'x', HOUR);
      const outcomes = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? ledger.commit('x') : ledger.release('x'))),
      );
      expect(outcomes.filter(Boolean)).toHaveLength(1);
      const c = await invariant('a');
      expect(c.reserved).toBe(0);
      expect(c.balance + c.spent).toBe(10);
    });

    it('returns the credits of expired reservations on reconcile, and never charges them', async () => {
      await ledger.grant('a', 10, 'g');
      await ledger.reserve('a', 4, 'dead', 60_000);
      await ledger.reserve('a', 1, 'alive', HOUR);
      clock.advance(59_999);
      expect(await ledger.reconcile()).toBe(0);
      clock.advance(1);
      expect(await ledger.reconcile()).toBe(1);
      expect(await ledger.commit('dead')).toBe(false);
      expect(await invariant('a')).toMatchObject({ balance: 9, reserved: 1, spent: 0 });
    });

    it('keeps the books exact under random operation sequences (property)', async () => {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(
            fc.oneof(
              fc.record({
                op: fc.constant('grant' as const),
                amount: fc.integer({ min: 0, max: 20 }),
                key: fc.integer({ min: 0, max: 5 }),
              }),
              fc.record({
                op: fc.constant('reserve' as const),
                cost: fc.integer({ min: 0, max: 8 }),
                id: fc.integer({ min: 0, max: 9 }),
              }),
              fc.record({
                op: fc.constantFrom('commit' as const, 'release' as const),
                id: fc.integer({ min: 0, max: 9 }),
              }),
            ),
            { maxLength: 30 },
          ),
          async (ops) => {
            const account = `prop${run++}`;
            await Promise.all(
              ops.map((o) => {
                if (o.op === 'grant') return ledger.grant(account, o.amount, `${account}:g${o.key}`);
                if (o.op === 'reserve') return ledger.reserve(account, o.cost, `${account}:r${o.id}`, HOUR);
                return o.op === 'commit'
                  ? ledger.commit(`${account}:r${o.id}`)
                  : ledger.release(`${account}:r${o.id}`);
              }),
            );
            await invariant(account);
          },
        ),
        { numRuns: 40 },
      );
    });

    describe('rate limits', () => {
      const perSecond: RateRule[] = [{ limit: 10, window: 1 }];

      it('admits exactly the limit of 100 concurrent hits', async () => {
        const decisions = await Promise.all(Array.from({ length: 100 }, () => ledger.hit('b1', perSecond)));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(10);
        const refused = decisions.find((d) => !d.allowed)!;
        expect(refused.blockedBy).toBe(0);
        expect(refused.rules[0]!.remaining).toBe(0);
      });

      it('opens a new window when the old one ends', async () => {
        clock.set('2026-03-01T10:00:00.000Z');
        for (let i = 0; i < 10; i++) expect((await ledger.hit('b2', perSecond)).allowed).toBe(true);
        expect((await ledger.hit('b2', perSecond)).allowed).toBe(false);
        clock.advance(1000);
        expect((await ledger.hit('b2', perSecond)).allowed).toBe(true);
      });

      it('counts a hit in every rule or in none', async () => {
        const rules: RateRule[] = [
          { limit: 3, window: 60 },
          { limit: 2, window: 1 },
        ];
        expect((await ledger.hit('b3', rules)).allowed).toBe(true);
        expect((await ledger.hit('b3', rules)).allowed).toBe(true);
        const refused = await ledger.hit('b3', rules);
        expect(refused.allowed).toBe(false);
        expect(refused.blockedBy).toBe(1);
        clock.advance(1000);
        // The refused hit was not counted in the minute rule: one more passes, then the minute is full.
        const third = await ledger.hit('b3', rules);
        expect(third.allowed).toBe(true);
        expect(third.rules[0]!.remaining).toBe(0);
        const fourth = await ledger.hit('b3', rules);
        expect(fourth.allowed).toBe(false);
        expect(fourth.blockedBy).toBe(0);
      });

      it('resets a daily rule at 00:00 UTC', async () => {
        const daily: RateRule[] = [{ limit: 2, window: 'utc-day' }];
        clock.set('2026-03-01T23:59:59.000Z');
        expect((await ledger.hit('d', daily)).allowed).toBe(true);
        expect((await ledger.hit('d', daily)).allowed).toBe(true);
        const refused = await ledger.hit('d', daily);
        expect(refused.allowed).toBe(false);
        expect(refused.rules[0]!.resetAt).toBe(Date.parse('2026-03-02T00:00:00.000Z'));
        clock.set('2026-03-02T00:00:00.000Z');
        expect((await ledger.hit('d', daily)).allowed).toBe(true);
      });
    });

    describe('consumeOnce and counter', () => {
      it('lets exactly one of 50 concurrent callers consume a key', async () => {
        const wins = await Promise.all(Array.from({ length: 50 }, () => ledger.consumeOnce('token', 60_000)));
        expect(wins.filter(Boolean)).toHaveLength(1);
        clock.advance(60_000);
        expect(await ledger.consumeOnce('token', 60_000)).toBe(true);
      });

      it('increments atomically and expires a fixed window after the first increment', async () => {
        const values = await Promise.all(Array.from({ length: 100 }, () => ledger.counter('n', 1, 10_000)));
        expect([...values].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
        expect(await ledger.counter('n', 0, 10_000)).toBe(100);
        clock.advance(10_000);
        expect(await ledger.counter('n', 0, 10_000)).toBe(0);
        expect(await ledger.counter('n', 2, 10_000)).toBe(2);
      });
    });

    describe('usage metering', () => {
      const days = ['2026-02-28', '2026-03-01', '2026-03-02'];
      /** The ledger's usage methods; every ledger of this project meters. */
      const metering = () => {
        const { usage, usageTotals, meter } = ledger;
        if (!usage || !usageTotals || !meter) throw new Error('this ledger does not meter usage');
        return {
          usage: usage.bind(ledger),
          usageTotals: usageTotals.bind(ledger),
          meter: meter.bind(ledger),
        };
      };

      it('counts metered commits, free releases and free requests exactly, per account and UTC day', async () => {
        const { usage, usageTotals, meter } = metering();
        await ledger.grant('a', 100, 'ga');
        await ledger.grant('b', 100, 'gb');
        // 2026-03-01: a commits 3 transcripts (2 credits each) concurrently, one search (1),
        // one free cache hit (released), two free requests; b commits one transcript.
        for (let i = 0; i < 3; i++) await ledger.reserve('a', 2, `t${i}`, HOUR);
        await ledger.reserve('a', 1, 's', HOUR);
        await ledger.reserve('a', 1, 'hit', HOUR);
        await ledger.reserve('b', 2, 'bt', HOUR);
        await Promise.all([
          ...[0, 1, 2].map((i) => ledger.commit(`t${i}`, { operation: 'transcript' })),
          ledger.commit('s', { operation: 'search_page' }),
          ledger.release('hit', { operation: 'transcript' }),
          meter('a', { operation: 'account' }),
          meter('a', { operation: 'basic_info' }),
          ledger.commit('bt', { operation: 'transcript' }),
        ]);
        // Repeats and unmetered settlements count nothing.
        expect(await ledger.commit('t0', { operation: 'transcript' })).toBe(false);
        expect(await ledger.release('hit', { operation: 'transcript' })).toBe(false);
        await ledger.reserve('a', 1, 'plain', HOUR);
        await ledger.commit('plain');
        // The next UTC day: one more free request for a.
        clock.set('2026-03-02T00:00:01.000Z');
        await meter('a', { operation: 'account' });

        expect(await usage('a', days)).toEqual([
          {
            date: '2026-03-01',
            requests: 7,
            credits: 7,
            by_operation: { transcript: 4, search_page: 1, account: 1, basic_info: 1 },
          },
          { date: '2026-03-02', requests: 1, credits: 0, by_operation: { account: 1 } },
        ]);
        expect(await usage('b', days)).toEqual([
          { date: '2026-03-01', requests: 1, credits: 2, by_operation: { transcript: 1 } },
        ]);
        expect(await usage('nobody', days)).toEqual([]);
        expect(await usageTotals(days)).toEqual([
          {
            date: '2026-03-01',
            requests: 8,
            credits: 9,
            by_operation: { transcript: 5, search_page: 1, account: 1, basic_info: 1 },
          },
          { date: '2026-03-02', requests: 1, credits: 0, by_operation: { account: 1 } },
        ]);
        // The books agree: a spent 2 × 3 + 1 + 1 (the unmetered commit).
        expect((await invariant('a')).spent).toBe(8);
      });

      it('counts each of 60 concurrent metered commits once', async () => {
        const { usage } = metering();
        await ledger.grant('c', 60, 'gc');
        await Promise.all(Array.from({ length: 60 }, (_, i) => ledger.reserve('c', 1, `c${i}`, HOUR)));
        await Promise.all(
          Array.from({ length: 60 }, (_, i) => ledger.commit(`c${i}`, { operation: 'transcript' })),
        );
        await Promise.all(
          Array.from({ length: 60 }, (_, i) => ledger.commit(`c${i}`, { operation: 'transcript' })),
        );
        expect(await usage('c', days)).toEqual([
          { date: '2026-03-01', requests: 60, credits: 60, by_operation: { transcript: 60 } },
        ]);
      });

      it("records a key's last use at most once per gap", async () => {
        const { touchKey, keysLastUsed } = ledger;
        if (!touchKey || !keysLastUsed) throw new Error("this ledger does not record keys' last uses");
        const t0 = clock.now();
        const first = await Promise.all(
          Array.from({ length: 10 }, () => touchKey.call(ledger, 'k1', 60_000)),
        );
        expect(first.filter(Boolean)).toHaveLength(1);
        clock.advance(59_000);
        expect(await touchKey.call(ledger, 'k1', 60_000)).toBe(false);
        expect(await keysLastUsed.call(ledger, ['k1', 'k2'])).toEqual({ k1: t0 });
        clock.advance(1_000);
        expect(await touchKey.call(ledger, 'k1', 60_000)).toBe(true);
        expect(await touchKey.call(ledger, 'k2', 60_000)).toBe(true);
        expect(await keysLastUsed.call(ledger, ['k1', 'k2', 'k3'])).toEqual({
          k1: t0 + 60_000,
          k2: t0 + 60_000,
        });
        expect(await keysLastUsed.call(ledger, [])).toEqual({});
      });
    });

    describe('payments: admission and payment in one step (admitPaid)', () => {
      const day = '2026-03-01';
      const rules: RateRule[] = [{ limit: 3, window: 60 }];
      /** Pays `price` (spending `cost`) by `account` under `under`; skips the test without admitPaid. */
      const payer = (ctx: { skip(): void }) => {
        const admitPaid = ledger.admitPaid?.bind(ledger);
        if (!admitPaid) {
          ctx.skip();
          throw new Error('unreachable');
        }
        return (id: string, price = 2, cost = price, account = 'a', under = rules) =>
          admitPaid(`acct:${account}`, under, {
            account,
            price,
            cost,
            paymentId: id,
            usage: { operation: 'transcript' },
          });
      };

      it('counts the hit, spends the cost and meters it, holding nothing; a refused hit pays nothing', async (ctx) => {
        const pay = payer(ctx);
        await ledger.grant('a', 10, 'g');
        const first = await pay('p1');
        expect(first.decision.allowed).toBe(true);
        expect(first.decision.rules[0]).toMatchObject({ limit: 3, remaining: 2 });
        expect(first.paid).toEqual({ ok: true, balance: 8 });
        expect(await invariant('a')).toEqual({ balance: 8, reserved: 0, spent: 2, granted: 10 });
        expect((await pay('p2')).paid).toEqual({ ok: true, balance: 6 });
        // The same window counts the other paths' hits too.
        expect((await ledger.hit('acct:a', rules)).allowed).toBe(true);
        const refused = await pay('p3');
        expect(refused.decision.allowed).toBe(false);
        expect(refused.paid).toBeUndefined();
        expect(await invariant('a')).toEqual({ balance: 6, reserved: 0, spent: 4, granted: 10 });
        expect(await ledger.usage?.('a', [day])).toEqual([
          { date: day, requests: 2, credits: 4, by_operation: { transcript: 2 } },
        ]);
      });

      it('pays nothing when the balance is short of the price; a free answer needs its price too and is metered with no credits', async (ctx) => {
        const pay = payer(ctx);
        await ledger.grant('a', 10, 'g');
        expect(await pay('big', 11)).toMatchObject({ paid: { ok: false, balance: 10 } });
        expect(await pay('free-big', 11, 0)).toMatchObject({ paid: { ok: false, balance: 10 } });
        expect(await pay('free', 1, 0)).toMatchObject({ paid: { ok: true, balance: 10 } });
        expect(await invariant('a')).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
        expect(await ledger.usage?.('a', [day])).toEqual([
          { date: day, requests: 1, credits: 0, by_operation: { transcript: 1 } },
        ]);
      });

      it('lets exactly 50 of 100 concurrent payments against a balance of 50 through', async (ctx) => {
        const pay = payer(ctx);
        await ledger.grant('c', 50, 'gc');
        const results = await Promise.all(
          Array.from({ length: 100 }, (_, i) => pay(`c${i}`, 1, 1, 'c', [{ limit: 1000, window: 60 }])),
        );
        expect(results.filter((r) => r.paid?.ok)).toHaveLength(50);
        expect(await invariant('c')).toEqual({ balance: 0, reserved: 0, spent: 50, granted: 50 });
        expect(await ledger.usage?.('c', [day])).toEqual([
          { date: day, requests: 50, credits: 50, by_operation: { transcript: 50 } },
        ]);
      });

      it('keeps payments and their metering across a restart', async (ctx) => {
        const pay = payer(ctx);
        if (!subject.restart) return ctx.skip();
        await ledger.grant('a', 10, 'g');
        await pay('p1', 3);
        await pay('p2', 1, 0);
        await ledger.close?.();
        ledger = await subject.restart();
        expect(await ledger.credits('a')).toEqual({ balance: 7, reserved: 0, spent: 3, granted: 10 });
        expect(await ledger.usage?.('a', [day])).toEqual([
          { date: day, requests: 2, credits: 3, by_operation: { transcript: 2 } },
        ]);
      });
    });

    it('keeps balances, holds, grants and one-time keys across a restart', async (ctx) => {
      if (!subject.restart) return ctx.skip();
      await ledger.grant('a', 10, 'g');
      await ledger.reserve('a', 3, 'held', HOUR);
      await ledger.reserve('a', 2, 'spent', HOUR);
      await ledger.commit('spent');
      await ledger.consumeOnce('once', HOUR);
      await ledger.counter('ctr', 5, HOUR);
      await ledger.meter?.('a', { operation: 'account' });
      await ledger.touchKey?.('k', 60_000);
      await ledger.close?.();
      ledger = await subject.restart();
      expect(await ledger.credits('a')).toEqual({ balance: 5, reserved: 3, spent: 2, granted: 10 });
      expect(await ledger.grant('a', 10, 'g')).toMatchObject({ applied: false });
      expect(await ledger.consumeOnce('once', HOUR)).toBe(false);
      expect(await ledger.counter('ctr', 1, HOUR)).toBe(6);
      expect(await ledger.release('held')).toBe(true);
      expect((await ledger.credits('a')).balance).toBe(8);
      expect(await ledger.usage?.('a', ['2026-03-01'])).toEqual([
        { date: '2026-03-01', requests: 1, credits: 0, by_operation: { account: 1 } },
      ]);
      expect(await ledger.keysLastUsed?.(['k'])).toEqual({ k: clock.now() });
    });
  });
}
