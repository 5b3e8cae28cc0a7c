/**
 * The MCP Inspector's command line (`npx -y @modelcontextprotocol/inspector@2 --cli`) against a
 * server started as `npm start` starts it (the CLI with environment variables, offline fixtures),
 * over loopback: it lists the tools and calls `get_transcript`. The Inspector comes from the npm
 * registry through npx; when npx cannot fetch it (no registry), the test reports itself skipped.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildServer,
  createKey,
  FIXTURE_VIDEO,
  startServer,
  writeFixtures,
} from '../helpers/processes.ts';

const INSPECTOR = '@modelcontextprotocol/inspector@2.12.0';
const TIMEOUT_MS = 120_000;

let server: ChildServer;
let dir: string;
let key: string;

/** Runs the Inspector CLI; resolves with its exit status and output. */
function inspector(args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'npx',
      ['-y', INSPECTOR, '--cli', `${server.url}/mcp`, ...args],
      { timeout: TIMEOUT_MS, cwd: dir, env: { ...process.env, npm_config_update_notifier: 'false' } },
      (error, stdout, stderr) => resolve({ ok: !error, stdout, stderr }),
    );
  });
}

/** True when npx could not get the Inspector at all (no registry here). */
function unavailable(stderr: string): boolean {
  return /E404|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|network|could not determine executable/i.test(stderr);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-inspector-'));
  await writeFixtures(join(dir, 'fixtures'));
  server = await startServer({
    TUBESCRIBE_STORAGE: 'memory',
    TUBESCRIBE_UPSTREAM: `fixtures:${join(dir, 'fixtures')}`,
  });
  key = (await createKey(server.url, 5)).api_key;
}, 60_000);

afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('MCP Inspector CLI', () => {
  it(
    'lists the tools and calls get_transcript on a server started like npm start',
    async (ctx) => {
      const auth = ['--header', `Authorization: Bearer ${key}`];
      const list = await inspector(['--method', 'tools/list', ...auth]);
      if (!list.ok && unavailable(list.stderr)) {
        console.warn(`SKIPPED: npx cannot fetch ${INSPECTOR} here:\n${list.stderr.slice(0, 500)}`);
        ctx.skip();
      }
      expect(list.ok, list.stderr).toBe(true);
      const tools = (JSON.parse(list.stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
      expect(tools).toContain('get_transcript');
      expect(tools).toContain('search_youtube');

      const call = await inspector([
        '--method',
        'tools/call',
        '--tool-name',
        'get_transcript',
        '--tool-arg',
        `video=${FIXTURE_VIDEO}`,
        ...auth,
      ]);
      expect(call.ok, call.stderr).toBe(true);
      const result = JSON.parse(call.stdout) as {
        isError?: boolean;
        structuredContent: { video_id: string };
      };
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent.video_id).toBe(FIXTURE_VIDEO);

      const account = await fetch(`${server.url}/v1/account`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(((await account.json()) as { credits: number }).credits).toBe(4);
    },
    2 * TIMEOUT_MS + 10_000,
  );
});
