/**
 * Run by warm-start.test.ts in a child process: starts a YouTube driver (visitorData warmed, the
 * background refresh armed) over an in-process fake and never stops it. The process must still
 * exit on its own: the refresh timers are unref'd.
 */
import { createYouTubeUpstream } from '../../src/drivers/youtube/index.ts';

const yt = createYouTubeUpstream({
  fetch: async () => Response.json({ responseContext: { visitorData: 'VD-child' } }),
  retries: 0,
  visitorTtlMs: 60_000,
});
await yt.start();
process.stdout.write('warmed\n');
