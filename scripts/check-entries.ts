// Fails when package.json, deno.json and the tsup entries disagree about the public entries,
// the version, or the runtime dependencies.
import { readFileSync } from 'node:fs';
import { entries } from '../tsup.config.ts';

interface PackageJson {
  version: string;
  exports: Record<string, string | { types: string; default: string }>;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
}
interface DenoJson {
  version: string;
  exports: Record<string, string>;
  imports: Record<string, string>;
}

const read = <T>(path: string): T =>
  JSON.parse(readFileSync(new URL(`../${path}`, import.meta.url), 'utf8')) as T;
const pkg = read<PackageJson>('package.json');
const deno = read<DenoJson>('deno.json');
const problems: string[] = [];

// Export subpath → tsup entry name.
const nameOf = (subpath: string): string => (subpath === '.' ? 'index' : subpath.slice(2));
const pkgSubpaths = Object.keys(pkg.exports).filter((s) => s !== './package.json');
const denoSubpaths = Object.keys(deno.exports);

for (const s of pkgSubpaths)
  if (!(s in deno.exports)) problems.push(`package.json exports ${s}, deno.json does not`);
for (const s of denoSubpaths)
  if (!(s in pkg.exports)) problems.push(`deno.json exports ${s}, package.json does not`);

for (const s of pkgSubpaths) {
  const name = nameOf(s);
  const source = entries[name];
  if (!source) {
    problems.push(`package.json exports ${s} but tsup has no entry '${name}'`);
    continue;
  }
  const target = pkg.exports[s];
  const expected = { types: `./dist/${name}.d.ts`, default: `./dist/${name}.js` };
  if (typeof target !== 'object' || target.types !== expected.types || target.default !== expected.default) {
    problems.push(`package.json exports ${s} should be ${JSON.stringify(expected)}`);
  }
  if (deno.exports[s] !== undefined && deno.exports[s] !== `./${source}`) {
    problems.push(`deno.json exports ${s} → ${deno.exports[s]}, tsup builds it from ./${source}`);
  }
}
for (const name of Object.keys(entries)) {
  const subpath = name === 'index' ? '.' : `./${name}`;
  if (name !== 'cli' && !(subpath in pkg.exports)) problems.push(`tsup entry '${name}' is not exported`);
}
if (pkg.bin.tubescribe !== './dist/cli.js' || entries.cli === undefined) {
  problems.push('bin tubescribe must be ./dist/cli.js, built from the tsup entry "cli"');
}
if (pkg.version !== deno.version)
  problems.push(`version: package.json ${pkg.version}, deno.json ${deno.version}`);

// Every runtime dependency is mapped in deno.json with the same range.
for (const [dep, range] of Object.entries(pkg.dependencies)) {
  const mapped = deno.imports[dep];
  if (mapped !== `npm:${dep}@${range}`)
    problems.push(`deno.json imports "${dep}" should be "npm:${dep}@${range}"`);
}
for (const [spec, target] of Object.entries(deno.imports)) {
  if (!target.startsWith('npm:') && !target.startsWith('./'))
    problems.push(`deno.json import ${spec} must use npm:`);
}

if (problems.length > 0) {
  console.error(`check-entries: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `check-entries: ok (${pkgSubpaths.length} exports, ${Object.keys(entries).length} build entries)`,
);
