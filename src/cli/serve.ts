/**
 * `tubescribe serve`: the configured server on Node, printing `listening on http://HOST:PORT`,
 * stopping cleanly on SIGTERM/SIGINT after the requests in flight.
 * @module
 */
import process from 'node:process';
import { serve } from '../../adapters/node/index.ts';
import { createFixturesUpstream } from '../drivers/node/fixtures-upstream.ts';
import { createMailer } from '../drivers/node/mailer.ts';
import { createResolver } from '../drivers/node/resolver.ts';
import { createJsonLogger, systemClock } from '../drivers/system.ts';
import type { AppOptions } from '../options.ts';
import type { JobQueue } from '../ports/jobs.ts';
import { type Config, ConfigError, describeSpec, type StorageSpec } from './config.ts';
import { openStorage } from './storage.ts';

/**
 * The batch queue of a storage: BullMQ on the same Redis, so every instance works on every job;
 * undefined for memory and fs: (the app's in-process queue).
 */
async function jobQueueFor(spec: StorageSpec): Promise<JobQueue | undefined> {
  if (spec.kind !== 'redis') return undefined;
  const { createBullmqJobQueue, requireBullmq } = await import('../drivers/redis/jobs-bullmq.ts');
  await requireBullmq().catch(() => {
    throw new ConfigError(
      'redis:// storage runs batch jobs on BullMQ: install it next to tubescribe (npm install bullmq).',
    );
  });
  return createBullmqJobQueue({ url: spec.url });
}

/** The app options of a configuration, over opened storage. */
export function appOptionsFor(
  config: Config,
  storage: Pick<AppOptions, 'kv' | 'ledger' | 'jobs'>,
): AppOptions {
  const logger = createJsonLogger({ level: config.log });
  const app: AppOptions = { ...storage, logger };
  if (config.upstream.kind === 'fixtures') app.upstream = createFixturesUpstream(config.upstream.dir);
  else {
    app.youtube = {
      clients: config.youtubeClients,
      ...(config.youtubeOrigin ? { origin: config.youtubeOrigin } : {}),
      ...(config.proxies.length > 0 ? { proxies: config.proxies } : {}),
    };
  }
  if (config.adminToken) app.adminToken = config.adminToken;
  if (config.secret) app.secret = config.secret;
  if (config.trustProxy > 0) app.trustProxy = config.trustProxy;
  if (config.publicUrl) app.publicUrl = config.publicUrl;
  app.mailer = createMailer(config.mailer, logger);
  app.resolver = createResolver(config.dns) ?? null;
  app.signup = { mode: config.signup };
  if (config.webhookPrivate) app.webhooks = { allowPrivate: true };
  return app;
}

/** Runs the server until a signal stops it. */
export async function runServe(config: Config): Promise<void> {
  const storage = await openStorage(config.storage, systemClock);
  let jobs: JobQueue | undefined;
  let running: Awaited<ReturnType<typeof serve>>;
  try {
    jobs = await jobQueueFor(config.storage);
    const stored = { kv: storage.kv, ledger: storage.ledger, ...(jobs ? { jobs } : {}) };
    running = await serve({ app: appOptionsFor(config, stored), port: config.port, host: config.host });
  } catch (error) {
    await jobs?.close();
    await storage.close();
    throw error;
  }
  const logger = running.tubescribe.ports.logger;
  process.stdout.write(`tubescribe listening on ${running.url}\n`);
  logger.log('info', 'started', {
    url: running.url,
    storage: describeSpec(config.storage),
    upstream: describeSpec(config.upstream),
    admin: config.adminToken ? 'token' : 'off',
  });
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      logger.log('info', 'stopping', { signal });
      running
        .close()
        .then(() => jobs?.close())
        .then(() => storage.close())
        .then(resolve, (error: unknown) => {
          logger.log('error', 'shutdown failed', { error: String(error) });
          resolve();
        });
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
