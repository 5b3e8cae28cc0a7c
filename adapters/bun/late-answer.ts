/**
 * Large answers that complete after their request's turn, re-made so that Bun.serve sends their
 * head in one piece (the Bun adapter's `streamLateAnswers`, off by default).
 *
 * Bun corks a connection only while the request's own handler runs. An answer that completes in a
 * later turn of the event loop (after a Redis round trip: every charged answer on Redis storage;
 * or after YouTube) is written uncorked, and when its head and body together pass Bun's 16 KiB
 * cork buffer, each piece of the head (a header's name, `: `, its value, `\r\n`) leaves in a
 * `send()` of its own: oven-sh/bun#41341, still so in Bun 1.4.5. A cached 61.5 KB transcript on
 * Redis storage went out in 51 `send()`s and cost the server 310-420 µs of CPU (2,400-3,200
 * answers a second with 50 connections). Bun writes the head of a streamed body corked, so such an
 * answer is re-made around a one-chunk stream of its bytes: 2 `send()`s, 100-140 µs, 6,600-9,200
 * answers a second. The price is the framing, why it is a choice: Bun sends a streamed body
 * chunked, without `Content-Length`.
 *
 * An answer says how large it is only through `Content-Length`: the routes set it on Blob bodies
 * (the transcripts the Bun adapter keeps as Blobs), the answers that are this large and are sent
 * most often. Other late answers go as they are.
 * @module
 */

/** Bun's cork buffer, as measured: a 15,000-byte body with a 100-byte head left in one `send()`, 15,800 did not. */
const CORK_BUFFER_BYTES = 16 * 1024;
/** Room left for the head: a larger body is taken to pass the buffer with its head. */
const HEAD_ALLOWANCE_BYTES = 2 * 1024;

/** The turn of the event loop, advanced by one `setImmediate` per turn that asks for it. */
let turn = 0;
let advancing = false;
const advance = (): void => {
  turn++;
  advancing = false;
};

function currentTurn(): number {
  if (!advancing) {
    advancing = true;
    setImmediate(advance);
  }
  return turn;
}

/**
 * The answer `answering` makes, or, when it completes after this turn with a body past the cork
 * buffer, the same answer around a one-chunk stream of its bytes (see the module comment). The
 * turn is taken first, so that its `setImmediate` runs before any the answering schedules: an
 * answer made in one of those is late too.
 */
export function streamedWhenLate(
  answering: () => Response | Promise<Response>,
): Response | Promise<Response> {
  const began = currentTurn();
  const answer = answering();
  if (!(answer instanceof Promise)) return answer;
  return answer.then((done) => (turn === began ? done : streamedIfLarge(done)));
}

function streamedIfLarge(answer: Response): Response | Promise<Response> {
  const length = answer.headers.get('content-length');
  if (length === null || Number(length) <= CORK_BUFFER_BYTES - HEAD_ALLOWANCE_BYTES) return answer;
  return asOneChunk(answer);
}

async function asOneChunk(answer: Response): Promise<Response> {
  const init = { status: answer.status, statusText: answer.statusText, headers: answer.headers };
  const bytes = new Uint8Array(await answer.arrayBuffer());
  if (bytes.length === 0) return new Response(null, init); // a HEAD: its length stays
  const headers = new Headers(answer.headers);
  headers.delete('content-length');
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(bytes);
      controller.close();
    },
  });
  return new Response(body, { ...init, headers });
}
