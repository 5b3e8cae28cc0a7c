/**
 * Crash safety over processes (issue 5): a `tubescribe serve` child is killed with SIGKILL
 * between reserve and commit (its "YouTube" never answers); another process's reconciler
 * returns the credit once the reservation's lifetime has passed, and a late commit is a no-op.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { afterEach, expect, it } from 'vitest';
import { createTubescribe } from '../../src/app.ts';
import { openRedisStorage } from '../../src/drivers/redis/storage.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';
import { waitFor } from '../helpers/cluster.ts';
import { type ChildServer, createKey, startServer } from '../helpers/processes.ts';
import { connect, deleteKeys, describeRedis, redisUrl, uniquePrefix } from '../helpers/redis.ts';

const TTL = 120_000;

describeRedis('crash safety: a tubescribe process killed with SIGKILL mid-request', () => {
  let hang: Server | undefined;
  afterEach(async () => {
    hang?.closeAllConnections();
    await new Promise((resolve) => hang?.close(resolve));
    hang = undefined;
  });

  it('another process reconciles the dead one’s reservation after its lifetime; a late commit is a no-op', async () => {
    const prefix = uniquePrefix('sigkill');
    const redis = await connect();
    // "YouTube" that accepts requests and never answers: the work never ends.
    const seen: IncomingMessage[] = [];
    hang = createServer((req) => {
      seen.push(req);
    });
    await new Promise<void>((resolve) => hang?.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(hang.address() as { port: number }).port}`;
    const storage = `${redisUrl}?prefix=${prefix}`;
    let offset = 0;
    const survivorStorage = await openRedisStorage(storage, {
      ledgerClock: { now: () => Date.now() + offset },
    });
    const survivor = createTubescribe({
      kv: survivorStorage.kv,
      ledger: survivorStorage.ledger,
      upstream: new FakeUpstream(),
      logger: silentLogger,
      limits: { reconcileIntervalMs: 20 },
    });
    await survivor.start(); // starts its reconciler
    const { ledger } = survivor.ports;
    let child: ChildServer | undefined;
    try {
      child = await startServer({
        TUBESCRIBE_STORAGE: storage,
        TUBESCRIBE_UPSTREAM: 'youtube',
        TUBESCRIBE_YOUTUBE_ORIGIN: origin,
        TUBESCRIBE_LOG: 'silent',
      });
      const { api_key, account_id } = await createKey(child.url, 5, 'paid');
      const request = fetch(`${child.url}/v1/transcripts?video_id=${VIDEO}&format=text`, {
        headers: { authorization: `Bearer ${api_key}` },
      }).catch((error: unknown) => error);
      // The request's own work (the server's start-up asks for visitorData first).
      await waitFor(() => seen.some((req) => !req.url?.includes('/visitor_id')), 10_000);
      expect(await ledger.credits(account_id)).toEqual({ balance: 4, reserved: 1, spent: 0, granted: 5 });
      const [holdId] = await redis.hkeys(`{${prefix}c}:holds`);
      // The lifetime (120 s by default) is set with Redis TIME at the reservation.
      // The hold keeps it last: account|cost|balance after|expiry.
      const expiry = Number((await redis.hget(`{${prefix}c}:holds`, holdId!))!.split('|')[3]);
      expect(Math.abs(expiry - (Date.now() + TTL))).toBeLessThan(10_000);

      await child.kill();
      expect(await request).toBeInstanceOf(Error);
      // Dead, but within the lifetime: the survivor's reconciler leaves the hold alone.
      expect(await ledger.reconcile()).toBe(0);
      expect((await ledger.credits(account_id)).reserved).toBe(1);
      // The survivor's ledger clock jumps past the lifetime: its timer returns the credit.
      offset = expiry - Date.now() + 1;
      await waitFor(async () => (await ledger.credits(account_id)).reserved === 0);
      expect(await ledger.credits(account_id)).toEqual({ balance: 5, reserved: 0, spent: 0, granted: 5 });
      expect(await ledger.commit(holdId!)).toBe(false);
      expect(await ledger.credits(account_id)).toEqual({ balance: 5, reserved: 0, spent: 0, granted: 5 });
      // The survivor serves the same key (the account lives in Redis), charging exactly once.
      const res = await survivor.app.request(`/v1/transcripts?video_id=${VIDEO}&format=text`, {
        headers: { authorization: `Bearer ${api_key}` },
      });
      expect(res.status).toBe(200);
      expect(await ledger.credits(account_id)).toEqual({ balance: 4, reserved: 0, spent: 1, granted: 5 });
    } finally {
      await child?.kill();
      await survivor.close();
      await survivorStorage.close();
      await deleteKeys(redis, prefix);
      await redis.quit();
    }
  });
});
