/**
 * The README walks: the quick start's offline command starts the server exactly as written (plus
 * `TUBESCRIBE_PORT=0` and memory storage, so the test can run beside anything), then every shell
 * block that talks to it — each line with `$B` or `http://127.0.0.1:8787` — runs in order under
 * bash against that server (the whole block: a `sleep` in it runs too), with `curl` failing on any
 * HTTP error. The reader's placeholders
 * (`tsk_…`, `acc_…`, `key_…`, `batch_…`, the sign-up token and the mailed code) are filled from
 * the answers before, as a reader would fill them; blocks run a second apart, the lines of a block
 * back to back, as pasted. A block can opt out with
 * `<!-- readme-test: skip (reason) -->` on the line above it.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const ROOT = new URL('../..', import.meta.url).pathname;
const DOC_BASE = 'http://127.0.0.1:8787';

interface Block {
  line: number;
  body: string;
  skip?: string;
}

/** The README's `sh` blocks with the line they start on and an opt-out reason, if any. */
function shellBlocks(markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] !== '```sh') continue;
    const start = i;
    const body: string[] = [];
    while (++i < lines.length && lines[i] !== '```') body.push(lines[i]!);
    const skip = /<!-- readme-test: skip \((.+)\) -->/.exec(lines[start - 1] ?? '')?.[1];
    blocks.push({ line: start + 1, body: body.join('\n'), ...(skip ? { skip } : {}) });
  }
  return blocks;
}

/**
 * The commands of a block: continuation lines (a trailing `\` or `|`) and multi-line quotes joined,
 * comments dropped.
 */
function commands(body: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const line of body.split('\n')) {
    if (current === '' && (line.trim() === '' || line.trim().startsWith('#'))) continue;
    current += (current ? '\n' : '') + line;
    const quotes = (current.match(/'/g) ?? []).length;
    if (quotes % 2 === 0 && !line.endsWith('\\') && !line.trimEnd().endsWith('|')) {
      out.push(current);
      current = '';
    }
  }
  if (current) out.push(current);
  return out;
}

const talksToServer = (command: string) => command.includes('$B') || command.includes(DOC_BASE);

/** What the walk has learned from the answers so far. */
interface State {
  base: string;
  vars: Record<string, string>;
  signupToken?: string;
  code?: string;
  accountId?: string;
  keyId?: string;
  batchId?: string;
}

/** A command with the reader's placeholders filled in. */
function fill(command: string, state: State): string {
  let c = command.replaceAll(DOC_BASE, state.base);
  const key = state.vars.KEY;
  if (key) c = c.replace(/tsk_[A-Za-z0-9]*…/g, key);
  if (state.accountId) c = c.replaceAll('acc_…', state.accountId);
  if (state.keyId) c = c.replaceAll('key_…', state.keyId);
  if (state.batchId) c = c.replaceAll('batch_…', state.batchId);
  if (state.signupToken) c = c.replace(/sut_[A-Za-z0-9]*…/g, state.signupToken);
  if (state.code) c = c.replace(/"code":"\d{6}"/, `"code":"${state.code}"`);
  return c;
}

/** Learns ids, keys and cursors from a JSON answer, as the reader would copy them. */
function learn(output: string, state: State): void {
  let answer: Record<string, unknown>;
  try {
    answer = JSON.parse(output) as Record<string, unknown>;
  } catch {
    return;
  }
  if (typeof answer.api_key === 'string') state.vars.KEY = answer.api_key;
  if (typeof answer.key_id === 'string') state.keyId = answer.key_id;
  if (typeof answer.account_id === 'string') state.accountId = answer.account_id;
  if (typeof answer.signup_token === 'string') state.signupToken = answer.signup_token;
  if (typeof answer.id === 'string' && answer.id.startsWith('batch_')) state.batchId = answer.id;
  if (typeof answer.playlist_id === 'string' && typeof answer.next_cursor === 'string') {
    state.vars.NEXT = answer.next_cursor;
  }
  const comments = answer.comments as { replies_cursor?: string }[] | undefined;
  const replies = comments?.find((c) => c.replies_cursor)?.replies_cursor;
  if (replies && !state.vars.REPLIES_CURSOR) state.vars.REPLIES_CURSOR = replies;
}

/** Runs one command under bash; curl fails on HTTP errors. */
function run(command: string, state: State): Promise<{ code: number; out: string; err: string }> {
  const vars = { ...state.vars, B: state.base, H: `Authorization: Bearer ${state.vars.KEY ?? ''}` };
  const script = `set -o pipefail\ncurl() { command curl --fail-with-body "$@"; }\n${command}`;
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', script],
      { env: { ...process.env, ...vars }, timeout: 15_000, cwd: ROOT },
      (error, out, err) => resolve({ code: error ? ((error.code as number) ?? 1) : 0, out, err }),
    );
  });
}

let server: ChildProcess;
let stderr = '';
const state: State = { base: '', vars: {} };

beforeAll(async () => {
  const start = commands(
    shellBlocks(README).find((b) => b.body.includes('fixtures:fixtures/demo'))!.body,
  )[0]!;
  server = spawn('bash', ['-c', start], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, TUBESCRIBE_PORT: '0', TUBESCRIBE_STORAGE: 'memory', TUBESCRIBE_LOG: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
  });
  state.base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${stderr}`)), 60_000);
    server.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    server.once('exit', (code) => reject(new Error(`the server exited with ${code}: ${stderr}`)));
  });
}, 90_000);

afterAll(() => {
  try {
    if (server?.pid) process.kill(-server.pid, 'SIGTERM');
  } catch {
    // already gone
  }
});

describe('README', () => {
  it('runs every shell block that calls the server, in order, against `npm start` on the demo data', async () => {
    const ran: string[] = [];
    for (const block of shellBlocks(README)) {
      if (block.skip) continue;
      // A reader pastes a block at once, but reads for a while between blocks: the lines of one
      // block run back to back (they must fit the key's per-second limit as written).
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const lines = commands(block.body);
      if (!lines.some(talksToServer)) continue;
      for (const command of lines) {
        if (command.startsWith('B=') || command.startsWith('export KEY=')) continue; // the walk's own state
        const filled = fill(command, state);
        const result = await run(filled, state);
        const where = `README line ${block.line}: ${command.split('\n')[0]}`;
        expect(result.code, `${where}\n${result.out}\n${result.err}`).toBe(0);
        learn(result.out, state);
        if (command.includes('/api/agent/signup')) {
          const mailed = /sign-up code: (\d{6})/.exec(stderr.slice(stderr.lastIndexOf('mail not sent')));
          expect(mailed, `${where}: no code in the server log`).not.toBeNull();
          state.code = mailed![1]!;
        }
        ran.push(where);
      }
    }
    // The walk covers the quick start, every API section and the agent sign-up.
    expect(ran.length).toBeGreaterThan(30);
    expect(ran.some((r) => r.includes('/api/agent/verify'))).toBe(true);
  }, 240_000);
});
