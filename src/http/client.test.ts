import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client.ts';
import type { AppEnv } from './context.ts';

/** The socket address as an adapter reports it (here: always 10.0.0.5). */
const socket = () => '10.0.0.5';

async function addressOf(trustProxy: number, headers: Record<string, string>): Promise<string> {
  const app = new Hono<AppEnv>();
  app.get('/', (c) => c.text(clientAddress(c, trustProxy, socket)));
  return (await app.request('/', { headers })).text();
}

describe('clientAddress', () => {
  it('is the adapter’s socket address, or unknown without an adapter', async () => {
    expect(await addressOf(0, {})).toBe('10.0.0.5');
    const app = new Hono<AppEnv>();
    app.get('/', (c) => c.text(clientAddress(c, 0)));
    expect(await (await app.request('/')).text()).toBe('unknown');
  });

  it('ignores X-Forwarded-For unless proxies are trusted', async () => {
    expect(await addressOf(0, { 'x-forwarded-for': '203.0.113.9' })).toBe('10.0.0.5');
  });

  it('takes the entry the trusted proxies appended, not the client-supplied ones', async () => {
    const chain = { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' };
    expect(await addressOf(1, chain)).toBe('203.0.113.9');
    expect(await addressOf(2, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.1.1' })).toBe('203.0.113.9');
    expect(await addressOf(3, { 'x-forwarded-for': '203.0.113.9' })).toBe('10.0.0.5');
  });
});
