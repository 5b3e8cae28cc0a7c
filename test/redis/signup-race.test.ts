/**
 * Consume-once through the agent sign-up (issue 5): concurrent correct verifications of one
 * sign-up, sent to different instances on one Redis, create exactly one account and grant the
 * free credits once.
 */
import { afterEach, expect, it } from 'vitest';
import type { MailMessage } from '../../src/ports/mailer.ts';
import { type Cluster, countStatuses, startCluster } from '../helpers/cluster.ts';
import { describeRedis } from '../helpers/redis.ts';

const json = { 'content-type': 'application/json' };

describeRedis('agent sign-up on 4 instances: concurrent correct verifications', () => {
  let cluster: Cluster | undefined;
  afterEach(async () => {
    await cluster?.close();
    cluster = undefined;
  });

  it.each([2, 50])('%i concurrent verifications with the right code → exactly one 201', async (n) => {
    const mails: MailMessage[] = [];
    cluster = await startCluster({ app: { mailer: { send: async (m) => void mails.push(m) } } });
    const c = cluster;
    const email = `race${n}@gmail.com`;
    const started = await c.at(0).call('/api/agent/signup', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email }),
    });
    expect(started.status).toBe(200);
    const { signup_token } = (await started.json()) as { signup_token: string };
    const code = /\b(\d{6})\b/.exec(mails.find((m) => m.to === email)?.text ?? '')?.[1];
    expect(code).toMatch(/^\d{6}$/);
    const body = JSON.stringify({ signup_token, code });
    const answers = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        c.at(i + 1).call('/api/agent/verify', { method: 'POST', headers: json, body }),
      ),
    );
    const statuses = countStatuses(answers);
    expect(statuses[201]).toBe(1);
    // Everyone else is refused without a key (the token is used up), never a second account.
    expect(Object.keys(statuses).every((s) => s === '201' || Number(s) >= 400)).toBe(true);
    expect(Object.keys(statuses).some((s) => Number(s) >= 500)).toBe(false);
    const winner = answers.find((r) => r.status === 201)!;
    const { api_key, credits } = (await winner.json()) as { api_key: string; credits: number };
    expect(credits).toBe(200);
    // The new key works on another instance (one call: the free plan allows 1 per second), and
    // every instance's ledger sees the free credits granted once.
    const me = await c.at(3).call('/v1/account', { key: api_key });
    expect(me.status).toBe(200);
    const { account_id } = (await me.json()) as { account_id: string };
    for (const instance of c.instances) {
      expect(await instance.ledger.credits(account_id)).toEqual({
        balance: 200,
        reserved: 0,
        spent: 0,
        granted: 200,
      });
    }
  });
});
