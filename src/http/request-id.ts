/**
 * Request ids (`X-Request-Id`, log lines, and the reservation id of a charged call), unique
 * across instances without a CSPRNG call per request: `req_` + 10 random base62 characters drawn
 * once per app (≈ 59 bits, so two instances sharing a ledger practically never draw the same) +
 * a 6-character base62 counter; when the counter runs out (62⁶ ≈ 5.7·10¹⁰ requests) a new random
 * part is drawn. The shape stays `req_` + 16 base62 characters.
 *
 * They are unique, not secret: nothing is authorised by knowing one, and a reservation id is
 * only ever used by the server that made it.
 *
 * A client may name its request (`X-Request-Id` matching {@link CLIENT_REQUEST_ID}): that id is
 * echoed and logged, but a charged call's reservation always gets a generated id of its own, so
 * replaying a client's id can neither skip a charge nor touch another call's hold.
 * @module
 */
import { encodeBase62, randomBase62 } from '../core/api-keys.ts';
import type { Random } from '../ports/random.ts';

const RANDOM_PART = 10;
const COUNTER_PART = 6;
const COUNTER_END = 62 ** COUNTER_PART;

/** A generator of request ids over `random` (drawn from on the first id, then once per 62⁶ ids). */
export function requestIds(random: Random): () => string {
  let head = '';
  let counter = COUNTER_END;
  return () => {
    if (counter >= COUNTER_END) {
      head = `req_${randomBase62(random, RANDOM_PART)}`;
      counter = 0;
    }
    return head + encodeBase62(counter++, COUNTER_PART);
  };
}

/** The shape of a client's `X-Request-Id` that is echoed (decisions.md "HTTP edges"). */
export const CLIENT_REQUEST_ID: RegExp = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's request id when it has the sane shape, else undefined (a generated one is used). */
export function clientRequestId(header: string | undefined): string | undefined {
  return header !== undefined && CLIENT_REQUEST_ID.test(header) ? header : undefined;
}
