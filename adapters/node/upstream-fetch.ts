/**
 * The YouTube driver's direct fetch on Node (`nodeUpstreamFetch`, which the Node adapter sets):
 * the `request` API of the `undici` package, answered as the driver's {@link UpstreamAnswer}
 * instead of a `Response`.
 *
 * Why: Node's global fetch (undici too) makes a `Request`, a `Response`, Web streams and an abort
 * chain for every request. While batch jobs ran in `npm run bench`, that was over half of the
 * request thread's work, and a cached request arriving meanwhile waited for it. Measured on the
 * seventeenth machine, per cold transcript through the app (after a first round of each):
 * 864-1,260 µs of CPU through the global fetch, 530-732 through `request`, 679-892 through
 * `node:http` (tried first).
 *
 * `undici` is an optional peer dependency (Node needs it for `TUBESCRIBE_PROXY` too), imported
 * on the first request; without it every direct request goes through the global fetch, as before.
 *
 * It sends what the global fetch of Node 20 sends besides the caller's headers (`Accept: *\/*`,
 * `Accept-Language: *`, `Sec-Fetch-Mode: cors`, `User-Agent: node`, `Accept-Encoding: gzip,
 * deflate`, each only when the caller set none) and decodes gzip, deflate and Brotli bodies as
 * it does. Redirects are never followed (the transport refuses a 3xx). `proxyFetch` sends through
 * a proxy the same way ({@link requestFetch} with undici's `ProxyAgent`).
 * @module
 */
import type { Readable, Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { UpstreamAnswer, UpstreamBody, UpstreamFetch } from '../../src/ports/fetch.ts';

/** Options of {@link createNodeUpstreamFetch}. */
export interface NodeUpstreamFetchOptions {
  /** Certificate authorities trusted for https, instead of Node's (a test's own server). */
  ca?: string | Buffer;
}

/** An answer of undici's `request`: its body is a Node stream. */
interface UndiciAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** What is used of the `undici` package (declared here: it is an optional peer dependency). */
export interface Undici {
  request(
    url: string,
    options: {
      method: string;
      headers: Record<string, string>;
      body?: string | Uint8Array;
      signal?: AbortSignal;
      dispatcher: unknown;
    },
  ): Promise<UndiciAnswer>;
  Agent: new (options: { connect?: { ca?: string | Buffer } }) => unknown;
  ProxyAgent: new (proxyUrl: string) => unknown;
}

/** The headers Node's global fetch adds when the caller set none of that name. */
const FETCH_DEFAULTS: readonly (readonly [string, string])[] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'node'],
  ['accept-encoding', 'gzip, deflate'],
];

/** `init.headers` as a record of lower-case names, with {@link FETCH_DEFAULTS} filled in. */
function requestHeaders(init: RequestInit): Record<string, string> {
  const headers: Record<string, string> = {};
  const given = init.headers ?? {};
  const pairs = given instanceof Headers || Array.isArray(given) ? given : Object.entries(given);
  for (const [name, value] of pairs) headers[name!.toLowerCase()] = value!;
  for (const [name, value] of FETCH_DEFAULTS) headers[name] ??= value;
  return headers;
}

/** A decoder per content coding (the lenient flushes undici uses: a truncated body is not an error). */
function decoder(coding: string): Transform | undefined {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH });
    case 'deflate':
      return createInflate({ flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH });
    case 'br':
      return createBrotliDecompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        finishFlush: constants.BROTLI_OPERATION_FLUSH,
      });
    default:
      return undefined; // identity, or a coding nobody asked for: the bytes as they came
  }
}

/** Errors reach the reader through the stream's iterator; an unread body's must not crash the process. */
const ignore = (): void => {};

/** `body`, decoded as its `Content-Encoding` says (codings undone last first). */
function decoded(body: Readable, header: string | string[] | undefined): Readable {
  body.on('error', ignore);
  if (typeof header !== 'string') return body;
  let stream: Readable = body;
  const codings = header.toLowerCase().split(',');
  for (let i = codings.length - 1; i >= 0; i--) {
    const next = decoder(codings[i]!.trim());
    if (!next) break;
    next.on('error', ignore);
    stream.on('error', (error) => next.destroy(error));
    stream = stream.pipe(next);
  }
  return stream;
}

/**
 * A body read chunk by chunk through `stream` (`raw` decoded). Cancelling it destroys both: a body
 * already received whole (a 429's or a 5xx's few bytes) leaves its connection to the next request,
 * one still coming closes it.
 */
function bodyOf(stream: Readable, raw: Readable): UpstreamBody & { text(): Promise<string> } {
  let chunks: AsyncIterator<Buffer> | undefined;
  const cancel = async (): Promise<void> => {
    stream.destroy();
    raw.destroy();
  };
  return {
    getReader: () => {
      chunks ??= stream[Symbol.asyncIterator]();
      const iterator = chunks;
      return {
        read: async () => {
          const next = await iterator.next();
          return next.done ? { done: true } : { done: false, value: next.value };
        },
        cancel,
      };
    },
    cancel,
    text: async () => {
      const parts: Buffer[] = [];
      for await (const chunk of stream) parts.push(chunk as Buffer);
      return Buffer.concat(parts).toString('utf8');
    },
  };
}

/** undici's answer as the driver reads it. */
function answerOf(answer: UndiciAnswer, url: string): UpstreamAnswer {
  const headers = answer.headers;
  const body = bodyOf(decoded(answer.body, headers['content-encoding']), answer.body);
  return {
    status: answer.statusCode,
    url,
    headers: {
      get(name) {
        const value = headers[name.toLowerCase()];
        if (value === undefined) return null;
        return Array.isArray(value) ? value.join(', ') : value;
      },
    },
    body,
    text: body.text,
  };
}

async function send(
  undici: Undici,
  dispatcher: unknown,
  input: string,
  init: RequestInit,
): Promise<UpstreamAnswer> {
  const body = init.body ?? undefined;
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array))
    throw new TypeError('nodeUpstreamFetch sends a string or bytes as a body');
  const answer = await undici.request(input, {
    method: init.method ?? 'GET',
    headers: requestHeaders(init),
    ...(body !== undefined ? { body } : {}),
    ...(init.signal ? { signal: init.signal } : {}),
    dispatcher,
  });
  return answerOf(answer, input);
}

/** What {@link requestFetch} sends through once the `undici` package is loaded, or instead of it. */
type Loaded = { undici: Undici; dispatcher: unknown } | { instead: UpstreamFetch };

/**
 * A fetch on undici's `request` through the dispatcher `dispatcherOf` makes; undici is imported on
 * the first request. When it cannot be loaded, every request goes to `withoutUndici(cause)`.
 */
export function requestFetch(
  dispatcherOf: (undici: Undici) => unknown,
  withoutUndici: (cause: unknown) => UpstreamFetch,
): UpstreamFetch {
  let loading: Promise<Loaded> | undefined;
  const load = async (): Promise<Loaded> => {
    try {
      const undici = (await import('undici')) as unknown as Undici;
      return { undici, dispatcher: dispatcherOf(undici) };
    } catch (cause) {
      return { instead: withoutUndici(cause) };
    }
  };
  return async (input, init) => {
    loading ??= load();
    const loaded = await loading;
    if ('instead' in loaded) return loaded.instead(input, init);
    return send(loaded.undici, loaded.dispatcher, input, init);
  };
}

/**
 * A direct fetch on undici's `request`, with a dispatcher of its own (see the module); the global
 * fetch when the `undici` package cannot be loaded.
 */
export function createNodeUpstreamFetch(options: NodeUpstreamFetchOptions = {}): UpstreamFetch {
  // Idle keep-alive sockets are unreferenced by undici: they never hold a process open.
  return requestFetch(
    (undici) => new undici.Agent(options.ca ? { connect: { ca: options.ca } } : {}),
    () => (input, init) => fetch(input, init),
  );
}

/** The Node adapter's direct fetch for the YouTube driver (one undici dispatcher per process). */
export const nodeUpstreamFetch: UpstreamFetch = createNodeUpstreamFetch();
