/**
 * What the two sources of the YouTube driver (`VideoSource`, `BrowseSource`) share:
 * the InnerTube client over the one transport, the client profiles and the injected ports. Its
 * own module, so the composition root (`index.ts`) and the sources never import each other.
 * @module
 */
import type { BreakerConfig } from '../../core/client-health.ts';
import type { Clock } from '../../ports/clock.ts';
import type { Logger } from '../../ports/logger.ts';
import type { Random } from '../../ports/random.ts';
import type { InnerTube } from './innertube.ts';
import type { PoTokenProvider } from './po-token.ts';
import type { ClientProfile } from './profiles.ts';

/** Shared dependencies of the two sources. */
export interface SourceDeps {
  tube: InnerTube;
  /** Client profiles by name (defaults with overrides applied). */
  profiles: Record<string, ClientProfile>;
  /** The player fallback chain, by profile name. */
  playerChain: readonly string[];
  logger: Logger;
  clock: Clock;
  /** The upstream's injected randomness: the only source of request nonces (`t`, `cpn`). */
  random: Random;
  /** Timeout of one caption download in ms (default `CAPTION_TIMEOUT_MS`, 4 s). */
  captionTimeoutMs?: number;
  /** The player clients' circuit breakers (default `DEFAULT_BREAKER`). */
  breaker?: BreakerConfig;
  /** PO tokens for the web clients' gated caption URLs (`TUBESCRIBE_POT_PROVIDER`); none: gated. */
  pot?: PoTokenProvider;
}
