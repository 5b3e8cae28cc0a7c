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
import { type Config, describeSpec } from './config.ts';
import { openStorage } from './storage.ts';

/** The app options of a configuration, over opened storage. */
export function appOptionsFor(config: Config, storage: Pick<AppOptions, 'kv' | 'ledger'>): AppOptions {
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
  return app;
}

/** Runs the server until a signal stops it. */
export async function runServe(config: Config): Promise<void> {
  const storage = await openStorage(config.storage, systemClock);
  let running: Awaited<ReturnType<typeof serve>>;
  try {
    running = await serve({ app: appOptionsFor(config, storage), port: config.port, host: config.host });
  } catch (error) {
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
