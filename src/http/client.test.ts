import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client.ts';

async function addressOf(
  trustProxy: boolean | number,
  headers: Record<string, string>,
  env: unknown,
): Promise<string> {
  const app = new Hono();
  app.get('/', (c) => c.text(clientAddress(c, trustProxy)));
  return (await app.request('/', { headers }, env)).text();
}

describe('clientAddress', () => {
  const node = { incoming: { socket: { remoteAddress: '10.0.0.5' } } };

  it('reads the runtime environment (Node, Bun, Deno)', async () => {
    expect(await addressOf(false, {}, node)).toBe('10.0.0.5');
    expect(await addressOf(false, {}, { requestIP: () => ({ address: '198.51.100.2' }) })).toBe(
      '198.51.100.2',
    );
    expect(await addressOf(false, {}, { remoteAddr: { hostname: '2001:db8::1' } })).toBe('2001:db8::1');
    expect(await addressOf(false, {}, undefined)).toBe('unknown');
  });

  it('ignores X-Forwarded-For unless proxies are trusted', async () => {
    expect(await addressOf(false, { 'x-forwarded-for': '203.0.113.9' }, node)).toBe('10.0.0.5');
  });

  it('takes the entry the trusted proxies appended, not the client-supplied ones', async () => {
    const chain = { 'x-forwarded-for': '6.6.6.6, 203.0.113.9' };
    expect(await addressOf(true, chain, node)).toBe('203.0.113.9');
    expect(await addressOf(2, { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.1.1' }, node)).toBe(
      '203.0.113.9',
    );
    expect(await addressOf(3, { 'x-forwarded-for': '203.0.113.9' }, node)).toBe('10.0.0.5');
  });
});
