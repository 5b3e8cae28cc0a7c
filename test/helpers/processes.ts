/**
 * tubescribe as separate processes: `node --import tsx src/cli/main.ts serve` children on real
 * sockets (port 0, 127.0.0.1), with a fixtures upstream written to a temporary folder.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The admin token the child servers get. */
export const CHILD_ADMIN = 'child-admin-token-0123456789abcdef';
/** The one video of {@link writeFixtures}. */
export const FIXTURE_VIDEO = 'aaaaaaaaaaa';

/** Writes a fixtures upstream with one video and its English captions under `root`. */
export async function writeFixtures(root: string): Promise<void> {
  await mkdir(join(root, 'videos'), { recursive: true });
  await mkdir(join(root, 'captions'), { recursive: true });
  const player = {
    videoId: FIXTURE_VIDEO,
    title: 'Cluster video',
    author: 'Someone',
    channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa',
    description: '',
    lengthSeconds: 10,
    viewCount: 1,
    keywords: [],
    thumbnails: [],
    live: 'none',
    tracks: [
      {
        languageCode: 'en',
        name: 'English',
        kind: 'manual',
        isTranslatable: false,
        isDefault: true,
        ref: 'a.en',
      },
    ],
  };
  await writeFile(join(root, 'videos', `${FIXTURE_VIDEO}.json`), JSON.stringify({ player }));
  await writeFile(
    join(root, 'captions', 'a.en.json'),
    JSON.stringify({
      format: 'json3',
      document: { events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'Hi there.' }] }] },
    }),
  );
}

/** A running child server. */
export interface ChildServer {
  child: ChildProcess;
  url: string;
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL (no cleanup at all), then resolves once the process is gone. */
  kill(): Promise<void>;
}

/** Starts `tubescribe serve` with `env` on top of the defaults; resolves once it listens. */
export function startServer(env: Record<string, string>): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    env: {
      ...process.env,
      TUBESCRIBE_PORT: '0',
      TUBESCRIBE_HOST: '127.0.0.1',
      TUBESCRIBE_ADMIN_TOKEN: CHILD_ADMIN,
      TUBESCRIBE_LOG: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start: ${err}`));
    }, 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({
          child,
          url: m[1]!,
          stderr: () => err,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
          kill: async () => {
            child.kill('SIGKILL');
            await exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}: ${err}`));
    });
  });
}

/** Creates a key through a server's admin API. */
export async function createKey(
  url: string,
  credits: number,
  plan = 'paid',
): Promise<{ api_key: string; account_id: string; key_id: string }> {
  const res = await fetch(`${url}/admin/keys`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CHILD_ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits, plan }),
  });
  if (res.status !== 201) throw new Error(`key creation failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { api_key: string; account_id: string; key_id: string };
}

/** Starts `n` servers with the same `env`; if one fails to start, stops the others and throws. */
export async function startServers(n: number, env: Record<string, string>): Promise<ChildServer[]> {
  const results = await Promise.allSettled(Array.from({ length: n }, () => startServer(env)));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    await Promise.all(started.map((s) => s.kill()));
    throw failure.reason;
  }
  return started;
}
