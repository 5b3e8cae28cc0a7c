/**
 * `tubescribe serve`: the configured server on Node, printing `listening on http://HOST:PORT`,
 * stopping cleanly on SIGTERM/SIGINT after the requests in flight.
 * @module
 */
import process from 'node:process';
import { serve } from '../../adapters/node/index.ts';
import { createFixturesUpstream } from '../drivers/fixtures-upstream.ts';
import { createJsonLogger } from '../drivers/system.ts';
import type { AppOptions } from '../options.ts';
import type { Upstream } from '../ports/upstream.ts';
import type { Config } from './config.ts';
import { openStorage } from './storage.ts';

/** The upstream a configuration names. */
export function upstreamFor(config: Config): Upstream | undefined {
  if (config.upstream.startsWith('fixtures:'))
    return createFixturesUpstream(config.upstream.slice('fixtures:'.length));
  return undefined;
}

/** Runs the server until a signal stops it. */
export async function runServe(config: Config): Promise<void> {
  const logger = createJsonLogger({ level: config.log });
  const storage = await openStorage(config.storage, { now: () => Date.now() });
  const app: AppOptions = { kv: storage.kv, ledger: storage.ledger, logger };
  const upstream = upstreamFor(config);
  if (upstream) app.upstream = upstream;
  if (config.adminToken) app.adminToken = config.adminToken;
  if (config.secret) app.secret = config.secret;
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
