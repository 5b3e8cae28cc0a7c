/**
 * tubescribe instances as separate processes: `tubescribe serve` from this checkout, each on a
 * free port of 127.0.0.1, all with the same `TUBESCRIBE_*` settings (one `redis://` storage).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The checkout this example lives in. */
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A running instance. */
export interface Instance {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
  /** SIGTERM (it finishes the requests in flight), then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts one instance with `env`; resolves once it prints its `listening on` line. */
export function startInstance(
  env: Record<string, string | undefined>,
  timeoutMs = 30_000,
): Promise<Instance> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve'], {
    cwd: ROOT,
    env: { ...env, TUBESCRIBE_PORT: '0', TUBESCRIBE_HOST: '127.0.0.1', TUBESCRIBE_TRUST_PROXY: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('A tubescribe instance did not start in time.'));
    }, timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        child,
        url: match[1]!,
        stop: () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`A tubescribe instance exited with code ${code} before listening.`));
    });
  });
}

/** Starts `count` instances; if one fails, stops the others and throws. */
export async function startInstances(
  count: number,
  env: Record<string, string | undefined>,
): Promise<Instance[]> {
  const results = await Promise.allSettled(Array.from({ length: count }, () => startInstance(env)));
  const started = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((instance) => instance.stop()));
    throw failed.reason;
  }
  return started;
}
