/**
 * Who may read `GET /metrics` (decisions.md, Operator interface): the admin token or
 * `TUBESCRIBE_METRICS_TOKEN` (a flag of the same name overrides it), on every route set; anything
 * else is 401 with a Bearer challenge, and with neither token configured it stays closed.
 * @module
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { parseArgs } from '../../src/cli/args.ts';
import { loadConfig } from '../../src/cli/config.ts';
import { ADMIN, type TestApp, testApp } from '../helpers/app.ts';
import { CHILD_ADMIN, startServer } from '../helpers/processes.ts';
import { METRICS_TOKEN, scrape } from './support.ts';

describe('GET /metrics: who may read it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await testApp({ metricsToken: METRICS_TOKEN });
  });

  it.each([
    ['no Authorization header', undefined, 'missing_api_key'],
    ['a wrong token', 'Bearer not-the-token', 'invalid_api_key'],
    ['an API-key header instead of Bearer', 'Basic YWRtaW46eA==', 'missing_api_key'],
    ['the metrics token with a suffix', `Bearer ${METRICS_TOKEN}x`, 'invalid_api_key'],
  ])('answers 401 to %s', async (_name, authorization, code) => {
    const res = await t.ts.app.request('/metrics', authorization ? { headers: { authorization } } : {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(code);
  });

  it('answers 200 in the text format to the admin token and to the metrics token', async () => {
    for (const token of [ADMIN, METRICS_TOKEN]) {
      const text = await scrape(t.ts.app, token);
      expect(text).toContain('# TYPE tubescribe_http_requests_total counter');
    }
  });

  it('is closed (401) when neither token is configured, even to an admin-scoped key', async () => {
    const open = await testApp({ adminToken: '' });
    const res = await open.ts.app.request('/metrics', { headers: { authorization: `Bearer ${ADMIN}` } });
    expect(res.status).toBe(401);
  });

  it('is served by the sign-up-only app too', async () => {
    const signupOnly = await testApp({ routes: 'signup', metricsToken: METRICS_TOKEN });
    await scrape(signupOnly.ts.app, METRICS_TOKEN);
  });
});

describe('TUBESCRIBE_METRICS_TOKEN and --metrics-token', () => {
  it('the flag overrides the environment variable', () => {
    const env = { TUBESCRIBE_STORAGE: 'memory', TUBESCRIBE_METRICS_TOKEN: 'from-env' };
    expect(loadConfig(parseArgs(['serve']), env).metricsToken).toBe('from-env');
    expect(loadConfig(parseArgs(['serve', '--metrics-token', 'from-flag']), env).metricsToken).toBe(
      'from-flag',
    );
    expect(loadConfig(parseArgs(['serve']), { TUBESCRIBE_STORAGE: 'memory' }).metricsToken).toBeUndefined();
  });

  it('opens /metrics of a real `tubescribe serve` to the token, besides the admin token', {
    timeout: 30_000,
  }, async () => {
    const server = await startServer({
      TUBESCRIBE_STORAGE: 'memory',
      TUBESCRIBE_METRICS_TOKEN: METRICS_TOKEN,
    });
    try {
      const status = async (token: string) =>
        (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status;
      expect([await status(METRICS_TOKEN), await status(CHILD_ADMIN), await status('nope')]).toEqual([
        200, 200, 401,
      ]);
    } finally {
      await server.stop();
    }
  });
});
