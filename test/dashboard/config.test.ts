/**
 * `TUBESCRIBE_DASHBOARD` (on by default, off stops serving `/dashboard`), overridden by the flag of
 * the same name, on the configuration `tubescribe serve` builds (`loadConfig` → `appOptionsFor`),
 * served in-process.
 */
import { describe, expect, it } from 'vitest';
import { createTubescribe } from '../../src/app.ts';
import { parseArgs } from '../../src/cli/args.ts';
import { ConfigError, loadConfig } from '../../src/cli/config.ts';
import { appOptionsFor } from '../../src/cli/serve.ts';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { systemClock } from '../../src/drivers/system.ts';

const BASE = { TUBESCRIBE_STORAGE: 'memory', TUBESCRIBE_YOUTUBE_ORIGIN: 'http://127.0.0.1:9' };

/** The status of GET /dashboard and GET /healthz on the app `serve` would build from `argv` and `env`. */
async function statuses(argv: string[], env: Record<string, string>): Promise<[number, number]> {
  const config = loadConfig(parseArgs(argv), { ...BASE, ...env });
  const kv = createMemoryKv(systemClock);
  const options = appOptionsFor(
    { ...config, dns: 'off', log: 'silent' },
    { kv, ledger: createEmbeddedLedger({ clock: systemClock, kv }) },
  );
  const ts = createTubescribe(options);
  try {
    const dashboard = await ts.app.request('/dashboard');
    const health = await ts.app.request('/healthz');
    return [dashboard.status, health.status];
  } finally {
    await ts.close();
  }
}

describe('TUBESCRIBE_DASHBOARD', () => {
  it('serves the dashboard by default and with on', async () => {
    expect(loadConfig(parseArgs([]), BASE).dashboard).toBe(true);
    expect(await statuses([], {})).toEqual([200, 200]);
    expect(await statuses([], { TUBESCRIBE_DASHBOARD: 'ON' })).toEqual([200, 200]);
  });

  it('stops serving it with off, the rest of the server unchanged', async () => {
    expect(await statuses([], { TUBESCRIBE_DASHBOARD: 'off' })).toEqual([404, 200]);
  });

  it('lets the flag of the same name override the variable', async () => {
    expect(await statuses(['serve', '--dashboard', 'off'], { TUBESCRIBE_DASHBOARD: 'on' })).toEqual([
      404, 200,
    ]);
    expect(await statuses(['serve', '--dashboard=on'], { TUBESCRIBE_DASHBOARD: 'off' })).toEqual([200, 200]);
  });

  it('refuses any other value, naming the variable', () => {
    expect(() => loadConfig(parseArgs([]), { ...BASE, TUBESCRIBE_DASHBOARD: 'yes' })).toThrow(ConfigError);
    expect(() => loadConfig(parseArgs([]), { ...BASE, TUBESCRIBE_DASHBOARD: 'yes' })).toThrow(
      'TUBESCRIBE_DASHBOARD must be on or off, not "yes".',
    );
  });
});
