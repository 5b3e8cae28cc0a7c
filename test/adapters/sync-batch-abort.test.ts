/**
 * A synchronous batch is charged like one request (decisions.md: commit on HTTP 200, release on
 * anything else): a client that disconnects mid-batch, over a real socket, after some items
 * finished, pays nothing, and no credit stays reserved.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../../adapters/node/index.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';
import { settle } from '../helpers/http.ts';

const ADMIN = 'sync-batch-admin-token-0123456789';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** An upstream whose player call for `slow` waits for `open()`; every other video answers at once. */
function upstreamWithSlowVideo(slow: string): { upstream: FakeUpstream; open: () => void } {
  const upstream = new FakeUpstream();
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const data = upstream.players.get(VIDEO)!;
  for (const id of ['aaaaaaaaaaa', slow]) upstream.players.set(id, { ...data, videoId: id });
  const player = upstream.player.bind(upstream);
  upstream.player = async (id, o) => {
    if (id === slow) {
      await new Promise<void>((resolve, reject) => {
        gate.then(resolve);
        o?.signal?.addEventListener('abort', () => reject(o.signal?.reason), { once: true });
      });
    }
    return player(id, o);
  };
  return { upstream, open };
}

describe('POST /v1/transcripts/batch and a client that leaves', () => {
  it('charges nothing and holds nothing when the client disconnects after some items finished', async () => {
    const slow = 'zzzzzzzzzzz';
    const { upstream, open } = upstreamWithSlowVideo(slow);
    const server = await serve({
      port: 0,
      app: { adminToken: ADMIN, logger: silentLogger, upstream, limits: { reconcileIntervalMs: 0 } },
    });
    stops.push(() => server.close());
    const created = await fetch(`${server.url}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 10, plan: 'paid' }),
    });
    const { api_key: key, account_id: account } = (await created.json()) as {
      api_key: string;
      account_id: string;
    };

    const client = new AbortController();
    const request = fetch(`${server.url}/v1/transcripts/batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ video_ids: [VIDEO, 'aaaaaaaaaaa', slow], concurrency: 3 }),
      signal: client.signal,
    }).catch((error: unknown) => error);
    // Two items finish (their captions were fetched); the third waits. All three hold their price.
    for (let i = 0; i < 200 && (upstream.calls.captions ?? 0) < 2; i++) await settle(5);
    expect(upstream.calls.captions).toBe(2);
    const { ledger } = server.tubescribe.ports;
    expect((await ledger.credits(account)).reserved).toBe(3);

    client.abort();
    expect(await request).toBeInstanceOf(Error);
    // The server sees the disconnect: the slow item is abandoned and its hold returned at once.
    for (let i = 0; i < 200 && (await ledger.credits(account)).reserved > 2; i++) await settle(5);
    open();
    for (let i = 0; i < 200 && (await ledger.credits(account)).reserved > 0; i++) await settle(5);
    expect(await ledger.credits(account)).toEqual({ balance: 10, reserved: 0, spent: 0, granted: 10 });
  });
});
