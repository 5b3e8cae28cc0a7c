/**
 * End to end: the `tubescribe` command as a child process on a real socket, fs storage and a
 * fixtures upstream. Creates a key through the admin API, spends credits, stops on SIGTERM,
 * restarts on the same folder with everything kept, and refuses a second process on the folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChildServer, FIXTURE_VIDEO, startServer, writeFixtures } from '../helpers/processes.ts';

const ADMIN = 'e2e-admin-token-0123456789abcdefgh';
const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
let dir: string;

/** Starts the CLI on the test's fs storage and fixtures, with the e2e admin token. */
function start(env: Record<string, string> = {}): Promise<ChildServer> {
  return startServer({
    TUBESCRIBE_STORAGE: `fs:${join(dir, 'store')}`,
    TUBESCRIBE_UPSTREAM: `fixtures:${join(dir, 'fixtures')}`,
    TUBESCRIBE_ADMIN_TOKEN: ADMIN,
    ...env,
  });
}

const stop = (server: ChildServer): Promise<number | null> => server.stop();

const json = async (res: Response) => (await res.json()) as Record<string, unknown>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-e2e-'));
  await writeFixtures(join(dir, 'fixtures'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('tubescribe serve (child process)', () => {
  let key = '';
  let account = '';

  it('creates a key through the admin API and spends credits over a real socket', async () => {
    const server = await start();
    try {
      const created = await fetch(`${server.url}/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ credits: 5, plan: 'paid' }),
      });
      expect(created.status).toBe(201);
      const body = await json(created);
      key = String(body.api_key);
      account = String(body.account_id);
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${server.url}/v1/transcripts?video_id=${FIXTURE_VIDEO}&format=text`, {
          headers: { authorization: `Bearer ${key}` },
        });
        expect(res.status).toBe(200);
        expect(await res.text()).toBe('Hi there.\n');
      }
      const missing = await fetch(`${server.url}/v1/transcripts?video_id=bbbbbbbbbbb`, {
        headers: { 'x-api-key': key },
      });
      expect(missing.status).toBe(404);
      const me = await json(await fetch(`${server.url}/v1/account`, { headers: { 'x-api-key': key } }));
      expect(me.credits).toBe(3);
    } finally {
      expect(await stop(server)).toBe(0);
    }
  });

  it('refuses a second process on the same fs folder while one runs', async () => {
    const server = await start();
    try {
      const second = spawnSync(
        process.execPath,
        [...CLI, 'keys', 'create', '--credits', '1', '--storage', `fs:${join(dir, 'store')}`],
        {
          encoding: 'utf8',
        },
      );
      expect(second.status).not.toBe(0);
      expect(second.stderr).toMatch(/in use by another tubescribe process/);
    } finally {
      await stop(server);
    }
  });

  it('keeps keys, balances and grants across a restart, and CLI keys work after it', async () => {
    const cli = spawnSync(
      process.execPath,
      [...CLI, 'keys', 'create', '--credits', '7', '--plan', 'paid', '--storage', `fs:${join(dir, 'store')}`],
      { encoding: 'utf8' },
    );
    expect(cli.status, cli.stderr).toBe(0);
    const cliKey = cli.stdout.trim();
    expect(cliKey).toMatch(/^tsk_[A-Za-z0-9]{38}$/);

    const server = await start();
    try {
      const me = await json(await fetch(`${server.url}/v1/account`, { headers: { 'x-api-key': key } }));
      expect(me).toMatchObject({ account_id: account, credits: 3, plan: 'paid' });
      const other = await json(await fetch(`${server.url}/v1/account`, { headers: { 'x-api-key': cliKey } }));
      expect(other.credits).toBe(7);
      const grant = (idem: string) =>
        fetch(`${server.url}/admin/accounts/${account}/credits`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${ADMIN}`,
            'content-type': 'application/json',
            'idempotency-key': idem,
          },
          body: JSON.stringify({ amount: 10 }),
        });
      expect(await json(await grant('once'))).toMatchObject({ credits: 13 });
      expect(await json(await grant('once'))).toMatchObject({ credits: 13 });
    } finally {
      await stop(server);
    }
    const again = await start();
    try {
      const res = await fetch(`${again.url}/admin/accounts/${account}/credits`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${ADMIN}`,
          'content-type': 'application/json',
          'idempotency-key': 'once',
        },
        body: JSON.stringify({ amount: 10 }),
      });
      expect(await json(res)).toMatchObject({ credits: 13 });
    } finally {
      await stop(again);
    }
  });
});

describe('tubescribe keys / credits (child process, on their own storage)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tubescribe-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const cli = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [...CLI, ...args, '--storage', `fs:${join(dir, 'store')}`], {
      encoding: 'utf8',
      env: { ...process.env, ...env },
      timeout: 30_000,
    });

  it("takes the server's plans from TUBESCRIBE_PLANS and TUBESCRIBE_DEFAULT_PLAN", () => {
    const env = {
      TUBESCRIBE_PLANS: '{"team":[{"limit":20,"window":1}]}',
      TUBESCRIBE_DEFAULT_PLAN: 'team',
    };
    const named = cli(['keys', 'create', '--credits', '1', '--plan', 'team'], env);
    expect(named.status, named.stderr).toBe(0);
    expect(named.stderr).toContain('plan team');
    const byDefault = cli(['keys', 'create', '--credits', '1'], env);
    expect(byDefault.status, byDefault.stderr).toBe(0);
    expect(byDefault.stderr).toContain('plan team');
  });

  it('refuses what the admin API refuses, and flags no command takes, before touching storage', () => {
    const made = cli(['keys', 'create', '--credits', '5']);
    const account = /account_id (acc_\S+)/.exec(made.stderr)![1]!;
    for (const [args, message] of [
      [['keys', 'create', '--credit', '100'], /keys create has no --credit flag/],
      [['keys', 'create', '--plan'], /--plan needs a plan name/],
      [['keys', 'create', '--credits', '1000000001'], /from 0 to 1,000,000,000/],
      [['credits', 'grant', account, '--amount', '0'], /from 1 to 1,000,000,000/],
      [['credits', 'grant', account, '--amount', '99999999999999999999'], /from 1 to 1,000,000,000/],
      [['serve', '--prot', '9000'], /serve has no --prot flag/],
    ] as const) {
      const run = cli([...args]);
      expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    const balance = cli(['credits', 'grant', account, '--amount', '1']);
    expect(balance.status, balance.stderr).toBe(0);
    expect(JSON.parse(balance.stdout)).toMatchObject({ credits: 6 });
  });

  it('a setting serve cannot use exits 2 naming it, as every other setting mistake does', () => {
    for (const [env, message] of [
      [{ TUBESCRIBE_MAILER: 'bogus://x' }, /TUBESCRIBE_MAILER/],
      [{ TUBESCRIBE_DNS: 'bogus' }, /TUBESCRIBE_DNS/],
      [{ TUBESCRIBE_YOUTUBE_CLIENTS: '{bad' }, /TUBESCRIBE_YOUTUBE_CLIENTS/],
      [
        { TUBESCRIBE_HOST: '203.0.113.9', TUBESCRIBE_PORT: '0' },
        /Cannot listen on TUBESCRIBE_HOST=203\.0\.113\.9/,
      ],
    ] as const) {
      const run = spawnSync(process.execPath, [...CLI, 'serve'], {
        encoding: 'utf8',
        env: { ...process.env, TUBESCRIBE_STORAGE: 'memory', ...env },
        timeout: 20_000,
      });
      expect(run.status, `${JSON.stringify(env)}: ${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
    }
  });

  it('exits with the reason when Redis cannot be reached (it does not hang reconnecting)', () => {
    const run = spawnSync(
      process.execPath,
      [...CLI, 'keys', 'create', '--credits', '1', '--storage', 'redis://127.0.0.1:9/'],
      { encoding: 'utf8', timeout: 20_000 },
    );
    expect(run.signal, 'killed by the test timeout: the process hung').toBeNull();
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/Cannot connect to redis:\/\/127\.0\.0\.1:9/);
  });
});
