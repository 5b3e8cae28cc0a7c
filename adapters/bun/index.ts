/**
 * `tubescribe/bun`: tubescribe on `Bun.serve`. The adapter hands the app what only Bun knows:
 * the client address (`server.requestIP`) and a proxy-capable fetch (`fetch(url, { proxy })`).
 * @module
 */
import { createTubescribe, type Tubescribe } from '../../src/app.ts';
import type { AppOptions } from '../../src/options.ts';
import { nodeHostLookup } from '../node/host-lookup.ts';
import { listeningOrigin, type RunningServer, type ServeOptions, serverUrl } from '../serve.ts';
import { bunClientAddress } from './client-address.ts';
import { streamedWhenLate } from './late-answer.ts';
import { proxyFetch } from './proxy-fetch.ts';

export type { RunningServer, ServeOptions } from '../serve.ts';
export { bunClientAddress } from './client-address.ts';
export { proxyFetch } from './proxy-fetch.ts';

/** What the Bun adapter adds to `serve()` and `createHandler`. */
export interface BunOptions {
  /**
   * Send an answer that completes after its request's turn (every charged answer on Redis
   * storage) with a body past 14 KiB as a stream: its head then leaves in one `send()`, where Bun
   * 1.4 sends each piece of it on its own (oven-sh/bun#41341). 2.2-2.9× the answers a second for a
   * cached 61.5 KB transcript on Redis storage; the price is that such answers are sent chunked,
   * without `Content-Length`. Default false.
   */
  streamLateAnswers?: boolean;
}

interface BunServer {
  readonly port: number;
  readonly hostname: string;
  stop(closeActiveConnections?: boolean): void | Promise<void>;
}
interface BunGlobal {
  serve(options: {
    fetch: (request: Request, server: BunServer) => Response | Promise<Response>;
    port?: number;
    hostname?: string;
  }): BunServer;
}

/**
 * `options` with what Bun knows filled in (the caller's own choices win). Rendered transcripts
 * are kept as Blobs: Bun's `Response` copies a byte array body on every answer, a Blob it takes
 * as it is.
 */
export function withBun(options: AppOptions = {}): AppOptions {
  return {
    clientAddress: bunClientAddress,
    proxyFetch,
    hostLookup: nodeHostLookup,
    transcriptBodies: 'blob',
    ...options,
  };
}

/** `tubescribe`'s fetch for Bun, with late answers streamed when `bun` asks (late-answer.ts). */
function bunFetch(
  tubescribe: Tubescribe,
  bun: BunOptions,
): (request: Request, server?: unknown) => Response | Promise<Response> {
  if (bun.streamLateAnswers)
    return (request, server) => streamedWhenLate(() => tubescribe.fetch(request, server));
  return (request, server) => tubescribe.fetch(request, server);
}

/**
 * The `fetch` handler for a Bun entry (`export default { fetch: createHandler() }`). Pass the
 * server as the second argument so tubescribe sees client addresses.
 */
export function createHandler(
  options: AppOptions = {},
  bun: BunOptions = {},
): (request: Request, server?: unknown) => Promise<Response> {
  const answer = bunFetch(createTubescribe(withBun(options)), bun);
  return async (request, server) => answer(request, server);
}

/** Starts `Bun.serve` after start-up; throws when not running under Bun. */
export async function serve(options: ServeOptions & BunOptions = {}): Promise<RunningServer> {
  const bun = (globalThis as { Bun?: BunGlobal }).Bun;
  if (!bun) throw new Error('tubescribe/bun: Bun.serve is not available; run this under Bun.');
  const tubescribe = createTubescribe(withBun(listeningOrigin(options)));
  await tubescribe.start();
  const server = bun.serve({
    fetch: bunFetch(tubescribe, options),
    port: options.port ?? 8787,
    hostname: options.host ?? '127.0.0.1',
  });
  let closing: Promise<void> | undefined;
  return {
    url: serverUrl(server.hostname, server.port),
    tubescribe,
    close() {
      closing ??= (async () => {
        await server.stop(false);
        await tubescribe.close();
      })();
      return closing;
    },
  };
}
