/**
 * The docs page and the OpenAPI document under a mount prefix (Hono `route` and `mount`, Express
 * `app.use`) and with `TUBESCRIBE_PUBLIC_URL`: the document's `servers` name the prefixed base or
 * the public URL (never the request's Host then), and the page and its scripts answer under the
 * prefix.
 */
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createNodeApp } from '../../adapters/node/index.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { FakeUpstream } from '../fakes/upstream.ts';
import { ADMIN } from '../helpers/app.ts';
import { docsApp, pageConfig, serversOf } from '../helpers/docs.ts';

describe('mount prefix and public URL', () => {
  it('with a public URL: try-it-out uses the document servers, and the CSP lets it reach them', async () => {
    const { ts } = await docsApp({ publicUrl: 'https://api.example.org/yt/' });
    const res = await ts.app.request('http://evil.test/docs');
    expect(pageConfig(await res.text()).sameOriginServer).toBe(false);
    expect(res.headers.get('content-security-policy')).toContain(
      "connect-src 'self' https://api.example.org",
    );
  });

  it('Hono app.route: the document names the prefixed base; the page and its scripts answer', async () => {
    const { ts } = await docsApp();
    const outer = new Hono().route('/api', ts.app);
    // A loopback host is named as it is (public-url.ts); any other Host gets relative links.
    expect(await serversOf(await outer.request('http://localhost/api/openapi.json'))).toEqual([
      { url: 'http://localhost/api' },
    ]);
    expect(await serversOf(await outer.request('http://host.test/api/openapi.json'))).toEqual([
      { url: '/api' },
    ]);
    const page = await outer.request('http://localhost/api/docs');
    expect(page.status).toBe(200);
    // The no-script text's curl examples call the prefixed base too.
    expect(await page.text()).toContain('curl -s &#39;http://localhost/api/healthz&#39;');
    expect((await outer.request('http://host.test/api/docs/scalar.js')).status).toBe(200);
    expect((await outer.request('http://host.test/api/docs/init.js')).status).toBe(200);
  });

  it('Hono app.mount: the page takes its base from its own location', async () => {
    const { ts } = await docsApp();
    const outer = new Hono();
    outer.mount('/api', ts.fetch);
    const page = await outer.request('http://host.test/api/docs');
    expect(pageConfig(await page.text()).sameOriginServer).toBe(true);
    expect((await outer.request('http://host.test/api/docs/scalar.js')).status).toBe(200);
  });

  it('TUBESCRIBE_PUBLIC_URL wins over the Host header and over the prefix', async () => {
    const { ts } = await docsApp({ publicUrl: 'https://api.example.org/yt' });
    const direct = await ts.app.request('http://evil.test/openapi.json', { headers: { host: 'evil.test' } });
    expect(await serversOf(direct)).toEqual([{ url: 'https://api.example.org/yt' }]);
    const outer = new Hono().route('/api', ts.app);
    expect(await serversOf(await outer.request('http://evil.test/api/openapi.json'))).toEqual([
      { url: 'https://api.example.org/yt' },
    ]);
  });

  it('Express app.use("/api"): the page, its scripts and the document answer under the prefix', async () => {
    const { handler, tubescribe } = createNodeApp({
      adminToken: ADMIN,
      publicUrl: 'https://docs.example.org/api',
      upstream: new FakeUpstream(),
      logger: silentLogger,
    });
    const server = express().use('/api', handler).listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
    try {
      const page = await fetch(`${base}/docs`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('src="docs/scalar.js?v=');
      expect((await fetch(`${base}/docs/scalar.js`)).status).toBe(200);
      expect(await serversOf(await fetch(`${base}/openapi.json`))).toEqual([
        { url: 'https://docs.example.org/api' },
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await tubescribe.close();
    }
  });
});
