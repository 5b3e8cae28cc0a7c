/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) over a started Node
 * server with a real SMTP sink: sign up through the pages with the mailed code, create a key, call
 * the API with it, see the call on the usage chart, revoke the key (the API answers 401), sign out;
 * then an operator signs in with the admin token and grants credits. axe-core checks every page
 * (no serious or critical violation) and every page is kept as a screenshot in test-artifacts/.
 * Skipped, loudly, when /usr/bin/chromium is absent (`apt-get install -y chromium`; `.ci/run`
 * installs it).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, serve } from '../../adapters/node/index.ts';
import { createSmtpMailer } from '../../src/drivers/node/mailer-smtp.ts';
import { silentLogger } from '../../src/drivers/system.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';
import { parseMail, type SmtpTestServer, startSmtpServer } from '../helpers/smtp.ts';
import { codeInText } from '../signup/support.ts';

const CHROMIUM = '/usr/bin/chromium';
const HAS_CHROMIUM = existsSync(CHROMIUM);
const ADMIN = 'browser-admin-token-0123456789abcdef';
const EMAIL = 'dashboard.person@gmail.com';
const ARTIFACTS = 'test-artifacts';
const axeResults: Record<string, { serious: string[]; other: number }> = {};

let smtp: SmtpTestServer;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!HAS_CHROMIUM) return;
  smtp = await startSmtpServer();
  server = await serve({
    port: 0,
    host: '127.0.0.1',
    app: {
      adminToken: ADMIN,
      logger: silentLogger,
      upstream: new FakeUpstream(),
      mailer: createSmtpMailer(smtp.url),
      limits: { reconcileIntervalMs: 0 },
    },
  });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  mkdirSync(ARTIFACTS, { recursive: true });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await smtp?.close();
  if (existsSync(ARTIFACTS))
    writeFileSync(`${ARTIFACTS}/dashboard-axe.json`, JSON.stringify(axeResults, null, 2));
});

/** Screenshots the page and runs axe on it; serious or critical violations fail the test. */
async function check(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${ARTIFACTS}/dashboard-${name}.png`, fullPage: true });
  const result = await new AxeBuilder({ page }).analyze();
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  axeResults[name] = {
    serious: serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    other: result.violations.length - serious.length,
  };
  expect(axeResults[name].serious, name).toEqual([]);
}

async function mailedCode(to: string): Promise<string> {
  const mail = smtp.inbox.findLast((m) => m.to.includes(to));
  if (!mail) throw new Error(`no mail to ${to}`);
  return codeInText(parseMail(mail.raw).body);
}

if (!HAS_CHROMIUM) {
  process.stderr.write(
    `\n!!! SKIPPED "the dashboard in chromium": ${CHROMIUM} is absent (apt-get install -y chromium) !!!\n\n`,
  );
}
describe.skipIf(!HAS_CHROMIUM)('the dashboard in chromium', () => {
  it('signs up, creates a key, uses it, sees it, revokes it and signs out', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard`);
    await check(page, 'signin');
    // Keyboard: the skip link comes first, the form works with the keyboard alone.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    await page.getByLabel('Email address').fill(EMAIL);
    await page.getByLabel('Email address').press('Enter');
    await page.waitForURL('**/dashboard/code');
    await check(page, 'code');
    await page.getByLabel('6-digit code').fill(await mailedCode(EMAIL));
    await page.getByLabel('6-digit code').press('Enter');
    await page.getByText('Welcome!').waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'tubescribe_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Lax',
    });
    await check(page, 'welcome');

    await page.getByLabel('Name').fill('browser test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!.trim();
    expect(key).toMatch(/^tsk_[A-Za-z0-9]{38}$/);
    await check(page, 'key-created');

    const call = await fetch(`${server.url}/v1/transcripts?video_id=${VIDEO}&format=text`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(call.status).toBe(200);
    expect(call.headers.get('x-credits-to-deduct')).toBe('1');

    await page.goto(`${server.url}/dashboard`);
    expect(await page.locator('#credits').textContent()).toBe('199');
    await expect.poll(() => page.locator('svg[role=img]').count()).toBe(2);
    // The call is on the usage chart: today's bar (a transcript) and the summary line.
    expect(await page.locator('.chart > p').first().textContent()).toContain('today: 1 requests, 1 credits');
    expect(await page.locator('svg[role=img] rect title').allTextContents()).toContain(
      `${new Date().toISOString().slice(0, 10)}: 1 transcript`,
    );
    await check(page, 'overview');
    await page.setViewportSize({ width: 375, height: 740 });
    await check(page, 'overview-phone');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.setViewportSize({ width: 1280, height: 800 });

    await page
      .getByRole('navigation', { name: 'Dashboard' })
      .getByRole('link', { name: 'Quick start' })
      .click();
    await check(page, 'quickstart');

    await page.getByRole('navigation', { name: 'Dashboard' }).getByRole('link', { name: 'API keys' }).click();
    expect(await page.content()).not.toContain(key);
    await page.getByRole('button', { name: 'Revoke browser test' }).click();
    await page.getByText('The key was revoked').waitFor();
    await check(page, 'keys');
    const refused = await fetch(`${server.url}/v1/account`, { headers: { authorization: `Bearer ${key}` } });
    expect(refused.status).toBe(401);

    await page.goto(`${server.url}/dashboard/nope`);
    await check(page, 'not-found');

    await page.goto(`${server.url}/dashboard`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Email address').waitFor();
    await page.goto(`${server.url}/dashboard/keys`);
    expect(await page.title()).toContain('Please sign in');
    await context.close();
  }, 120_000);

  it('lets an operator sign in with the admin token and grant credits', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/dashboard/admin/signin`);
    await check(page, 'operator-signin');
    await page.getByLabel('Admin token').fill(ADMIN);
    await page.getByRole('button', { name: 'Sign in as operator' }).click();
    await page.waitForURL('**/dashboard/admin');
    await check(page, 'operator-overview');

    await page.getByLabel('Email or account id').fill('dashboard.person');
    await page.getByRole('button', { name: 'Search' }).click();
    await check(page, 'operator-accounts');
    await page.locator('a[href^="/dashboard/admin/accounts/acc_"]').first().click();
    const before = Number(await page.locator('#credits').textContent());
    await page.getByLabel('Credits (or choose a pack below)').fill('1000');
    await page.getByRole('button', { name: 'Grant' }).click();
    await page.getByText('Credits granted.').waitFor();
    expect(Number(await page.locator('#credits').textContent())).toBe(before + 1000);
    await check(page, 'operator-account');
    await context.close();
  }, 120_000);
});
