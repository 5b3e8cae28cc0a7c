/**
 * Prices in credits: the priced operations with their default table and the operator's overrides,
 * the credits a 200 response costs (cache hits included or not), and the credit packs an admin grants.
 * @module
 */
import { ApiError } from '../errors.ts';

/**
 * Every operation that has a price. Routes and batch tasks map to one of these; the price of a
 * paged listing is per page. Free operations are listed too, so a price of 0 is a deliberate
 * configuration rather than a missing entry.
 */
export type Operation =
  | 'transcript'
  | 'transcript_languages'
  | 'basic_info'
  | 'video_info'
  | 'video_fast'
  | 'video_full'
  | 'playlist_page'
  | 'comments_page'
  | 'channel'
  | 'channel_latest'
  | 'channel_videos_page'
  | 'channel_shorts_page'
  | 'channel_streams_page'
  | 'channel_playlists_page'
  | 'search_page'
  | 'suggestions'
  | 'account'
  | 'batch_status'
  | 'batch_transcript'
  | 'batch_basic_info'
  | 'batch_video_info_fast'
  | 'batch_video_info_full';

/** Credits per operation, in credits (whole numbers). */
export type Pricing = Readonly<Record<Operation, number>>;

/**
 * The default prices: the primary contract's table, the alternative's video modes (fast 1,
 * full 2) and decisions.md's batch rule (1 per successful transcript or video_info task, full 2,
 * basic_info free). The compatibility batch (`POST /v1/transcripts/batch`) charges
 * `batch_transcript` per successful item.
 */
export const DEFAULT_PRICES: Pricing = Object.freeze({
  transcript: 1,
  transcript_languages: 0,
  basic_info: 0,
  video_info: 1,
  video_fast: 1,
  video_full: 2,
  playlist_page: 1,
  comments_page: 1,
  channel: 1,
  channel_latest: 1,
  channel_videos_page: 1,
  channel_shorts_page: 1,
  channel_streams_page: 1,
  channel_playlists_page: 1,
  search_page: 1,
  suggestions: 0,
  account: 0,
  batch_status: 0,
  batch_transcript: 1,
  batch_basic_info: 0,
  batch_video_info_fast: 1,
  batch_video_info_full: 2,
});

/** Every operation name, in the order of {@link DEFAULT_PRICES}. */
export const OPERATIONS: readonly Operation[] = Object.freeze(Object.keys(DEFAULT_PRICES) as Operation[]);

/** True when `name` is a known {@link Operation}. */
export function isOperation(name: string): name is Operation {
  return Object.hasOwn(DEFAULT_PRICES, name);
}

/** Throws a plain Error (a configuration mistake) unless `value` is a non-negative safe integer. */
function checkAmount(what: string, value: unknown, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    const bound = min === 0 ? 'a non-negative' : 'a positive';
    throw new Error(`${what} must be ${bound} whole number of credits, got ${JSON.stringify(value)}.`);
  }
  return value;
}

/**
 * The defaults with the operator's overrides applied. Overrides are checked at runtime, since they
 * usually come from a config file: every price must be a non-negative safe integer and every key a
 * known operation. A mistake throws a plain Error naming the operation (fail at start-up).
 */
export function resolvePricing(overrides: Partial<Record<Operation, number>> = {}): Pricing {
  const prices: Record<Operation, number> = { ...DEFAULT_PRICES };
  for (const [name, value] of Object.entries(overrides)) {
    if (!isOperation(name)) {
      throw new Error(`Unknown priced operation "${name}"; known operations: ${OPERATIONS.join(', ')}.`);
    }
    prices[name] = checkAmount(`The price of "${name}"`, value, 0);
  }
  return Object.freeze(prices);
}

/** How charging behaves beyond the price table. */
export interface BillingSettings {
  /** A cache hit is a 200 and costs the same as a miss (decisions.md); false makes hits free. */
  chargeCacheHits: boolean;
}

/** The default billing settings. */
export const DEFAULT_BILLING: Readonly<BillingSettings> = Object.freeze({ chargeCacheHits: true });

/** The default billing settings with the operator's overrides applied. */
export function resolveBilling(overrides: Partial<BillingSettings> = {}): Readonly<BillingSettings> {
  const chargeCacheHits = overrides.chargeCacheHits ?? DEFAULT_BILLING.chargeCacheHits;
  if (typeof chargeCacheHits !== 'boolean') throw new Error('chargeCacheHits must be true or false.');
  return Object.freeze({ chargeCacheHits });
}

/** The credits a 200 response costs: its price, or 0 for a cache hit when hits are not charged. */
export function chargeFor(
  pricing: Pricing,
  op: Operation,
  cacheHit: boolean,
  billing: BillingSettings,
): number {
  return cacheHit && !billing.chargeCacheHits ? 0 : pricing[op];
}

/** Credit packs by name: credits granted per pack. */
export type CreditPacks = Readonly<Record<string, number>>;

/**
 * The default credit packs (the contract's 2,000 / 10,000 / 50,000 credits, sold outside
 * tubescribe for 9 / 29 / 99 USD). Named by size, since prices and currencies are the operator's.
 */
export const DEFAULT_PACKS: CreditPacks = Object.freeze({ small: 2000, medium: 10000, large: 50000 });

const PACK_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * The default packs with the operator's overrides applied (add a pack or change its credits).
 * Names are lower-case `[a-z0-9_-]`, up to 64 characters; credits are positive safe integers.
 * A mistake throws a plain Error.
 */
export function resolvePacks(overrides: Readonly<Record<string, number>> = {}): CreditPacks {
  const packs: Record<string, number> = { ...DEFAULT_PACKS };
  for (const [name, credits] of Object.entries(overrides)) {
    if (!PACK_NAME.test(name)) throw new Error(`Invalid credit pack name "${name}" (use a-z, 0-9, _ and -).`);
    packs[name] = checkAmount(`Credit pack "${name}"`, credits, 1);
  }
  return Object.freeze(packs);
}

/**
 * The credits of the pack called `name` (case-insensitive, surrounding spaces ignored).
 * An unknown pack is a client mistake of the admin API or the command line:
 * `ApiError('invalid_parameter')` naming the known packs.
 */
export function resolvePack(packs: CreditPacks, name: string): number {
  const key = name.trim().toLowerCase();
  const credits = Object.hasOwn(packs, key) ? packs[key] : undefined;
  if (credits === undefined) {
    throw new ApiError(
      'invalid_parameter',
      `Unknown credit pack "${name}"; known packs: ${Object.keys(packs).join(', ')}.`,
      { details: { parameter: 'pack', available: Object.keys(packs) } },
    );
  }
  return credits;
}
