#!/usr/bin/env node
// Fails when the main entry (`import { createApp } from 'tubescribe'`) pulls in anything
// runtime-specific: a `node:*` (or bare Node built-in) module, ioredis, nodemailer or undici.
// It bundles src/index.ts for esbuild's neutral platform, dependencies included, and lists every
// such import with the file that makes it.
import { builtinModules } from 'node:module';
import { relative } from 'node:path';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const FORBIDDEN_PACKAGES = ['ioredis', 'nodemailer', 'undici'];
const builtins = new Set(builtinModules);

const offenders = [];
const guard = {
  name: 'runtime-neutral',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      const spec = args.path;
      const bare = spec.split('/')[0];
      const forbidden =
        spec.startsWith('node:') ||
        builtins.has(spec) ||
        builtins.has(bare) ||
        FORBIDDEN_PACKAGES.some((p) => spec === p || spec.startsWith(`${p}/`));
      if (!forbidden) return undefined;
      offenders.push(`${relative(root, args.importer)} imports '${spec}'`);
      return { path: spec, external: true };
    });
  },
};

await build({
  // The main entry and the typed client (`tubescribe/client`, which browsers load too).
  entryPoints: [`${root}src/index.ts`, `${root}src/client/index.ts`],
  outdir: `${root}dist-neutral-check`,
  bundle: true,
  write: false,
  platform: 'neutral',
  format: 'esm',
  mainFields: ['module', 'main'],
  // `workerd`: packages that pick a runtime shim by export condition (the MCP SDK's `_shims`)
  // resolve to their non-Node build, as a fetch-only platform's bundler would.
  conditions: ['workerd', 'import', 'default'],
  plugins: [guard],
  logLevel: 'silent',
  minify: true,
});
if (offenders.length > 0) {
  console.error(
    `check-neutral: the main entry imports runtime-specific modules:\n  ${[...new Set(offenders)].join('\n  ')}`,
  );
  process.exit(1);
}
console.log('check-neutral: ok (src/index.ts and src/client/index.ts bundle for a neutral platform)');
