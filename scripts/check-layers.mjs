#!/usr/bin/env node
// Fails when a source file imports across the architecture's layers (see CONTRIBUTING.md) or when
// the pure core reaches for time, randomness, I/O or a runtime. Test files are exempt.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Layer of a repository-relative path. */
function layerOf(path) {
  const p = path.split(sep).join('/');
  if (p.startsWith('src/core/')) return 'core';
  if (p.startsWith('src/ports/')) return 'ports';
  if (p.startsWith('src/services/')) return 'services';
  if (p.startsWith('src/http/')) return 'http';
  if (p.startsWith('src/drivers/')) return 'drivers';
  if (p.startsWith('src/cli/')) return 'cli';
  if (p.startsWith('src/client/')) return 'client';
  if (p === 'src/errors.ts') return 'errors';
  if (p.startsWith('src/')) return 'root';
  if (p.startsWith('adapters/')) return 'adapters';
  return 'other';
}

// Which layers each layer may import (value imports; `import type` from ports/core is always fine).
const allowed = {
  core: ['core', 'ports', 'errors'],
  ports: ['ports'],
  errors: [],
  services: ['services', 'core', 'ports', 'errors'],
  http: ['http', 'services', 'core', 'ports', 'errors'],
  drivers: ['drivers', 'core', 'ports', 'errors'],
  root: ['root', 'http', 'services', 'drivers', 'core', 'ports', 'errors'],
  cli: ['cli', 'root', 'services', 'drivers', 'core', 'ports', 'errors', 'adapters'],
  // The typed client (`tubescribe/client`) stands alone: it runs in browsers too.
  client: ['client'],
  adapters: ['root', 'http', 'services', 'drivers', 'core', 'ports', 'errors', 'adapters'],
};

// Bare packages each layer may import.
const packages = {
  core: [],
  ports: [],
  errors: [],
  services: [],
  http: ['hono', 'valibot', '@valibot/', '@modelcontextprotocol/server', '@modelcontextprotocol/hono'],
  drivers: ['unstorage', 'ofetch', 'ioredis', 'bullmq', 'nodemailer', 'disposable-domains', 'node:'],
  root: [],
  cli: ['node:'],
  client: ['openapi-fetch'],
  adapters: ['@hono/node-server', 'undici', 'node:'],
};

const forbiddenInCore = [
  [/\bDate\.now\s*\(/, 'Date.now()'],
  [/\bnew Date\(\s*\)/, 'new Date()'],
  [/\bMath\.random\s*\(/, 'Math.random()'],
  [/\bgetRandomValues\b/, 'crypto.getRandomValues'],
  [/\bconsole\./, 'console'],
  [/\bprocess\./, 'process'],
  [/\bfetch\s*\(/, 'fetch()'],
  [/\b(Bun|Deno)\./, 'a runtime global'],
  [/\bsetTimeout\s*\(|\bsetInterval\s*\(/, 'timers'],
];

function* files(dir) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (
      (name.endsWith('.ts') || name.endsWith('.tsx')) &&
      !/\.test\.tsx?$/.test(name) &&
      !name.endsWith('.d.ts')
    )
      yield full;
  }
}

const importRe =
  /^\s*(import|export)\s+(type\s+)?[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;
const problems = [];
for (const base of ['src', 'adapters']) {
  for (const file of files(join(root, base))) {
    const rel = relative(root, file);
    const layer = layerOf(rel);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(importRe)) {
      const typeOnly = Boolean(m[2]);
      const spec = m[3] ?? m[4] ?? m[5];
      if (spec.startsWith('.')) {
        const target = layerOf(relative(root, join(file, '..', spec)));
        // Types may cross layers (they vanish at run time), except into the pure core and the ports.
        if (typeOnly && (target === 'ports' || target === 'core' || (layer !== 'core' && layer !== 'ports')))
          continue;
        if (!allowed[layer].includes(target))
          problems.push(`${rel}: ${layer} must not import ${target} (${spec})`);
      } else if (
        !typeOnly &&
        !packages[layer].some(
          (p) => spec === p || spec.startsWith(p.endsWith('/') || p.endsWith(':') ? p : `${p}/`),
        )
      ) {
        problems.push(`${rel}: ${layer} must not import the package '${spec}'`);
      }
    }
    if (layer === 'core') {
      const code = text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const [re, what] of forbiddenInCore)
        if (re.test(code)) problems.push(`${rel}: the pure core must not use ${what}`);
    }
  }
}
if (problems.length > 0) {
  console.error(`check-layers: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log('check-layers: ok');
