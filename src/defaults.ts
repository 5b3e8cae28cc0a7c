/**
 * The ports of an app: the ones the options give, and a default for each one they leave out
 * (memory storage, the embedded ledger, the YouTube driver, the console mailer, the system clock
 * and CSPRNG). Storage is wrapped so that its failures answer `503 storage_unavailable`.
 * Synchronous: nothing here waits for I/O (the embedded ledger loads its state on first use).
 * @module
 */
import { loadDisposableDomains } from './drivers/disposable.ts';
import { createMemoryJobQueue } from './drivers/jobs-memory.ts';
import { createMemoryKv } from './drivers/kv-unstorage.ts';
import { createEmbeddedLedger } from './drivers/ledger-embedded.ts';
import { createConsoleMailer } from './drivers/mailer-console.ts';
import { guardKv, guardLedger } from './drivers/storage-guard.ts';
import { createJsonLogger, cryptoRandom, systemClock } from './drivers/system.ts';
import { createYouTubeUpstream } from './drivers/youtube/index.ts';
import type { AppOptions } from './options.ts';
import type { Clock } from './ports/clock.ts';
import type { Resolver } from './ports/dns.ts';
import type { JobQueue } from './ports/jobs.ts';
import type { KeyValue } from './ports/kv.ts';
import type { Ledger } from './ports/ledger.ts';
import type { Logger } from './ports/logger.ts';
import type { Mailer } from './ports/mailer.ts';
import type { Random } from './ports/random.ts';
import type { Upstream } from './ports/upstream.ts';
import type { HostLookup } from './services/webhooks.ts';

/** Every port an app uses. */
export interface Ports {
  upstream: Upstream;
  /** Guarded: a backend failure rejects with `storage_unavailable`. */
  kv: KeyValue;
  /** Guarded: a backend failure rejects with `storage_unavailable`. */
  ledger: Ledger;
  /** Batch tasks and webhook deliveries. */
  jobs: JobQueue;
  clock: Clock;
  random: Random;
  logger: Logger;
  mailer: Mailer;
  /** Undefined = no deliverability lookups. */
  resolver: Resolver | undefined;
  disposableDomains: () => Promise<(domain: string) => boolean>;
  /** Undefined = webhook host names are not resolved before delivery (IP literals are still checked). */
  hostLookup: HostLookup | undefined;
}

/** The ports of `options`, with defaults for what they leave out. */
export function resolvePorts(options: AppOptions): Ports {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandom;
  const logger = options.logger ?? createJsonLogger({ clock });
  const kv = options.kv ?? createMemoryKv(clock);
  return {
    upstream:
      options.upstream ??
      createYouTubeUpstream({
        ...options.youtube,
        ...(options.proxyFetch ? { proxyFetch: options.proxyFetch } : {}),
        clock,
        random,
        logger,
      }),
    kv: guardKv(kv),
    ledger: guardLedger(options.ledger ?? createEmbeddedLedger({ clock, kv })),
    // Real time: its delays are waits on timers, whatever clock the app reads.
    jobs: options.jobs ?? createMemoryJobQueue(),
    clock,
    random,
    logger,
    mailer: options.mailer ?? createConsoleMailer(logger),
    resolver: options.resolver ?? undefined,
    disposableDomains: options.disposableDomains ?? loadDisposableDomains,
    hostLookup: options.hostLookup,
  };
}
