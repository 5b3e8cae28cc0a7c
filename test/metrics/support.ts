/**
 * Shared parts of the `/metrics` suites: the metrics token, a scrape (asserting 200 and the
 * Prometheus content type), Prometheus's own linter (`promtool check metrics`, skipped with a
 * reason when Debian's `prometheus` package is absent), and a funded key.
 * @module
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';
import type { Tubescribe } from '../../src/app.ts';
import { PROMETHEUS_TEXT } from '../../src/http/routes/metrics.ts';
import { ADMIN } from '../helpers/app.ts';

/** The `TUBESCRIBE_METRICS_TOKEN` of the suites. */
export const METRICS_TOKEN = 'metrics-token-for-tests-0123456789';
/** Debian's promtool. */
export const PROMTOOL = '/usr/bin/promtool';
/** Whether promtool is installed here. */
export const HAS_PROMTOOL: boolean = existsSync(PROMTOOL);
/** The title of a promtool check: it says why when it is skipped. */
export const PROMTOOL_TITLE: string = HAS_PROMTOOL
  ? 'passes promtool check metrics (no problem printed)'
  : `passes promtool check metrics: SKIPPED, ${PROMTOOL} is absent (Debian package prometheus)`;

/** Runs Prometheus's linter on a scrape: exit code 0 and nothing printed. */
export function promtoolCheck(text: string): void {
  const run = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
  expect({ status: run.status, output: `${run.stdout}${run.stderr}` }).toEqual({ status: 0, output: '' });
}

/** A scrape's text, asserting a 200 in the Prometheus text format. */
export async function scrape(app: { request: Tubescribe['app']['request'] }, token = ADMIN): Promise<string> {
  const res = await app.request('/metrics', { headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  expect({ status: res.status, type: res.headers.get('content-type') }).toEqual({
    status: 200,
    type: PROMETHEUS_TEXT,
  });
  return text;
}

/** A new key of `ts` with a few credits, on the `paid` plan. */
export async function apiKey(ts: Tubescribe): Promise<string> {
  const created = await ts.app.request('/admin/keys', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: 10, plan: 'paid' }),
  });
  return ((await created.json()) as { api_key: string }).api_key;
}
