/**
 * The YouTube driver's direct fetch on Node (`nodeUpstreamFetch`, which the Node adapter sets):
 * requests over `node:http` / `node:https` with keep-alive agents, answered as the driver's
 * {@link UpstreamAnswer} instead of a `Response`.
 *
 * Why: Node's global fetch (undici) makes a `Request`, a `Response`, Web streams and an abort
 * chain for every request. While batch jobs ran in `npm run bench`, that was over half of the
 * request thread's work (a request through it cost 210-290 µs of CPU, against 60-105 µs over
 * `node:http`), and a cached request arriving meanwhile waited for it.
 *
 * It sends what the global fetch of Node 20 sends besides the caller's headers (`Accept: *\/*`,
 * `Accept-Language: *`, `Sec-Fetch-Mode: cors`, `User-Agent: node`, `Accept-Encoding: gzip,
 * deflate`, each only when the caller set none) and decodes gzip, deflate and Brotli bodies as
 * it does. Redirects are never followed (the transport refuses a 3xx). Proxies are not its job:
 * `proxyFetch` reaches them.
 * @module
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable, Transform } from 'node:stream';
import { constants, createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { UpstreamAnswer, UpstreamBody, UpstreamFetch } from '../../src/ports/fetch.ts';

/** Options of {@link createNodeUpstreamFetch}. */
export interface NodeUpstreamFetchOptions {
  /** Certificate authorities trusted for https, instead of Node's (a test's own server). */
  ca?: string | Buffer;
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

/** The body of `response`, decoded as its `Content-Encoding` says (codings undone last first). */
function decoded(response: IncomingMessage): Readable {
  response.on('error', ignore);
  const header = response.headers['content-encoding'];
  if (!header) return response;
  let stream: Readable = response;
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
 * A body read chunk by chunk through `stream`. Cancelling it drops what was already received
 * (its connection then serves the next request: a 429's or a 5xx's few bytes, say), or closes the
 * connection when more is still to come.
 */
function bodyOf(stream: Readable, response: IncomingMessage): UpstreamBody & { text(): Promise<string> } {
  let chunks: AsyncIterator<Buffer> | undefined;
  const cancel = async (): Promise<void> => {
    if (response.complete) {
      stream.resume();
      return;
    }
    stream.destroy();
    response.destroy();
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

/** `response` as the driver reads it. */
function answerOf(response: IncomingMessage, url: string): UpstreamAnswer {
  const body = bodyOf(decoded(response), response);
  const headers = response.headers;
  return {
    status: response.statusCode ?? 0,
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

function send(input: string, init: RequestInit, http: HttpAgent, https: HttpsAgent): Promise<UpstreamAnswer> {
  return new Promise((resolve, reject) => {
    const url = new URL(input);
    const secure = url.protocol === 'https:';
    if (!secure && url.protocol !== 'http:') {
      reject(new TypeError(`cannot fetch a ${url.protocol} URL`));
      return;
    }
    const body = init.body ?? undefined;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) {
      reject(new TypeError('nodeUpstreamFetch sends a string or bytes as a body'));
      return;
    }
    const headers = requestHeaders(init);
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const request = (secure ? httpsRequest : httpRequest)(url, {
      method: init.method ?? 'GET',
      headers,
      agent: secure ? https : http,
      ...(init.signal ? { signal: init.signal } : {}),
    });
    request.on('error', reject); // settles once; later errors surface through the body
    request.once('response', (response) => resolve(answerOf(response, input)));
    request.end(body);
  });
}

/** A direct fetch over `node:http` / `node:https`, with agents of its own (see the module). */
export function createNodeUpstreamFetch(options: NodeUpstreamFetchOptions = {}): UpstreamFetch {
  // Idle keep-alive sockets are unreferenced by Node's agents: they never hold a process open.
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true, ...(options.ca ? { ca: options.ca } : {}) });
  return (input, init) => send(input, init, http, https);
}

/** The Node adapter's direct fetch for the YouTube driver (one pair of agents per process). */
export const nodeUpstreamFetch: UpstreamFetch = createNodeUpstreamFetch();
