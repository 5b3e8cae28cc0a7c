import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';
import { describe, expect, it } from 'vitest';
import { isDisposableDomain } from '../core/email.ts';
import { DISPOSABLE_LIST, loadDisposableDomains } from './disposable.ts';

const require = createRequire(import.meta.url);

describe('loadDisposableDomains', () => {
  it('flags listed domains and their subdomains through the parent walk', async () => {
    const has = await loadDisposableDomains();
    const cases: [string, boolean][] = [
      ['mailinator.com', true],
      ['MAILINATOR.com', true],
      ['a.b.mailinator.com', true],
      ['guerrillamail.com', true],
      ['yopmail.com', true],
      ['10minutemail.com', true],
      ['gmail.com', false],
      ['outlook.com', false],
      ['example.org', false],
      ['mailinator.com.example.org', false],
    ];
    for (const [domain, expected] of cases) {
      expect(isDisposableDomain(domain, has), domain).toBe(expected);
    }
  });

  it('is an exact-match lookup (the walk belongs to core)', async () => {
    const has = await loadDisposableDomains();
    expect(has('mailinator.com')).toBe(true);
    expect(has('sub.mailinator.com')).toBe(false);
  });

  it('loads once and shares the lookup', async () => {
    const [a, b] = await Promise.all([loadDisposableDomains(), loadDisposableDomains()]);
    expect(a).toBe(b);
    expect(await loadDisposableDomains()).toBe(a);
  });
});

describe('loadDisposableDomains in a bundle', () => {
  it('still loads when the build target (ES2022, as in tsup.config.ts) drops the import attributes', async () => {
    const outDir = fileURLToPath(
      new URL('../../node_modules/.cache/tubescribe-disposable-test', import.meta.url),
    );
    try {
      await build({
        entry: { disposable: fileURLToPath(new URL('./disposable.ts', import.meta.url)) },
        config: false,
        format: ['esm'],
        platform: 'node',
        target: 'es2022',
        outDir,
        silent: true,
      });
      const bundle = readFileSync(`${outDir}/disposable.js`, 'utf8');
      expect(bundle).not.toMatch(/type:\s*"json"/); // the case this fallback exists for
      expect(bundle).not.toContain('mailinator.com'); // the list stays outside the bundle
      const script = `const { loadDisposableDomains } = await import(${JSON.stringify(`${outDir}/disposable.js`)});
        const has = await loadDisposableDomains(); console.log(has('mailinator.com'), has('gmail.com'));`;
      const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
      });
      expect(output.trim()).toBe('true false');
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});

describe('DISPOSABLE_LIST', () => {
  const packageJson = JSON.parse(
    readFileSync(require.resolve('disposable-domains/package.json'), 'utf8'),
  ) as { name: string; version: string };
  const list = JSON.parse(readFileSync(require.resolve('disposable-domains/index.json'), 'utf8')) as string[];

  it('names the installed package and version', () => {
    expect(DISPOSABLE_LIST.name).toBe(packageJson.name);
    expect(DISPOSABLE_LIST.version).toBe(packageJson.version);
  });

  it('states the installed list size, over 100,000 domains', () => {
    expect(DISPOSABLE_LIST.size).toBe(list.length);
    expect(DISPOSABLE_LIST.size).toBeGreaterThan(100_000);
    expect(DISPOSABLE_LIST.published).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
