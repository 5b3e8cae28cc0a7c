/**
 * Crash safety (issue 5): every reservation has a lifetime; when the request that holds it dies
 * between reserve and commit, another instance's reconciler returns the credits once the lifetime
 * has passed (not before), and a commit arriving after that is a no-op: nothing is charged twice.
 * `crash-process.test.ts` kills a real process.
 */
import { afterEach, expect, it } from 'vitest';
import { ManualClock } from '../fakes/clock.ts';
import { VIDEO } from '../fakes/upstream.ts';
import { type Cluster, startCluster, waitFor } from '../helpers/cluster.ts';
import { describeRedis } from '../helpers/redis.ts';

const PLANS = { bulk: [{ limit: 1_000_000, window: 1 }] };
const TTL = 120_000;
const TRANSCRIPT = `/v1/transcripts?video_id=${VIDEO}&format=text`;

describeRedis('crash safety on Redis', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it('an instance abandoned mid-request: the other instance reconciles after the lifetime; the late commit is a no-op', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    // Instance 0 does the work and dies; instance 1 runs the reconciler on a timer.
    cluster = await startCluster({
      size: 2,
      ledgerClock: clock,
      app: { plans: PLANS, limits: { reservationTtlMs: TTL } },
      instanceApp: (i) => (i === 1 ? { limits: { reconcileIntervalMs: 20 } } : {}),
    });
    const c = cluster;
    const [doomed, survivor] = c.instances as [(typeof c.instances)[0], (typeof c.instances)[0]];
    const { account_id, api_key } = await c.key(10, 'bulk');

    let open = () => {};
    doomed.upstream.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const pending = doomed.call(TRANSCRIPT, { key: api_key });
    await waitFor(() => doomed.upstream.calls.player === 1);
    // Reserved, the work in progress: now the instance "dies" (its connections are gone).
    expect(await survivor.ledger.credits(account_id)).toEqual({
      balance: 9,
      reserved: 1,
      spent: 0,
      granted: 10,
    });
    const [holdId] = await c.redis.hkeys(`{${c.prefix}c}:holds`);
    expect(holdId).toMatch(/^req_/);
    // The hold keeps its expiry last: account|cost|balance after|expiry.
    const hold = await c.redis.hget(`{${c.prefix}c}:holds`, holdId!);
    expect(Number(hold!.split('|')[3])).toBe(clock.now() + TTL);
    await doomed.ts.close();
    await doomed.storage.close();

    // Within the lifetime nothing is returned, whoever reconciles.
    clock.advance(TTL - 1);
    expect(await survivor.ledger.reconcile()).toBe(0);
    expect((await survivor.ledger.credits(account_id)).reserved).toBe(1);
    // Past it, the survivor's reconciler timer returns the credit.
    clock.advance(2);
    await waitFor(async () => (await survivor.ledger.credits(account_id)).reserved === 0);
    expect(await survivor.ledger.credits(account_id)).toEqual({
      balance: 10,
      reserved: 0,
      spent: 0,
      granted: 10,
    });

    // A commit (or release) of the returned reservation arriving now changes nothing.
    expect(await survivor.ledger.commit(holdId!)).toBe(false);
    expect(await survivor.ledger.release(holdId!)).toBe(false);
    // The dead instance's own request wakes up: it cannot record a charge (no connection), so it
    // does not answer 200; the account is untouched.
    open();
    const late = await pending;
    expect(late.status).toBe(503);
    expect(((await late.json()) as { error: { code: string; retryable: boolean } }).error).toMatchObject({
      code: 'storage_unavailable',
      retryable: true,
    });
    expect(await survivor.ledger.credits(account_id)).toEqual({
      balance: 10,
      reserved: 0,
      spent: 0,
      granted: 10,
    });

    // The account goes on working on the survivor, charged exactly once per 200.
    expect((await survivor.call(TRANSCRIPT, { key: api_key })).status).toBe(200);
    expect(await survivor.ledger.credits(account_id)).toEqual({
      balance: 9,
      reserved: 0,
      spent: 1,
      granted: 10,
    });
  });

  it('an instance that outlives its reservation: its late commit finds nothing and charges nothing', async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    cluster = await startCluster({
      size: 2,
      ledgerClock: clock,
      app: { plans: PLANS, limits: { reservationTtlMs: TTL } },
    });
    const c = cluster;
    const [slow, other] = c.instances as [(typeof c.instances)[0], (typeof c.instances)[0]];
    const { account_id, api_key } = await c.key(10, 'bulk');
    let open = () => {};
    slow.upstream.gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const pending = slow.call(TRANSCRIPT, { key: api_key });
    await waitFor(() => slow.upstream.calls.player === 1);
    clock.advance(TTL + 1);
    expect(await other.ledger.reconcile()).toBe(1);
    open();
    await (await pending).text();
    // Whatever it answered, the reservation was returned once and never charged.
    expect(await other.ledger.credits(account_id)).toEqual({
      balance: 10,
      reserved: 0,
      spent: 0,
      granted: 10,
    });
    expect(await c.redis.hlen(`{${c.prefix}c}:holds`)).toBe(0);
  });
});
