/**
 * `tubescribe serve`: the configured server on Node, printing `listening on http://HOST:PORT`,
 * stopping cleanly on SIGTERM/SIGINT after the requests in flight.
 * @module
 */
import process from 'node:process';
import { serve } from '../../adapters/node/index.ts';
import { proxyFetch } from '../../adapters/node/proxy-fetch.ts';
import { nodeUpstreamFetch } from '../../adapters/node/upstream-fetch.ts';
import { loggedFetch, loggedProxyFetch } from '../drivers/fetch-log.ts';
import { createFixturesUpstream } from '../drivers/node/fixtures-upstream.ts';
import { createMailer } from '../drivers/node/mailer.ts';
import { createResolver } from '../drivers/node/resolver.ts';
import { createJsonLogger, systemClock } from '../drivers/system.ts';
import type { AppOptions } from '../options.ts';
import type { JobQueue } from '../ports/jobs.ts';
import { asConfigError, type Config, ConfigError, describeSpec, type StorageSpec } from './config.ts';
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
      ...(config.potProvider ? { potProvider: config.potProvider } : {}),
      // TUBESCRIBE_LOG=debug: every YouTube call in the log (host and path, never the query).
      ...(config.log === 'debug' ? { fetch: loggedFetch(nodeUpstreamFetch, logger, systemClock) } : {}),
    };
    if (config.log === 'debug') app.proxyFetch = loggedProxyFetch(proxyFetch, logger, systemClock);
  }
  if (config.adminToken) app.adminToken = config.adminToken;
  if (config.metricsToken) app.metricsToken = config.metricsToken;
  if (config.secret) app.secret = config.secret;
  if (config.trustProxy > 0) app.trustProxy = config.trustProxy;
  if (config.publicUrl) app.publicUrl = config.publicUrl;
  if (config.corsOrigins === '*' || config.corsOrigins.length > 0) app.corsOrigins = config.corsOrigins;
  app.mailer = asConfigError(() => createMailer(config.mailer, logger, { revealCodes: config.revealCodes }));
  app.resolver = asConfigError(() => createResolver(config.dns)) ?? null;
  app.signup = { mode: config.signup };
  if (config.webhookPrivate) app.webhooks = { allowPrivate: true };
  if (!config.dashboard) app.dashboard = false;
  if (config.plans.plans) app.plans = config.plans.plans;
  if (config.plans.defaultPlan) app.planAssignment = { initial: config.plans.defaultPlan };
  if (config.batchConcurrency !== undefined) app.batch = { instanceConcurrency: config.batchConcurrency };
  return app;
}

/** Errors of `listen` that the settings caused (an address or port this machine cannot take). */
const LISTEN_CODES = new Set(['EADDRINUSE', 'EADDRNOTAVAIL', 'EACCES', 'ENOTFOUND', 'EAI_AGAIN']);

/** A listen failure as a ConfigError naming the settings; anything else as it is. */
function listenError(error: unknown, config: Config): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !LISTEN_CODES.has(code)) return error;
  return new ConfigError(
    `Cannot listen on TUBESCRIBE_HOST=${config.host} TUBESCRIBE_PORT=${config.port}: ${(error as Error).message}`,
  );
}

/** How long a stop may take before the process exits anyway (with code 1). */
const HARD_STOP_MS = 9_500;

/**
 * Runs the server until SIGTERM or SIGINT stops it: batch work is handed back at once, requests
 * in flight get up to 8 s, then the job queue, the storage and the folder lock are closed.
 */
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
    throw listenError(error, config);
  }
  const logger = running.tubescribe.ports.logger;
  process.stdout.write(`tubescribe listening on ${running.url}\n`);
  logger.log('info', 'started', {
    url: running.url,
    storage: describeSpec(config.storage),
    upstream: describeSpec(config.upstream),
    admin: config.adminToken ? 'token' : 'off',
    signup: config.signup,
  });
  if (config.signupWarning) {
    logger.log('warn', config.signupWarning, { signup: 'off', mailer: 'console' });
    process.stdout.write(`tubescribe: WARNING: ${config.signupWarning}\n`);
  }
  await new Promise<void>((resolve, reject) => {
    const stop = (signal: string) => {
      const began = Date.now();
      logger.log('info', 'stopping', { signal });
      // The last resort: a stop that hangs past the 10 s an orchestrator waits is cut short, non-zero.
      const hard = setTimeout(() => {
        logger.log('error', 'shutdown did not finish in time; exiting', { ms: Date.now() - began });
        process.exit(1);
      }, HARD_STOP_MS);
      hard.unref();
      // close() hands the running batch tasks back at once; a shared queue's worker closes meanwhile
      // (so this instance takes no more units while requests drain), the storage last.
      Promise.all([running.close(), jobs?.close()])
        .then(() => storage.close())
        .then(
          () => {
            clearTimeout(hard);
            logger.log('info', 'stopped', { signal, ms: Date.now() - began });
            resolve();
          },
          (error: unknown) => {
            clearTimeout(hard);
            logger.log('error', 'shutdown failed', { error: String(error) });
            reject(error);
          },
        );
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}
