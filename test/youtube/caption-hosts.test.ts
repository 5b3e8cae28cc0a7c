/**
 * Caption URLs come out of YouTube's answers: through the driver, one on a host off the allowed
 * list is refused (`upstream_error`) without any request; with an origin override every caption
 * URL is rewritten to the origin and fetched there.
 */
import { describe, expect, it } from 'vitest';
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { isApiError } from '../../src/errors.ts';
import type { FetchLike } from '../../src/ports/fetch.ts';
import type { CaptionTrack } from '../../src/ports/upstream.ts';
import { ManualClock } from '../fakes/clock.ts';
import { SeededRandom } from '../fakes/random.ts';

const track = (ref: string): CaptionTrack => ({
  languageCode: 'en',
  name: 'English',
  kind: 'manual',
  isTranslatable: false,
  isDefault: true,
  ref,
});

function driver(origin?: string) {
  const urls: string[] = [];
  const fetch: FetchLike = async (url) => {
    urls.push(url);
    return new Response(JSON.stringify({ events: [] }), { status: 200 });
  };
  const upstream = createYouTubeUpstream({
    fetch,
    clock: new ManualClock(),
    random: new SeededRandom(1),
    retries: 0,
    ...(origin ? { origin } : {}),
  });
  return { upstream, urls };
}

describe('caption URLs off the allowed hosts', () => {
  it.each([
    'https://evil.example/api/timedtext?v=dQw4w9WgXcQ&lang=en',
    '//evil.example/api/timedtext?v=dQw4w9WgXcQ&lang=en',
    'http://www.youtube.com/api/timedtext?v=dQw4w9WgXcQ&lang=en',
    'https://169.254.169.254/latest/meta-data?v=x',
  ])('%s: upstream_error, no request', async (ref) => {
    const { upstream, urls } = driver();
    const error = await upstream.captions(track(ref)).catch((e: unknown) => e);
    expect(isApiError(error, 'upstream_error')).toBe(true);
    expect(urls).toEqual([]);
  });

  it('with an origin override, a caption URL is fetched from the origin only', async () => {
    const { upstream, urls } = driver('http://127.0.0.1:9');
    await upstream
      .captions(track('https://evil.example/api/timedtext?v=dQw4w9WgXcQ&lang=en'))
      .catch(() => {});
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(new URL(url).origin).toBe('http://127.0.0.1:9');
  });
});
