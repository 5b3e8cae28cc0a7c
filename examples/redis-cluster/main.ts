/**
 * Several tubescribe instances on one Redis behind a round-robin load balancer, all on
 * 127.0.0.1. Every instance is its own process; they share keys, credits, limits and the cache
 * through Redis, so the balancer may send any request anywhere.
 *
 *   TUBESCRIBE_STORAGE=redis://127.0.0.1:6379 TUBESCRIBE_ADMIN_TOKEN=change-me \
 *   TUBESCRIBE_UPSTREAM=fixtures:fixtures/demo node --import tsx examples/redis-cluster/main.ts
 *
 * `INSTANCES` (default 3) and `PORT` (the balancer's, default 8787; 0 = any free port) tune it;
 * every `TUBESCRIBE_*` variable is passed to the instances. It prints
 * `load balancer listening on http://127.0.0.1:PORT (3 instances)` and stops everything on
 * SIGTERM/SIGINT.
 */
import process from 'node:process';
import { startBalancer } from './balancer.ts';
import { startInstances } from './instances.ts';

const storage = process.env.TUBESCRIBE_STORAGE ?? 'redis://127.0.0.1:6379';
if (!/^rediss?:\/\//.test(storage)) {
  process.stderr.write('TUBESCRIBE_STORAGE must be a redis:// URL: several instances share one Redis.\n');
  process.exit(2);
}
const count = Number(process.env.INSTANCES ?? 3);
const port = Number(process.env.PORT ?? 8787);
if (!Number.isInteger(count) || count < 1 || count > 32) {
  process.stderr.write('INSTANCES must be a whole number from 1 to 32.\n');
  process.exit(2);
}

const instances = await startInstances(count, { ...process.env, TUBESCRIBE_STORAGE: storage });
const balancer = await startBalancer(
  instances.map((instance) => instance.url),
  port,
);
for (const [i, instance] of instances.entries()) console.log(`instance-${i} on ${instance.url}`);
console.log(`load balancer listening on ${balancer.url} (${count} instances)`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await balancer.close();
  const codes = await Promise.all(instances.map((instance) => instance.stop()));
  process.exitCode = codes.every((code) => code === 0) ? 0 : 1;
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
// An instance that dies on its own takes the example down (a real deployment restarts it).
for (const instance of instances) {
  instance.child.once('exit', (code) => {
    if (stopping) return;
    console.error(`an instance exited with code ${code}; stopping`);
    void stop();
  });
}
