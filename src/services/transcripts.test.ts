/**
 * The transcript service's steps on a long cold fetch: the caption document is parsed, and a
 * transcript not served from memory is rendered, each in a turn of the event loop of its own
 * (the turn is the composition root's `backgroundTurn`; here one that records when it is asked).
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../test/fakes/clock.ts';
import { FakeUpstream, VIDEO } from '../../test/fakes/upstream.ts';
import { createMemoryKv } from '../drivers/kv-memory.ts';
import { silentLogger } from '../drivers/system.ts';
import type { TimedText } from '../ports/upstream.ts';
import { DEFAULT_CACHE_TTLS } from '../settings.ts';
import { ResponseCache } from './cache.ts';
import { type TranscriptRequest, Transcripts } from './transcripts.ts';

const REQUEST: TranscriptRequest = {
  videoId: VIDEO,
  languages: ['en'],
  policy: 'manual_first',
  format: 'segments',
  wordLevel: false,
};

describe('Transcripts: turns of the event loop on a cold fetch', () => {
  it('waits for a turn after the captions arrive and before a fresh transcript is rendered; a transcript in memory never waits', async () => {
    const clock = new ManualClock();
    const steps: string[] = [];
    const upstream = new FakeUpstream();
    const captions = upstream.captions.bind(upstream);
    let arrived: TimedText | undefined;
    upstream.captions = async (...args) => {
      arrived = await captions(...args);
      steps.push('captions');
      return arrived;
    };
    const backgroundTurn = async () => {
      steps.push('turn');
      // What the document holds once the turn is over is what gets parsed.
      if (arrived?.format === 'json3') arrived.document.events[0]!.segs![0]!.utf8 = 'Changed in the turn.';
      arrived = undefined;
    };
    const cache = new ResponseCache(
      createMemoryKv(clock),
      clock,
      { memoryBytes: 1 << 20, staleMs: 0 },
      silentLogger,
    );
    const transcripts = new Transcripts({
      upstream,
      cache,
      clock,
      ttl: DEFAULT_CACHE_TTLS,
      deadlineMs: 10_000,
      backgroundTurn,
    });
    const cold = await transcripts.get(REQUEST, {});
    expect(cold.cache).toBe('MISS');
    // Parsed after the first turn; the second comes before the caller renders.
    expect(steps).toEqual(['captions', 'turn', 'turn']);
    expect(cold.source.text.segments.map((s) => s.text)).toEqual([
      'Changed in the turn.',
      'Second line here.',
    ]);
    steps.length = 0;
    const warm = await transcripts.get(REQUEST, {});
    expect(warm.cache).toBe('HIT');
    expect(steps).toEqual([]);
  });
});
