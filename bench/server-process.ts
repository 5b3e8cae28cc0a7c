/**
 * A benchmark's server in a process of its own, so that its work never runs on the event loop
 * being measured: a script started under Node (through tsx) or Bun that prints one JSON line
 * `{"url", "key", "pid"}` (key and pid optional) once it listens, and stops when its standard
 * input closes ({@link serveUntilStdinCloses} does both).
 * @module
 */
import { type ChildProcess, spawn } from 'node:child_process';

/** Bun as the benchmarks run it. */
export const BUN = ['-y', 'bun@1.4.5'];

/** A started server process. */
export interface ServerProcess {
  name: string;
  url: string;
  /** The API key it printed ('' when it has none). */
  key: string;
  /** The server's own process id, when it printed one (under `npx`, not the child's). */
  pid?: number;
  child: ChildProcess;
}

/** Starts `script` with `args` under `runtime`; resolves once it printed its address. */
export function startServer(
  name: string,
  runtime: 'node' | 'bun',
  script: string,
  args: string[] = [],
): Promise<ServerProcess> {
  const child =
    runtime === 'node'
      ? spawn(process.execPath, ['--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn('npx', [...BUN, script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`${name} did not start within 120 s`)), 120_000);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGTERM');
      reject(new Error(`${error.message}\n${err.slice(-2000)}`));
    };
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.on('exit', (code) => fail(new Error(`${name} exited with ${code}`)));
    child.on('error', (error) => fail(error));
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      const { url, key = '', pid } = JSON.parse(line) as { url: string; key?: string; pid?: number };
      resolve({ name, url, key, ...(pid === undefined ? {} : { pid }), child });
    });
  });
}

/** Stops a server process: closes its standard input, then SIGTERM, then SIGKILL after 3 s. */
export async function stopServer(server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.stdin!.end();
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

/**
 * The server side of this contract, for a server script: prints its address (and its pid) once
 * it listens, and calls `close` then exits on SIGTERM or when its standard input closes.
 */
export function serveUntilStdinCloses(
  address: { url: string; key?: string },
  close: () => Promise<unknown>,
): void {
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await close().catch(() => {});
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.stdin.on('end', stop);
  process.stdin.on('close', stop);
  process.stdin.resume();
  process.stdout.write(`${JSON.stringify({ key: '', ...address, pid: process.pid })}\n`);
}
