/**
 * The webhook of a batch job, end to end: a real receiver on 127.0.0.1 (allowed by
 * `webhooks.allowPrivate`, as `TUBESCRIBE_WEBHOOK_PRIVATE=allow` does) that is down for its first
 * two tries still gets the finished job record, signed, with one event id on every try.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { expectJson, fixture, settle } from '../helpers/http.ts';

interface Delivery {
  eventId: string;
  event: string;
  signature: string;
  body: string;
}

const closers: (() => void)[] = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

/** A receiver answering 503 to its first `failures` deliveries, 200 after. */
async function receiver(failures: number): Promise<{ url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const server = createServer(async (req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    deliveries.push({
      eventId: String(req.headers['tubescribe-event-id']),
      event: String(req.headers['tubescribe-event']),
      signature: String(req.headers['tubescribe-signature']),
      body: Buffer.concat(chunks).toString('utf8'),
    });
    res.writeHead(deliveries.length <= failures ? 503 : 200).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/batch`, deliveries };
}

/** The receiver's side of the signature: the README's 10-line check. */
function verified(secret: string, header: string, body: string): boolean {
  const { t, v1 } = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

describe('batch webhooks', () => {
  it('delivers the signed job record when the job finishes, retrying a receiver that is down', async () => {
    const hook = await receiver(2);
    const f = await fixture(
      { webhooks: { allowPrivate: true }, batch: { webhookRetryDelaysMs: [20, 20, 20] } },
      10,
    );
    const res = await f.post('/v1/batch', {
      tasks: [{ type: 'transcript', video_id: VIDEO }],
      webhook: { url: hook.url },
    });
    const accepted = await expectJson<{ id: string; webhook: { url: string; secret: string } }>(res, 202);
    expect(accepted.webhook.url).toBe(hook.url);
    expect(accepted.webhook.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    for (let i = 0; i < 400 && hook.deliveries.length < 3; i++) await settle(5);

    expect(hook.deliveries).toHaveLength(3);
    expect(new Set(hook.deliveries.map((d) => d.eventId))).toEqual(new Set([`evt_${accepted.id}`]));
    const last = hook.deliveries[2]!;
    expect(last.event).toBe('batch.completed');
    expect(verified(accepted.webhook.secret, last.signature, last.body)).toBe(true);
    expect(verified('whsec_wrong', last.signature, last.body)).toBe(false);
    const record = JSON.parse(last.body) as {
      id: string;
      status: string;
      charged_credits: number;
      webhook: object;
    };
    expect(record).toMatchObject({ id: accepted.id, status: 'completed', charged_credits: 1 });
    expect(record.webhook).toEqual({ url: hook.url });
    // The record a poll returns is the one delivered; the secret is never shown again.
    const polled = await (await f.get(`/v1/batch/${accepted.id}`)).json();
    expect(polled).toEqual(record);
    await settle(100);
    expect(hook.deliveries).toHaveLength(3);
  });
});
