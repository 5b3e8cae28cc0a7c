#!/usr/bin/env node
// Runs `npm ci` when node_modules is missing or older than package-lock.json, so that
// `npm start` and `npm test` work as the first command on a fresh checkout.
import { execSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';

const root = new URL('..', import.meta.url);
const marker = new URL('node_modules/.package-lock.json', root);
const lock = new URL('package-lock.json', root);
if (!existsSync(marker) || statSync(marker).mtimeMs < statSync(lock).mtimeMs) {
  console.error('tubescribe: installing dependencies (npm ci)…');
  execSync('npm ci --no-audit --no-fund', { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
}
