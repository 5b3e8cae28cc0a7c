/**
 * The shared JobQueue contract (test/contracts/jobs.ts, unchanged) against the Deno KV queue on a
 * local KV: in memory (one instance), and as several connections to one file (each instance its
 * own connection), where closing a connection with a call in flight is the instance dying. Run
 * (after `npm ci`): `npx -y deno@2.9.6 test -A --unstable-kv --no-check --config
 * test/deno/deno.json test/deno/jobs-kv-queue.test.ts`.
 */
import { createDenoKvJobQueue } from '../../src/drivers/deno/jobs-kv-queue.ts';
import type { JobQueue } from '../../src/ports/jobs.ts';
import { jobQueueContract } from '../contracts/jobs.ts';
import { type DenoKvConnection, deno } from './deno-api.ts';
import { testsRun } from './vitest-shim.ts';

const VARIANTS = ['deno kv, in memory', 'deno kv, connections to one file'] as const;

/**
 * A local KV file hands a dead connection's message on 5 s after that connection's last
 * keepalive, when another connection opens (its queue cleanup); the contract opens the survivor
 * after `crash` resolves.
 */
const DEAD_MESSAGE_DEADLINE_MS = 5_200;

jobQueueContract(VARIANTS[0], async () => {
  const connections: DenoKvConnection[] = [];
  return {
    shared: false,
    async open() {
      const kv = await deno.openKv(':memory:');
      connections.push(kv);
      return createDenoKvJobQueue({ kv });
    },
    async cleanup() {
      for (const kv of connections) kv.close();
    },
  };
});

jobQueueContract(VARIANTS[1], async () => {
  const dir = await deno.makeTempDir({ prefix: 'tubescribe-jobs-' });
  const connections = new Map<JobQueue, DenoKvConnection>();
  const dead = new Set<JobQueue>();
  return {
    shared: true,
    async open() {
      const kv = await deno.openKv(`${dir}/jobs.db`);
      const queue = createDenoKvJobQueue({ kv, prefix: ['t', 'jobs'] });
      connections.set(queue, kv);
      return queue;
    },
    async crash(queue) {
      connections.get(queue)?.close();
      dead.add(queue);
      await new Promise((resolve) => setTimeout(resolve, DEAD_MESSAGE_DEADLINE_MS));
    },
    async cleanup() {
      for (const [queue, kv] of connections) if (!dead.has(queue)) kv.close();
      await deno.remove(dir, { recursive: true });
    },
  };
});

deno.test('the shared contract ran for every variant', () => {
  const ran = testsRun();
  for (const variant of VARIANTS) {
    const tests = ran.filter((t) => t.name.startsWith(`JobQueue contract: ${variant} > `));
    const skipped = tests.filter((t) => t.skipped).length;
    console.log(`JobQueue contract: ${variant}: ${tests.length - skipped} passed, ${skipped} skipped`);
    if (tests.length - skipped === 0) {
      throw new Error(
        `No contract test ran for '${variant}': is \`vitest\` mapped to test/deno/vitest-shim.ts?`,
      );
    }
  }
});
