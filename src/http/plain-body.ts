/**
 * The body a route's plain answer was made from, kept on its `Response` (route.ts) when a runtime
 * adapter that owns the socket says it writes it as it is. On Node without
 * `@hono/node-server`'s lightweight globals, reading a real undici `Response` back through its
 * stream costs about a sixth of a cached answer's CPU (adapters/node/plain-answer.ts), and making
 * one with a body (undici builds its stream at once) about a quarter: for an adapter that says it
 * writes the body itself, the answer makes its body only when something reads it.
 * @module
 */

/** The key of the body on a plain answer. */
export const PLAIN_BODY: unique symbol = Symbol('tubescribe.plainBody');

/**
 * Set to `true` on a request's env (the runtime's bindings) by an adapter that sends a plain
 * answer's {@link PLAIN_BODY} itself: that request's plain answers are {@link deferredBodyAnswer}s.
 */
export const WRITES_PLAIN_BODY: unique symbol = Symbol('tubescribe.writesPlainBody');

/** A `Response` that may carry the body it was made from (a string or bytes; never a Blob). */
export type PlainAnswer = Response & { [PLAIN_BODY]?: string | Uint8Array };

/** The real answer of a deferred one, made the first time its body is read. */
const REAL: unique symbol = Symbol('tubescribe.realAnswer');

/**
 * The header record a deferred answer was made with, until something reads its `headers`. undici
 * turns a record into `Headers` through WebIDL (a copy, then a check of each name and value), and
 * an adapter reads them back sorted: together about a tenth of a cached answer's CPU on Node. An
 * answer whose headers nothing touched goes out with the record as it is, as `serve()` writes it.
 */
const HEADER_RECORD: unique symbol = Symbol('tubescribe.headerRecord');

/** `Response`'s own `headers` getter (the `Headers` the constructor made). */
const ownHeaders = Object.getOwnPropertyDescriptor(Response.prototype, 'headers')?.get as (
  this: Response,
) => Headers;

/** A plain answer made without its body: status and headers are its own, the body is `REAL`'s. */
class DeferredBodyAnswer extends Response {
  [PLAIN_BODY]: string | Uint8Array;
  [REAL]: Response | undefined;
  [HEADER_RECORD]: Record<string, string> | undefined;
  constructor(body: string | Uint8Array, status: number, headers: Record<string, string> | Headers) {
    const record = headers instanceof Headers ? undefined : headers;
    super(null, record === undefined ? { status, headers } : { status });
    this[PLAIN_BODY] = body;
    this[REAL] = undefined;
    this[HEADER_RECORD] = record;
  }
}

/** The real answer: the body, with the status and the headers as they are when it is first read. */
function real(answer: DeferredBodyAnswer): Response {
  answer[REAL] ??= new Response(answer[PLAIN_BODY] as BodyInit, {
    status: answer.status,
    statusText: answer.statusText,
    headers: answer.headers,
  });
  return answer[REAL];
}

// Whatever reads the body reads the real answer's; the headers become `Headers` when first read
// (TypeScript declares these as properties of `Response`, so they are defined here rather than
// overridden in the class).
Object.defineProperties(DeferredBodyAnswer.prototype, {
  headers: {
    get(this: DeferredBodyAnswer) {
      const headers = ownHeaders.call(this);
      const record = this[HEADER_RECORD];
      if (record !== undefined) {
        this[HEADER_RECORD] = undefined;
        for (const name in record) headers.append(name, record[name] as string);
      }
      return headers;
    },
  },
  body: {
    get(this: DeferredBodyAnswer) {
      return real(this).body;
    },
  },
  bodyUsed: {
    get(this: DeferredBodyAnswer) {
      return this[REAL]?.bodyUsed ?? false;
    },
  },
  ...Object.fromEntries(
    (['arrayBuffer', 'blob', 'bytes', 'clone', 'formData', 'json', 'text'] as const).map((name) => [
      name,
      {
        value(this: DeferredBodyAnswer) {
          const answer = real(this);
          return (answer[name] as () => unknown).call(answer);
        },
      },
    ]),
  ),
});

/**
 * A plain answer whose body is made only when something reads it (`body`, `text()`, `clone()`, …),
 * and its `Headers` only when something reads `headers`: a real `Response` in every other way. For
 * an adapter that sends {@link PLAIN_BODY} itself. The answer owns a header record from here on
 * (`Headers` given are its `Headers` at once).
 */
export function deferredBodyAnswer(
  body: string | Uint8Array,
  status: number,
  headers: Record<string, string> | Headers,
): PlainAnswer {
  return new DeferredBodyAnswer(body, status, headers);
}

/** Whether the request's adapter writes plain bodies itself (its env says {@link WRITES_PLAIN_BODY}). */
export function writesPlainBody(env: unknown): boolean {
  return (env as { [WRITES_PLAIN_BODY]?: boolean } | undefined)?.[WRITES_PLAIN_BODY] === true;
}

/**
 * The header record a deferred answer was made with, when nothing has read its `headers` since
 * (so nothing can have changed them); else undefined. The adapter that sends it owns it.
 */
export function untouchedHeaders(answer: Response): Record<string, string> | undefined {
  return (answer as Partial<DeferredBodyAnswer>)[HEADER_RECORD];
}
