/**
 * `tubescribe/client` in a browser: the client bundled by esbuild for the browser (no Node
 * built-ins may be pulled in), loaded by a page in headless Chromium (Debian's `chromium`, driven
 * by playwright-core), and used with the browser's own `fetch`. The page's origin is served by
 * Playwright's request interception from a test app's `app.request` (no socket), so the calls are
 * same-origin. Skipped when /usr/bin/chromium is absent.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANNEL, VIDEO } from '../fakes/upstream.ts';
import { type Fixture, fixture } from '../helpers/http.ts';

const CHROMIUM = '/usr/bin/chromium';
const ORIGIN = 'http://tubescribe.test';
const ENTRY = fileURLToPath(new URL('../../src/client/index.ts', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM))('the typed client in Chromium', () => {
  let browser: Browser;
  let f: Fixture;
  let bundle: string;

  beforeAll(async () => {
    f = await fixture();
    const built = await build({
      entryPoints: [ENTRY],
      bundle: true,
      write: false,
      format: 'iife',
      globalName: 'tubescribeClient',
      platform: 'browser',
      minify: true,
      logLevel: 'silent',
    });
    bundle = built.outputFiles[0]!.text;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('calls the API with the browser fetch and reads typed answers and errors', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    await page.route(`${ORIGIN}/**`, async (route) => {
      const request = route.request();
      const url = new URL(request.url());
      if (url.pathname === '/') {
        const html = `<!doctype html><meta charset="utf-8"><title>client</title><script>${bundle}</script>`;
        await route.fulfill({ status: 200, contentType: 'text/html', body: html });
        return;
      }
      const body = request.postDataBuffer();
      const res = await f.ts.app.request(url.pathname + url.search, {
        method: request.method(),
        headers: await request.allHeaders(),
        ...(body ? { body: new Uint8Array(body) } : {}),
      });
      await route.fulfill({
        status: res.status,
        headers: Object.fromEntries(res.headers),
        body: Buffer.from(await res.arrayBuffer()),
      });
    });
    await page.goto(`${ORIGIN}/`);
    type Window = { tubescribeClient?: { createClient?: unknown } };
    await page.waitForFunction(
      () => typeof (window as unknown as Window).tubescribeClient?.createClient === 'function',
    );
    const answers = await page.evaluate(
      async ({ key, video, channel }) => {
        type Call = (
          path: string,
          init?: unknown,
        ) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
        type Module = { tubescribeClient: { createClient: (o: unknown) => { GET: Call } } };
        const make = (window as unknown as Module).tubescribeClient.createClient;
        const api = make({ baseUrl: location.origin, apiKey: key });
        const info = await api.GET('/v1/videos/{id}/basic-info', { params: { path: { id: video } } });
        const channelPage = await api.GET('/v1/channels/{id}', { params: { path: { id: channel } } });
        const bad = await api.GET('/v1/videos/{id}/basic-info', { params: { path: { id: 'nope' } } });
        return { info: info.data, channel: channelPage.data, status: bad.response.status, error: bad.error };
      },
      { key: f.apiKey, video: VIDEO, channel: CHANNEL },
    );
    expect(answers.info).toMatchObject({ video_id: VIDEO, channel_id: CHANNEL });
    expect(answers.channel).toMatchObject({ channel_id: CHANNEL });
    expect(answers.status).toBe(400);
    expect(answers.error).toMatchObject({ error: { code: 'invalid_video_id', retryable: false } });
    expect(errors.filter((e) => !/status of 400/.test(e))).toEqual([]);
    await page.close();
  });
});
