/**
 * Answers from memory, paid in one ledger step, on the embedded ledger (memory storage): a
 * transcript this instance holds is made first, then admitted and paid with one `admitPaid`,
 * instead of admission with a reservation, the work and a commit. The answers, the refusals, their
 * headers and the books are those of the usual path (the same on Redis: test/redis/paid-from-memory).
 */
import { describe, expect, it } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { expectError, fixture } from '../helpers/http.ts';
import { countCalls } from '../helpers/ledger-calls.ts';

const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}&format=text`;

describe('answers from memory on the embedded ledger', () => {
  it('a cached transcript costs one ledger step, with the same answer, headers and charge', async () => {
    const f = await fixture({}, 3);
    const calls = countCalls(f.ts.ports.ledger);
    const cold = await f.get(TRANSCRIPT);
    expect(cold.status).toBe(200);
    expect(cold.headers.get('X-Cache')).toBe('MISS');
    expect(calls).toEqual({ admit: 1, commit: 1 });

    const warm = await f.get(TRANSCRIPT);
    expect(warm.status).toBe(200);
    expect(await warm.text()).toBe(await cold.text());
    expect(warm.headers.get('X-Cache')).toBe('HIT');
    expect(warm.headers.get('X-Credits-To-Deduct')).toBe('1');
    expect(warm.headers.get('X-RateLimit-Limit')).toBe(cold.headers.get('X-RateLimit-Limit'));
    expect(Number(warm.headers.get('X-RateLimit-Remaining'))).toBeLessThan(
      Number(cold.headers.get('X-RateLimit-Remaining')),
    );
    expect(calls).toEqual({ admit: 1, commit: 1, admitPaid: 1 });
    expect(await f.ts.ports.ledger.credits(f.accountId)).toEqual({
      balance: 1,
      reserved: 0,
      spent: 2,
      granted: 3,
    });
    const usage = (await (await f.get('/v1/usage')).json()) as {
      days: { requests: number; credits: number; by_operation: Record<string, number> }[];
    };
    expect(usage.days.at(-1)).toMatchObject({ requests: 2, credits: 2, by_operation: { transcript: 2 } });
  });

  it('refuses a cached answer over the balance (402) or the rate limit (429) with their headers, free', async () => {
    const poor = await fixture({}, 1);
    expect((await poor.get(TRANSCRIPT)).status).toBe(200); // fills the cache
    const calls = countCalls(poor.ts.ports.ledger);
    const short = await poor.get(TRANSCRIPT);
    expect(short.headers.get('X-RateLimit-Limit')).not.toBeNull();
    expect((await expectError(short, 402, 'insufficient_credits')).details).toEqual({
      required: 1,
      balance: 0,
    });
    expect(calls).toEqual({ admitPaid: 1 });
    expect(await poor.ts.ports.ledger.credits(poor.accountId)).toEqual({
      balance: 0,
      reserved: 0,
      spent: 1,
      granted: 1,
    });

    const slow = await fixture({ plans: { slow: [{ limit: 2, window: 60 }] } }, 10, { plan: 'slow' });
    for (let i = 0; i < 2; i++) expect((await slow.get(TRANSCRIPT)).status).toBe(200);
    const refused = await slow.get(TRANSCRIPT);
    expect(refused.headers.get('Retry-After')).not.toBeNull();
    expect(refused.headers.get('X-RateLimit-Remaining')).toBe('0');
    await expectError(refused, 429, 'rate_limited');
    expect(await slow.ts.ports.ledger.credits(slow.accountId)).toMatchObject({ spent: 2, reserved: 0 });
  });
});
