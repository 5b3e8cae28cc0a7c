/**
 * tubescribe on Deno Deploy, or locally:
 *   TUBESCRIBE_ADMIN_TOKEN=$(openssl rand -hex 24) deno serve --host 127.0.0.1 --port 8787 \
 *     --unstable-kv --unstable-no-legacy-abort --allow-net --allow-env --allow-read --allow-write \
 *     examples/deno-deploy.ts
 * Deploy calls the default export's `fetch`; the connection info carries the client address.
 *
 * Deploy runs many isolates in many regions, so all state lives in the project's Deno KV:
 * - the ledger (credits, rate limits, one-time tokens) on the Deno KV ledger: exact across every
 *   isolate, each operation an atomic versionstamp-checked commit;
 * - accounts, keys, the shared secret and the cache's second level through unstorage's `deno-kv`
 *   driver (Deno KV values are at most 64 KiB: larger cache entries stay in the isolate's memory);
 * - batch tasks and webhook deliveries on Deno KV's queue, so every isolate works on every job.
 * Locally, `DENO_KV_PATH` picks the KV file, so several `deno serve` processes can share one.
 */
import { createStorage } from 'unstorage';
import denoKvDriver from 'unstorage/drivers/deno-kv';
import {
  createDenoKvJobQueue,
  createDenoKvLedger,
  type DenoKv,
  type DenoKvQueue,
  withDeno,
} from '../adapters/deno/index.ts';
import { createTubescribe, createUnstorageKv, systemClock } from '../src/index.ts';

interface DenoEnv {
  env: { get(name: string): string | undefined };
  openKv(path?: string): Promise<DenoKv>;
  addSignalListener?(signal: 'SIGTERM', handler: () => void): void;
}
const deno = (globalThis as unknown as { Deno: DenoEnv }).Deno;
const path = deno.env.get('DENO_KV_PATH');

// A deployed service is public: its admin token must be a real secret, never a placeholder.
const adminToken = deno.env.get('TUBESCRIBE_ADMIN_TOKEN');
if (
  adminToken !== undefined &&
  (adminToken.length < 24 || /change-?me|example|placeholder/i.test(adminToken))
) {
  throw new Error(
    'TUBESCRIBE_ADMIN_TOKEN must be a random secret of 24 characters or more (e.g. openssl rand -hex 24).',
  );
}

const ledgerKv = await deno.openKv(path);
const queueKv = await deno.openKv(path);
const ledger = createDenoKvLedger({ kv: ledgerKv, prefix: ['tubescribe', 'ledger'] });
const jobs = createDenoKvJobQueue({ kv: queueKv as unknown as DenoKvQueue, prefix: ['tubescribe', 'jobs'] });
const kv = createUnstorageKv(
  createStorage({ driver: denoKvDriver({ base: 'tubescribe:docs', ...(path ? { path } : {}) }) }),
  {
    clock: systemClock,
    nativeTtl: true,
  },
);

const tubescribe = createTubescribe(withDeno({ ...(adminToken ? { adminToken } : {}), ledger, kv, jobs }));

/** What Deploy (and `deno serve`) calls. */
const server: { fetch: (request: Request, info?: unknown) => Promise<Response> } = {
  fetch: async (request, info) => tubescribe.fetch(request, info),
};
export default server;

// On SIGTERM `deno serve` stops listening, but the KV queue's listener would keep the process
// alive: let the batch work in progress finish, close every KV connection, and the process ends.
// (Deploy sends no signals: it ends isolates by itself.)
deno.addSignalListener?.('SIGTERM', () => {
  void (async () => {
    await tubescribe.close();
    await jobs.close();
    await kv.close?.();
    for (const connection of [ledgerKv, queueKv]) connection.close();
  })();
});
