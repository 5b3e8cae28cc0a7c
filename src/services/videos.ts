/**
 * Video metadata: basic-info (player data only), and the fast and full records.
 * @module
 */
import {
  type BasicInfoRecord,
  basicInfoRecord,
  type FastVideoRecord,
  type FullVideoRecord,
  fastVideoRecord,
  fullVideoRecord,
} from '../core/video-record.ts';
import { type CacheStatus, combineStatus } from './cache.ts';
import type { CallContext } from './context.ts';
import { cachedExtras, cachedPlayer, type TranscriptsDeps } from './transcripts.ts';

/** Dependencies of {@link Videos} (the same as the transcript service's). */
export type VideosDeps = Pick<TranscriptsDeps, 'upstream' | 'cache' | 'ttl' | 'deadlineMs'>;

/** The video metadata service. */
export class Videos {
  constructor(private readonly deps: VideosDeps) {}

  /** Basic info: title, duration, channel, caption languages; one upstream call at most. */
  async basicInfo(
    videoId: string,
    ctx: CallContext,
  ): Promise<{ record: BasicInfoRecord; cache: CacheStatus }> {
    const player = await cachedPlayer(this.deps, videoId, ctx);
    return { record: basicInfoRecord(player.value), cache: player.status };
  }

  /** The fast record (player data) or the full record (plus likes, date, chapters, heatmap). */
  async info(
    videoId: string,
    mode: 'fast' | 'full',
    ctx: CallContext,
  ): Promise<{ record: FastVideoRecord | FullVideoRecord; cache: CacheStatus }> {
    const player = await cachedPlayer(this.deps, videoId, ctx);
    if (mode === 'fast') return { record: fastVideoRecord(player.value), cache: player.status };
    const extras = await cachedExtras(this.deps, videoId, ctx);
    return {
      record: fullVideoRecord(player.value, extras.value),
      cache: combineStatus(player.status, extras.status),
    };
  }
}
