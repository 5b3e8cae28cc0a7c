/**
 * `GET /readyz` (decisions.md, Operator interface): 200 while storage answers, else 503
 * `storage_unavailable`; `/healthz` stays 200 throughout (liveness). Proven with a documents store
 * that fails, a ledger that hangs, and a real Redis behind a TCP proxy that is cut and restored.
 */
import { afterEach, expect, it } from 'vitest';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import type { KeyValue } from '../../src/ports/kv.ts';
import type { Ledger } from '../../src/ports/ledger.ts';
import { ManualClock } from '../fakes/clock.ts';
import { type TestApp, testApp } from '../helpers/app.ts';
import { describeRedis, redisUrl, uniquePrefix } from '../helpers/redis.ts';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.ts';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function probe(app: TestApp): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.call('/readyz');
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

it('answers 200 with every check ok on healthy storage', async () => {
  const app = await testApp();
  expect(await probe(app)).toEqual({
    status: 200,
    body: { status: 'ok', checks: { storage: 'ok', ledger: 'ok', secret: 'ok' } },
  });
});

const broken: {
  name: string;
  kv?: (kv: KeyValue, down: () => boolean) => KeyValue;
  ledger?: (l: Ledger, down: () => boolean) => Ledger;
  checks: Record<string, string>;
}[] = [
  {
    name: 'the documents store fails',
    kv: (kv, down) => ({ ...kv, get: (key) => (down() ? Promise.reject(new Error('EIO')) : kv.get(key)) }),
    checks: { storage: 'failed', ledger: 'ok', secret: 'ok' },
  },
  {
    name: 'the ledger hangs',
    ledger: (ledger, down) => ({
      ...ledger,
      credits: (account) => (down() ? new Promise(() => {}) : ledger.credits(account)),
    }),
    checks: { storage: 'ok', ledger: 'timeout', secret: 'ok' },
  },
];
for (const c of broken) {
  it(`answers 503 storage_unavailable when ${c.name}, while /healthz stays 200`, async () => {
    const clock = new ManualClock('2026-03-01T10:00:00.000Z');
    let down = false;
    const kv = createMemoryKv(clock);
    const ledger = createEmbeddedLedger({ clock, kv });
    const app = await testApp({
      clock,
      kv: c.kv ? c.kv(kv, () => down) : kv,
      ledger: c.ledger ? c.ledger(ledger, () => down) : ledger,
    });
    expect((await probe(app)).status).toBe(200);
    down = true;
    const { status, body } = await probe(app);
    expect(status).toBe(503);
    expect(body.error).toMatchObject({ code: 'storage_unavailable', details: { checks: c.checks } });
    expect((await app.call('/healthz')).status).toBe(200);
    down = false;
    expect((await probe(app)).status).toBe(200);
  });
}

describeRedis('/readyz on Redis storage', () => {
  it('turns 503 while Redis is unreachable and 200 again once it is back', async () => {
    const { openRedisStorage } = await import('../../src/drivers/redis/storage.ts');
    const proxy: TcpProxy = await startTcpProxy(redisUrl!);
    cleanups.push(() => proxy.close());
    const storage = await openRedisStorage(proxy.url, {
      prefix: `${uniquePrefix('readyz')}:`,
      commandTimeoutMs: 500,
    });
    cleanups.push(() => storage.close());
    const app = await testApp({ kv: storage.kv, ledger: storage.ledger });
    expect((await probe(app)).status).toBe(200);
    await proxy.cut();
    const cut = await probe(app);
    expect(cut.status).toBe(503);
    expect(cut.body.error).toMatchObject({ code: 'storage_unavailable' });
    expect((await app.call('/healthz')).status).toBe(200);
    await proxy.restore();
    let status = 0;
    for (let i = 0; i < 100 && status !== 200; i++) {
      status = (await probe(app)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});
