/**
 * Safe defaults (issue 15, item 4): with the console mailer, a server that listens on anything
 * but loopback starts with agent sign-up `off` (whatever TUBESCRIBE_SIGNUP asks) and a warning
 * that says how to configure SMTP, and its console mailer never logs a code; on loopback the
 * developer keeps reading codes in the log. Checked on the configuration `tubescribe serve`
 * builds (`loadConfig` → `appOptionsFor`), served in-process so no test binds a public address.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTubescribe } from '../../src/app.ts';
import { parseArgs } from '../../src/cli/args.ts';
import { type Config, loadConfig } from '../../src/cli/config.ts';
import { isLoopbackHost } from '../../src/cli/exposure.ts';
import { appOptionsFor } from '../../src/cli/serve.ts';
import { createMemoryKv } from '../../src/drivers/kv-memory.ts';
import { createEmbeddedLedger } from '../../src/drivers/ledger-embedded.ts';
import { systemClock } from '../../src/drivers/system.ts';

describe('isLoopbackHost', () => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['10.0.0.5', false],
    ['192.168.1.10', false],
    ['example.org', false],
    ['128.0.0.1', false],
  ];
  for (const [host, loopback] of cases)
    it(`${host} → ${loopback}`, () => expect(isLoopbackHost(host)).toBe(loopback));
});

interface Case {
  env: Record<string, string>;
  signup: 'on' | 'paused' | 'off';
  reveal: boolean;
  warned: boolean;
}
const cases: Case[] = [
  { env: {}, signup: 'on', reveal: true, warned: false },
  { env: { TUBESCRIBE_HOST: '0.0.0.0' }, signup: 'off', reveal: false, warned: true },
  {
    env: { TUBESCRIBE_HOST: '0.0.0.0', TUBESCRIBE_SIGNUP: 'on' },
    signup: 'off',
    reveal: false,
    warned: true,
  },
  { env: { TUBESCRIBE_HOST: '::', TUBESCRIBE_SIGNUP: 'paused' }, signup: 'off', reveal: false, warned: true },
  {
    env: { TUBESCRIBE_HOST: '10.1.2.3', TUBESCRIBE_SIGNUP: 'off' },
    signup: 'off',
    reveal: false,
    warned: false,
  },
  {
    env: { TUBESCRIBE_HOST: '0.0.0.0', TUBESCRIBE_MAILER: 'smtp://u:p@mail.example.org:587' },
    signup: 'on',
    reveal: false,
    warned: false,
  },
  {
    env: { TUBESCRIBE_HOST: '::1', TUBESCRIBE_SIGNUP: 'paused' },
    signup: 'paused',
    reveal: true,
    warned: false,
  },
];

/**
 * Serves the app `tubescribe serve` would build, in-process, and signs up once: the answer
 * follows the mode, and the log (the JSON logger writes through console.error) shows the code only
 * where codes may be shown.
 */
async function expectSignup(config: Config, c: Case): Promise<void> {
  const lines: string[] = [];
  const spy = vi.spyOn(console, 'error').mockImplementation((line: unknown) => {
    lines.push(String(line));
  });
  try {
    const clock = systemClock;
    const kv = createMemoryKv(clock);
    const options = appOptionsFor(
      { ...config, dns: 'off' },
      { kv, ledger: createEmbeddedLedger({ clock, kv }) },
    );
    const ts = createTubescribe(options);
    const res = await ts.app.request('/api/agent/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'agent@gmail.com' }),
    });
    const body = (await res.json()) as { error?: { code: string } };
    await ts.close();
    const codeLogged = lines.some((line) => /\b\d{6}\b/.test(line) && line.includes('agent@gmail.com'));
    if (c.signup === 'off') expect(body.error?.code).toBe('agent_signup_disabled');
    else if (c.signup === 'paused') expect(body.error?.code).toBe('agent_signup_busy');
    else expect(res.status).toBe(200);
    expect(codeLogged).toBe(c.signup === 'on' && c.reveal);
  } finally {
    spy.mockRestore();
  }
}

describe('the console mailer on a reachable address', () => {
  for (const c of cases) {
    it(`${JSON.stringify(c.env)} → sign-up ${c.signup}, codes ${c.reveal ? 'shown' : 'withheld'}`, async () => {
      const config = loadConfig(parseArgs([]), {
        TUBESCRIBE_STORAGE: 'memory',
        TUBESCRIBE_YOUTUBE_ORIGIN: 'http://127.0.0.1:9',
        ...c.env,
      });
      expect(config.signup).toBe(c.signup);
      expect(config.revealCodes).toBe(c.reveal);
      if (c.warned) {
        expect(config.signupWarning).toMatch(/sign-up is OFF/);
        expect(config.signupWarning).toMatch(/TUBESCRIBE_MAILER=smtp:\/\//);
      } else expect(config.signupWarning).toBeUndefined();

      if (!c.env.TUBESCRIBE_MAILER) await expectSignup(config, c);
    });
  }
});
