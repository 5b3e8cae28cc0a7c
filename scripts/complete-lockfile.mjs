#!/usr/bin/env node
// The npm registry reachable here serves only the platform packages of this machine (a darwin,
// win32 or musl build of a native tool answers 404), so `npm install` writes a package-lock.json
// without them, and `npm ci` then refuses the lock as "not in sync". This script adds the missing
// optional platform packages to the lock as platform-restricted optional entries (version, os,
// cpu, libc from the name), which `npm ci` accepts and skips on this platform, as it would skip
// them anywhere else they do not match. Run it after every `npm install` that changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const before = readFileSync(path, 'utf8');
const lock = JSON.parse(before);
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'sunos',
  'win32',
  'aix',
  'netbsd',
  'openharmony',
  'cygwin',
];
const CPU = [
  'arm64',
  'x64',
  'ia32',
  'arm',
  'loong64',
  'ppc64',
  'riscv64',
  's390x',
  'mips64el',
  'x86',
  'wasm32',
];

function platformOf(name) {
  const base = name.split('/').pop();
  const parts = base.split('-');
  const os = OS.find((o) => parts.includes(o) || base.includes(`${o}-`));
  const cpu = CPU.find((c) => parts.includes(c) || parts.some((p) => p.startsWith(c)));
  const libc = base.includes('musl')
    ? 'musl'
    : base.includes('gnu') || (os === 'linux' && !base.includes('musl'))
      ? 'glibc'
      : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [where, entry] of Object.entries(packages)) {
  const optional = entry.optionalDependencies ?? {};
  for (const [name, version] of Object.entries(optional)) {
    // npm resolves the dependency next to the dependent first, then at the top level.
    const nested = `${where ? `${where}/` : ''}node_modules/${name}`;
    const top = `node_modules/${name}`;
    if (packages[nested] || packages[top]) continue;
    const { os, cpu, libc } = platformOf(name);
    if (!os && !cpu) continue; // not a platform package: leave it for npm to report
    const stub = { version: String(version).replace(/^[\^~=]/, ''), optional: true };
    if (entry.dev) stub.dev = true;
    if (os) stub.os = [os];
    if (cpu) stub.cpu = [cpu];
    if (libc && os === 'linux') stub.libc = [libc];
    packages[top] = stub;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
const after = `${JSON.stringify(lock, null, 2)}\n`;
// Written only when it changed: a newer package-lock.json makes the next `npm start` or
// `npm test` run `npm ci` again (scripts/ensure-deps.mjs), which empties node_modules first.
if (after !== before) writeFileSync(path, after);
console.log(`complete-lockfile: ${added} platform package(s) added`);
