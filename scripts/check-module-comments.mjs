#!/usr/bin/env node
// Fails when a source file under src/ or adapters/ does not open with its module comment: a
// `/** … @module */` JSDoc block before anything else (only a `#!` line may precede it). Test
// files and declaration files are exempt.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

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

/** Whether `text` opens (after an optional shebang line) with a JSDoc block that holds `@module`. */
function opensWithModuleComment(text) {
  const body = text.replace(/^\uFEFF/, '').replace(/^#!.*\n/, '');
  const block = /^\s*(\/\*\*[\s\S]*?\*\/)/.exec(body);
  return block !== null && /(^|\s|\*)@module\b/.test(block[1]);
}

const problems = [];
for (const base of ['src', 'adapters']) {
  for (const file of files(join(root, base))) {
    if (!opensWithModuleComment(readFileSync(file, 'utf8'))) problems.push(relative(root, file));
  }
}
if (problems.length > 0) {
  console.error(
    `check-module-comments: ${problems.length} file(s) do not open with a /** … @module */ comment\n  ${problems.sort().join('\n  ')}`,
  );
  process.exit(1);
}
console.log('check-module-comments: ok');
