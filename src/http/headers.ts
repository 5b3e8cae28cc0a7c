/**
 * The cache headers of an answer: `X-Cache` (HIT, L2, STALE or MISS) and `X-Cache-Tier`.
 * @module
 */
import type { CacheStatus } from '../services/cache.ts';

/** Headers describing a cache status. */
export function cacheHeaders(status: CacheStatus | undefined): Record<string, string> {
  if (status === undefined) return {};
  if (status === 'HIT') return { 'X-Cache': 'HIT', 'X-Cache-Tier': 'L1_MEMORY' };
  if (status === 'L2' || status === 'STALE') return { 'X-Cache': status, 'X-Cache-Tier': 'L2_PERSISTENT' };
  return { 'X-Cache': 'MISS' };
}
