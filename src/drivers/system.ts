/**
 * Production implementations of the small ports: the system clock, the platform CSPRNG and a
 * JSON-lines logger. They use only Web-standard globals, so they run on Node, Bun and Deno.
 * @module
 */
import type { Clock } from '../ports/clock.ts';
import type { Logger, LogLevel } from '../ports/logger.ts';
import type { Random } from '../ports/random.ts';

/** The wall clock. */
export const systemClock: Clock = { now: () => Date.now() };

/** `crypto.getRandomValues`, a CSPRNG on every supported runtime. */
export const cryptoRandom: Random = {
  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    // getRandomValues fills at most 65,536 bytes per call.
    for (let offset = 0; offset < length; offset += 65536) {
      crypto.getRandomValues(out.subarray(offset, Math.min(length, offset + 65536)));
    }
    return out;
  },
};

const LEVELS: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/**
 * A logger writing one JSON object per line through `write` (stderr by default), dropping
 * messages below `level`.
 */
export function createJsonLogger(
  options: { level?: LogLevel | 'silent'; write?: (line: string) => void; clock?: Clock } = {},
): Logger {
  const min = options.level === 'silent' ? Number.POSITIVE_INFINITY : LEVELS[options.level ?? 'info'];
  const clock = options.clock ?? systemClock;
  const write = options.write ?? ((line: string) => console.error(line));
  return {
    log(level, message, fields) {
      if (LEVELS[level] < min) return;
      write(JSON.stringify({ time: new Date(clock.now()).toISOString(), level, msg: message, ...fields }));
    },
  };
}

/** A logger that drops everything. */
export const silentLogger: Logger = { log: () => {} };
