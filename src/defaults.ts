/**
 * The ports of an app: the ones the options give, and a default for each one they leave out
 * (memory storage, the embedded ledger, the YouTube driver, the console mailer, the system clock
 * and CSPRNG). Storage is wrapped so that its failures answer `503 storage_unavailable`.
 * Synchronous: nothing here waits for I/O (the embedded ledger loads its state on first use).
 * @module
 */
import { loadDisposableDomains } from './drivers/disposable.ts';
import { createMemoryJobQueue } from './drivers/jobs-memory.ts';
import { createMemoryKv } from './drivers/kv-memory.ts';
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
import type { Upstream, UpstreamObserver } from './ports/upstream.ts';
import type { Metrics } from './services/metrics.ts';
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

/**
 * The default YouTube driver; `metrics` hears every YouTube request (besides the options' own
 * `youtube.onUpstream`) and reads the requests in flight when scraped.
 */
function youtubeUpstream(
  options: AppOptions,
  ports: Pick<Ports, 'clock' | 'random' | 'logger'>,
  metrics: Metrics | undefined,
): Upstream {
  const own = options.youtube?.onUpstream;
  const onUpstream: UpstreamObserver | undefined = metrics
    ? (client, endpoint, outcome) => {
        metrics.upstream(client, endpoint, outcome);
        own?.(client, endpoint, outcome);
      }
    : own;
  const youtube = createYouTubeUpstream({
    ...(options.upstreamFetch ? { fetch: options.upstreamFetch } : {}),
    ...options.youtube,
    ...(options.proxyFetch ? { proxyFetch: options.proxyFetch } : {}),
    ...(onUpstream ? { onUpstream } : {}),
    ...ports,
  });
  metrics?.watchUpstreamInFlight(() => youtube.transport.gate.inUse);
  return youtube;
}

/**
 * The ports of `options`, with defaults for what they leave out. `metrics` (the app's) is told
 * of the default YouTube driver's requests.
 */
export function resolvePorts(options: AppOptions, metrics?: Metrics): Ports {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? cryptoRandom;
  const logger = options.logger ?? createJsonLogger({ clock });
  const kv = options.kv ?? createMemoryKv(clock);
  return {
    upstream: options.upstream ?? youtubeUpstream(options, { clock, random, logger }, metrics),
    kv: guardKv(kv),
    // Over the app's own memory storage the ledger persists nothing: both die with the process.
    ledger: guardLedger(options.ledger ?? createEmbeddedLedger({ clock, ...(options.kv ? { kv } : {}) })),
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
