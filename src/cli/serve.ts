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
import { createJsonLogger } from '../drivers/system.ts';
import { createYouTubeUpstream } from '../drivers/youtube/index.ts';
import { profilesFromEnv } from '../drivers/youtube/profiles.ts';
import type { AppOptions } from '../options.ts';
import type { Logger } from '../ports/logger.ts';
import type { Upstream } from '../ports/upstream.ts';
import type { Config } from './config.ts';
import { openStorage } from './storage.ts';

/** The upstream a configuration names: the fixtures folder, or YouTube (origin, proxies, clients). */
export function upstreamFor(
  config: Config,
  logger: Logger,
  env: Readonly<Record<string, string | undefined>>,
): Upstream {
  if (config.upstream.startsWith('fixtures:')) {
    return createFixturesUpstream(config.upstream.slice('fixtures:'.length));
  }
  const proxies = config.proxy
    ?.split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return createYouTubeUpstream({
    logger,
    clients: profilesFromEnv(env),
    ...(config.youtubeOrigin ? { origin: config.youtubeOrigin } : {}),
    ...(proxies?.length ? { proxies } : {}),
  });
}

/** Runs the server until a signal stops it. */
export async function runServe(config: Config): Promise<void> {
  const logger = createJsonLogger({ level: config.log });
  const storage = await openStorage(config.storage, { now: () => Date.now() });
  const app: AppOptions = { kv: storage.kv, ledger: storage.ledger, logger };
  app.upstream = upstreamFor(config, logger, process.env);
  if (config.adminToken) app.adminToken = config.adminToken;
  if (config.secret) app.secret = config.secret;
  if (config.trustProxy > 0) app.trustProxy = config.trustProxy;
  if (config.publicUrl) app.publicUrl = config.publicUrl;
  app.mailer = createMailer(config.mailer, logger);
  app.resolver = createResolver(config.dns) ?? null;
  app.signup = { mode: config.signup };
  let running: Awaited<ReturnType<typeof serve>>;
  try {
    running = await serve({ app, port: config.port, host: config.host });
  } catch (error) {
    await storage.close();
    throw error;
  }
  process.stdout.write(`tubescribe listening on ${running.url}\n`);
  logger.log('info', 'started', {
    url: running.url,
    storage: config.storage.replace(/\/\/[^@]*@/, '//***@'),
    upstream: config.upstream,
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
