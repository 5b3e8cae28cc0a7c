/**
 * The Dockerfile's steps without a container runtime (none can pull images here). Build stage:
 * the files the Dockerfile copies go to an empty folder, `npm run build`, `npm pack`. Runtime
 * stage: `npm install --omit=dev` of the tarball and the optional peers the Dockerfile names,
 * into another empty folder (offline-capable through the npm cache), then the installed
 * `tubescribe serve` bin on a loopback port: /healthz and /readyz answer 200, the HEALTHCHECK
 * command exits 0, the same install runs on Redis when one is configured, and SIGTERM exits 0.
 * The build stage's `npm ci` is replaced by a link to this checkout's node_modules (the same lock).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { deleteKeysAt, redisUrl, uniquePrefix } from '../helpers/redis.ts';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '../..');
const dockerfile = await readFile(join(ROOT, 'Dockerfile'), 'utf8');
let work = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'tubescribe-image-'));
});
afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await rm(work, { recursive: true, force: true });
});

/** `COPY a b ./dest` lines of the build stage (not `--from`): the sources they name. */
function buildStageCopies(): string[] {
  const build = dockerfile.slice(0, dockerfile.indexOf('AS runtime'));
  return [...build.matchAll(/^COPY (?!--)(.+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/).slice(0, -1));
}

/** The package specs the runtime stage installs next to the tarball. */
function runtimePeers(): string[] {
  const line = /npm install --omit=dev[^\n]*\/tmp\/tubescribe\.tgz \\\n([^\n]+)/.exec(dockerfile);
  return line ? line[1]!.replace(/\\$/, '').trim().split(/\s+/) : [];
}

async function npm(args: string[], cwd: string): Promise<string> {
  const { stdout } = await run('npm', args, {
    cwd,
    maxBuffer: 16 << 20,
    env: { ...process.env, NODE_ENV: '' },
  });
  return stdout;
}

interface Started {
  child: ChildProcess;
  url: string;
  exited: Promise<number | null>;
}

/** Starts the installed bin with the Dockerfile's ENV, on loopback; resolves once it listens. */
function startInstalled(app: string, env: Record<string, string>): Promise<Started> {
  const child = spawn(join(app, 'node_modules/.bin/tubescribe'), ['serve'], {
    cwd: app,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      TUBESCRIBE_LOG: 'info',
      TUBESCRIBE_HOST: '127.0.0.1',
      TUBESCRIBE_PORT: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  let out = '';
  let err = '';
  child.stderr!.on('data', (d: Buffer) => {
    err += d;
  });
  return new Promise((done, fail) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) done({ child, url: m[1]!, exited });
    });
    void exited.then((code) => fail(new Error(`the installed server exited with ${code}: ${err}`)));
  });
}

async function status(url: string): Promise<number> {
  const res = await fetch(url);
  await res.arrayBuffer();
  return res.status;
}

it('the Dockerfile names the steps this test runs', () => {
  expect(dockerfile).toMatch(/^FROM node:20-slim AS build$/m);
  expect(dockerfile).toMatch(/^RUN npm ci /m);
  expect(dockerfile).toMatch(/npm run build && npm pack/);
  expect(dockerfile).toMatch(/^USER node$/m);
  expect(dockerfile).toMatch(/^HEALTHCHECK .*\n\s+CMD .*\/healthz/m);
  expect(dockerfile).toMatch(/^ENTRYPOINT \["\/app\/node_modules\/\.bin\/tubescribe"\]$/m);
  expect(buildStageCopies()).toEqual(
    expect.arrayContaining(['package.json', 'package-lock.json', 'scripts', 'src', 'adapters']),
  );
  expect(runtimePeers().map((p) => p.replace(/@[^@]*$/, ''))).toEqual([
    'ioredis',
    'bullmq',
    'nodemailer',
    'undici',
  ]);
});

it('build, pack, install production deps in an empty folder, serve: /healthz and /readyz answer', {
  timeout: 240_000,
}, async () => {
  // Build stage.
  const src = join(work, 'src');
  await mkdir(src);
  for (const entry of buildStageCopies()) await cp(join(ROOT, entry), join(src, entry), { recursive: true });
  await symlink(join(ROOT, 'node_modules'), join(src, 'node_modules'), 'dir');
  await npm(['run', 'build'], src);
  const pkg = join(work, 'pkg');
  await mkdir(pkg);
  await npm(['pack', '--pack-destination', pkg, '--silent'], src);
  const [tarball] = (await readdir(pkg)).filter((f) => f.endsWith('.tgz'));
  expect(tarball).toMatch(/^tubescribe-.*\.tgz$/);

  // Runtime stage: an empty folder, production dependencies only.
  const app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), '{"name":"tubescribe-server","private":true}');
  await npm(
    [
      'install',
      '--omit=dev',
      '--no-audit',
      '--no-fund',
      '--prefer-offline',
      join(pkg, tarball!),
      ...runtimePeers(),
    ],
    app,
  );
  const installed = await readdir(join(app, 'node_modules'));
  expect(installed).toEqual(expect.arrayContaining(['tubescribe', 'hono', 'ioredis', 'bullmq']));
  for (const dev of ['vitest', 'typescript', 'tsup', '@biomejs']) expect(installed).not.toContain(dev);

  // `tubescribe serve` from the install, on fs: storage (the image's default).
  const server = await startInstalled(app, { TUBESCRIBE_STORAGE: `fs:${join(work, 'data')}` });
  expect(await status(`${server.url}/healthz`)).toBe(200);
  expect(await status(`${server.url}/readyz`)).toBe(200);
  // The HEALTHCHECK command itself.
  const check = /CMD \["node", "-e", "(.+)"\]\s*$/m.exec(
    dockerfile.slice(dockerfile.indexOf('HEALTHCHECK')),
  )![1]!;
  const port = new URL(server.url).port;
  await run(process.execPath, ['-e', check.replace(/\\"/g, '"')], {
    env: { ...process.env, TUBESCRIBE_PORT: port },
  });
  server.child.kill('SIGTERM');
  expect(await server.exited).toBe(0);

  // The compose topology's storage: the same install on Redis (ioredis and BullMQ from the image).
  if (redisUrl) {
    const prefix = uniquePrefix('image');
    const onRedis = await startInstalled(app, { TUBESCRIBE_STORAGE: `${redisUrl}?prefix=${prefix}` });
    expect(await status(`${onRedis.url}/readyz`)).toBe(200);
    onRedis.child.kill('SIGTERM');
    expect(await onRedis.exited).toBe(0);
    await deleteKeysAt(prefix);
  }
});
