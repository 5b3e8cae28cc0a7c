/**
 * The Deno adapter on Deno KV: `serve` with {@link openDenoKvLedger} books a spent credit in the
 * KV file and meters the calls (GET /v1/usage), and examples/deno-deploy.ts, loaded twice as two isolates on one KV file, behaves as
 * one service (a key made through one works through the other, with the same credits).
 */
import { openDenoKvLedger, serve } from '../../adapters/deno/index.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';
import { deno } from './deno-api.ts';
import { afterEach, beforeEach, describe, expect, it } from './vitest-shim.ts';

const ADMIN_TOKEN = 'deno-kv-admin-token-0123456789abcdef';

type Fetch = (request: Request) => Promise<Response>;

/** Creates a key with `credits` through `fetch`; returns it. */
async function createKey(fetch: Fetch, base: string, credits: number): Promise<string> {
  const created = await fetch(
    new Request(`${base}/admin/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits, plan: 'paid' }),
    }),
  );
  expect(created.status).toBe(201);
  return ((await created.json()) as { api_key: string }).api_key;
}

/** The key's credits as GET /v1/account reports them. */
async function creditsOf(fetch: Fetch, base: string, key: string): Promise<number> {
  const account = await fetch(
    new Request(`${base}/v1/account`, { headers: { authorization: `Bearer ${key}` } }),
  );
  expect(account.status).toBe(200);
  return ((await account.json()) as { credits: number }).credits;
}

describe('deno adapter with the Deno KV ledger', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await deno.makeTempDir({ prefix: 'tubescribe-kv-' });
  });
  afterEach(async () => {
    await deno.remove(dir, { recursive: true });
  });

  it('serves, and books the credit a transcript spends in Deno KV', async () => {
    const path = `${dir}/ledger.db`;
    const ledger = await openDenoKvLedger(path);
    const server = await serve({
      port: 0,
      app: { adminToken: ADMIN_TOKEN, upstream: new FakeUpstream(), ledger, logger: { log() {} } },
    });
    try {
      const key = await createKey(fetch, server.url, 3);
      const transcript = await fetch(`${server.url}/v1/transcripts?video_id=${VIDEO}&format=text`, {
        headers: { 'x-api-key': key },
      });
      expect(transcript.status).toBe(200);
      const text = await transcript.text();
      expect(text.trim()).not.toBe('');
      // The second answer comes from memory and is admitted and paid in one KV step (admitPaid).
      const cached = await fetch(`${server.url}/v1/transcripts?video_id=${VIDEO}&format=text`, {
        headers: { 'x-api-key': key },
      });
      expect(cached.status).toBe(200);
      expect(cached.headers.get('x-cache')).toBe('HIT');
      expect(cached.headers.get('x-credits-to-deduct')).toBe('1');
      expect(await cached.text()).toBe(text);
      expect(await creditsOf(fetch, server.url, key)).toBe(1);
      // Every call is metered in KV: the two charged transcripts and the free account calls.
      const usage = await fetch(`${server.url}/v1/usage?days=1`, { headers: { 'x-api-key': key } });
      expect(usage.status).toBe(200);
      const [today] = ((await usage.json()) as { days: { date: string }[] }).days;
      expect(today).toEqual({
        date: today?.date,
        requests: 3,
        credits: 2,
        by_operation: { transcript: 2, account: 1 },
      });
    } finally {
      await server.close();
      await ledger.close?.();
    }
    const kv = await deno.openKv(path);
    try {
      const books = [];
      for await (const entry of kv.list({ prefix: ['tubescribe', 'ledger', 'acct'] }))
        books.push(entry.value);
      expect(books).toEqual([{ balance: 1, reserved: 0, spent: 2, granted: 3 }]);
    } finally {
      kv.close();
    }
  });
});

// The example opens KV connections and a reconcile timer that it never closes (Deploy ends
// isolates by itself), so this test cannot pass Deno's leak sanitizers.
deno.test({
  name: 'examples/deno-deploy.ts: two isolates on one Deno KV behave as one service',
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const dir = await deno.makeTempDir({ prefix: 'tubescribe-kv-' });
    deno.env.set('DENO_KV_PATH', `${dir}/kv.db`);
    deno.env.set('TUBESCRIBE_ADMIN_TOKEN', ADMIN_TOKEN);
    const load = async (instance: number): Promise<Fetch> => {
      const url = new URL(`../../examples/deno-deploy.ts?isolate=${instance}`, import.meta.url);
      return ((await import(url.href)) as { default: { fetch: Fetch } }).default.fetch;
    };
    try {
      const [a, b] = await Promise.all([load(1), load(2)]);
      const base = 'http://tubescribe.test';
      const key = await createKey(a, base, 5);
      expect(await creditsOf(b, base, key)).toBe(5);
      const other = await createKey(b, base, 7);
      expect(await creditsOf(a, base, other)).toBe(7);
    } finally {
      await deno.remove(dir, { recursive: true });
    }
  },
});
