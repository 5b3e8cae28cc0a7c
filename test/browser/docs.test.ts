/**
 * `/docs` in a real browser: a Node server on 127.0.0.1 over the demo data, the page opened in
 * headless Chromium (Debian's `chromium`, driven by playwright-core), a key entered in Scalar's
 * authentication box, and one try-it-out call (GET /v1/transcripts for the demo video) whose answer
 * must show on the page. The page must log no console error, fail no request, and ask nothing of
 * any host but the server. The same walk runs with the app mounted under `/api` in another Hono
 * app (`app.mount`), where only the page's own location tells the prefix. A screenshot of the
 * answered call is saved to `test-artifacts/docs.png`. Skipped when /usr/bin/chromium is absent.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { createAdaptorServer } from '@hono/node-server';
import { Hono } from 'hono';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFixturesUpstream, serve, withNode } from '../../adapters/node/index.ts';
import { createTubescribe } from '../../src/app.ts';
import { silentLogger } from '../../src/drivers/system.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
const DEMO = fileURLToPath(new URL('../../fixtures/demo', import.meta.url));
const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/', import.meta.url));
const ADMIN = 'browser-admin-token-0123456789abcdef';
const VIDEO = 'rCAS2eD-mcw';
/** The first line of the demo video's English transcript. */
const FIRST_LINE = 'Hi everyone, and welcome back to ABCs of Anaesthesia.';

const appOptions = () => ({
  adminToken: ADMIN,
  upstream: createFixturesUpstream(DEMO),
  logger: silentLogger,
});

/** A new key with credits, through the admin API at `base`. */
async function newKey(base: string): Promise<string> {
  const res = await fetch(`${base}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 100, plan: 'paid' }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { api_key: string }).api_key;
}

/** What a page did: console errors, uncaught errors, failed requests and every URL it asked for. */
interface PageLog {
  errors: string[];
  urls: string[];
}

function watch(page: Page): PageLog {
  const log: PageLog = { errors: [], urls: [] };
  page.on('console', (m) => {
    if (m.type() === 'error') log.errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => log.errors.push(`page: ${e.message}`));
  page.on('requestfailed', (r) => log.errors.push(`failed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  page.on('request', (r) => log.urls.push(r.url()));
  return log;
}

/**
 * Opens `${base}/docs`, enters `key` in the authentication box, opens GET /v1/transcripts in the
 * API client (its `video_id` is the document's example, the demo video) and sends: resolves once the answer's first line is on the page.
 */
async function tryTranscript(page: Page, base: string, key: string): Promise<void> {
  await page.goto(`${base}/docs`);
  await page.getByPlaceholder('Token').first().fill(key);
  // Tags render their operations once opened.
  await page.getByRole('button', { name: 'Transcripts' }).first().click();
  const operation = page.locator('[id$="tag/transcripts/GET/v1/transcripts"]').first();
  await operation.scrollIntoViewIfNeeded();
  await operation.locator('.show-api-client-button').first().click();
  // The client fills video_id with the document's example, the demo data's video.
  await page.getByRole('button', { name: VIDEO }).first().waitFor();
  await page.getByRole('button', { name: 'Send' }).first().click();
  await page.getByText('200 OK').first().waitFor();
  await page.getByText(FIRST_LINE).first().waitFor();
}

const suite = HAVE_CHROMIUM ? describe : describe.skip;
const title = HAVE_CHROMIUM
  ? '/docs in headless Chromium'
  : `/docs in headless Chromium (skipped: ${CHROMIUM} is absent; install Debian's chromium package)`;

suite(title, { timeout: 45_000 }, () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('runs a try-it-out call with a key, offline and without console errors', async () => {
    const server = await serve({ port: 0, host: '127.0.0.1', app: appOptions() });
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      const log = watch(page);
      const key = await newKey(server.url);
      await tryTranscript(page, server.url, key);
      const sent = log.urls.find((u) => u.includes('/v1/transcripts?'));
      expect(sent).toContain(`video_id=${VIDEO}`);
      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: `${ARTIFACTS}docs.png` });
      expect(log.errors).toEqual([]);
      const hosts = new Set(log.urls.filter((u) => /^https?:/.test(u)).map((u) => new URL(u).origin));
      expect([...hosts]).toEqual([server.url]);
      expect(log.urls).toContain(`${server.url}/openapi.json`);
    } finally {
      await page.close();
      await server.close();
    }
  });

  it('works under a mount prefix (Hono app.mount), calling the API under the prefix', async () => {
    const ts = createTubescribe(withNode(appOptions()));
    await ts.start();
    const outer = new Hono();
    outer.mount('/api', ts.fetch);
    const http = createAdaptorServer({ fetch: outer.fetch, hostname: '127.0.0.1' });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    try {
      const log = watch(page);
      const key = await newKey(`${origin}/api`);
      await tryTranscript(page, `${origin}/api`, key);
      expect(log.errors).toEqual([]);
      expect(log.urls).toContain(`${origin}/api/openapi.json`);
      expect(log.urls.some((u) => u.startsWith(`${origin}/api/docs/scalar.js?v=`))).toBe(true);
      expect(log.urls.some((u) => u.startsWith(`${origin}/api/v1/transcripts?video_id=${VIDEO}`))).toBe(true);
      expect(log.urls.every((u) => !/^https?:/.test(u) || u.startsWith(`${origin}/api/`))).toBe(true);
    } finally {
      await page.close();
      await new Promise((resolve) => http.close(resolve));
      await ts.close();
    }
  });
});
