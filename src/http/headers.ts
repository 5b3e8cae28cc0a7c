/**
 * The cache headers of an answer: `X-Cache` (HIT, L2, STALE or MISS) and `X-Cache-Tier`.
 * @module
 */
import type { CacheStatus } from '../services/cache.ts';

// One frozen record per status: answers copy them, so none is built per request.
const NONE: Readonly<Record<string, string>> = Object.freeze({});
const BY_STATUS: Readonly<Record<CacheStatus, Readonly<Record<string, string>>>> = Object.freeze({
  HIT: Object.freeze({ 'X-Cache': 'HIT', 'X-Cache-Tier': 'L1_MEMORY' }),
  L2: Object.freeze({ 'X-Cache': 'L2', 'X-Cache-Tier': 'L2_PERSISTENT' }),
  STALE: Object.freeze({ 'X-Cache': 'STALE', 'X-Cache-Tier': 'L2_PERSISTENT' }),
  MISS: Object.freeze({ 'X-Cache': 'MISS' }),
});

/** Headers describing a cache status. */
export function cacheHeaders(status: CacheStatus | undefined): Readonly<Record<string, string>> {
  return status === undefined ? NONE : BY_STATUS[status];
}
