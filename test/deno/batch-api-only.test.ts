/**
 * An API-only instance on Deno KV (`batch.instanceConcurrency: 0`): two apps on one KV file, built
 * as examples/deno-deploy.ts builds its isolates (Deno KV ledger, queue and KeyValue), one of them
 * API-only. A job of 12 videos submitted to the API-only app completes, and every upstream call of
 * its tasks was made by the other app (only the worker's fake YouTube knows those videos); the
 * API-only app still answers a single request itself.
 */
import { createStorage } from 'unstorage';
import denoKvDriver from 'unstorage/drivers/deno-kv';
import { createDenoKvJobQueue, createDenoKvLedger, withDeno } from '../../adapters/deno/index.ts';
import { createTubescribe, createUnstorageKv, systemClock, type Tubescribe } from '../../src/index.ts';
import { FakeUpstream, VIDEO } from '../fakes/upstream.ts';
import { type DenoKvConnection, deno } from './deno-api.ts';
import { afterEach, beforeEach, describe, expect, it } from './vitest-shim.ts';

const ADMIN_TOKEN = 'deno-kv-admin-token-0123456789abcdef';

/** One app on the KV file at `path`, with the connections it opened (closed by the test). */
async function openApp(
  path: string,
  upstream: FakeUpstream,
  instanceConcurrency?: number,
): Promise<{ app: Tubescribe; connections: DenoKvConnection[] }> {
  const ledgerKv = await deno.openKv(path);
  const queueKv = await deno.openKv(path);
  const kv = createUnstorageKv(createStorage({ driver: denoKvDriver({ base: 'docs', path }) }), {
    clock: systemClock,
    nativeTtl: true,
  });
  const app = createTubescribe(
    withDeno({
      adminToken: ADMIN_TOKEN,
      upstream,
      logger: { log() {} },
      ledger: createDenoKvLedger({ kv: ledgerKv, prefix: ['t', 'ledger'] }),
      jobs: createDenoKvJobQueue({ kv: queueKv, prefix: ['t', 'jobs'] }),
      kv,
      ...(instanceConcurrency === undefined ? {} : { batch: { instanceConcurrency } }),
    }),
  );
  await app.start();
  return { app, connections: [ledgerKv, queueKv] };
}

/** Upstream calls of every kind, added up. */
const callsOf = (upstream: FakeUpstream): number =>
  Object.values(upstream.calls).reduce((sum, n) => sum + n, 0);

/** Video ids of the job: `VIDEO` with its last 2 characters replaced by a number. */
const JOB_VIDEOS = Array.from({ length: 12 }, (_, i) => `${VIDEO.slice(0, 9)}${String(i).padStart(2, '0')}`);

describe('an API-only instance on Deno KV', () => {
  let dir: string;
  const opened: { app: Tubescribe; connections: DenoKvConnection[] }[] = [];
  beforeEach(async () => {
    dir = await deno.makeTempDir({ prefix: 'tubescribe-api-only-' });
  });
  afterEach(async () => {
    for (const { app, connections } of opened.splice(0)) {
      await app.close();
      for (const connection of connections) connection.close();
    }
    await deno.remove(dir, { recursive: true });
  });

  it('accepts a job that another instance on the same KV runs', async () => {
    const path = `${dir}/kv.db`;
    const apiUpstream = new FakeUpstream();
    const workerUpstream = new FakeUpstream();
    const player = workerUpstream.players.get(VIDEO)!;
    for (const videoId of JOB_VIDEOS) workerUpstream.players.set(videoId, { ...player, videoId });
    const api = await openApp(path, apiUpstream, 0);
    opened.push(api);
    const worker = await openApp(path, workerUpstream);
    opened.push(worker);
    const call = (route: string, init: RequestInit = {}) =>
      api.app.fetch(new Request(`http://tubescribe.test${route}`, init));

    const created = await call('/admin/keys', {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 100, plan: 'paid' }),
    });
    expect(created.status).toBe(201);
    const key = ((await created.json()) as { api_key: string }).api_key;
    const auth = { authorization: `Bearer ${key}` };

    const submitted = await call('/v1/batch', {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        tasks: JOB_VIDEOS.map((video_id) => ({ type: 'transcript', video_id, format: 'text' })),
      }),
    });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };

    let job: { status: string; successful_tasks: number } = { status: 'queued', successful_tasks: 0 };
    for (const until = Date.now() + 20_000; job.status !== 'completed' && Date.now() < until; ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      job = (await (await call(`/v1/batch/${id}`, { headers: auth })).json()) as typeof job;
    }
    expect(job.status).toBe('completed');
    expect(job.successful_tasks).toBe(JOB_VIDEOS.length);
    // The worker fetched what the tasks needed; the API-only app fetched nothing.
    expect(callsOf(workerUpstream)).toBeGreaterThan(0);
    expect(callsOf(apiUpstream)).toBe(0);

    // A single request is still answered by the API-only app itself.
    const single = await call(`/v1/channels/UCuAXFkgsw1L7xaCfnd5JJOw`, { headers: auth });
    expect(single.status).toBe(200);
    expect(callsOf(apiUpstream)).toBeGreaterThan(0);
  });
});
