/**
 * The fake YouTube of test/helpers/slow-youtube.ts in a process of its own, for benchmarks whose
 * figure is the latency of the app's own event loop (its serving work must not run there, as
 * YouTube's does not in production). Argument: the latency of every answer in ms. Prints
 * `{"url": origin}` once listening; exits when its standard input closes.
 * @module
 */
import { startSlowYouTube } from '../test/helpers/slow-youtube.ts';
import { serveUntilStdinCloses } from './server-process.ts';

const youtube = await startSlowYouTube(Number(process.argv[2] ?? 50));
serveUntilStdinCloses({ url: youtube.origin }, () => youtube.close());
