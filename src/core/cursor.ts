/**
 * Opaque paging cursors.
 *
 * A cursor is `base64url(version ‖ issuedAt ‖ token ‖ tag)`:
 * - `version`: 1 byte ({@link CURSOR_VERSION});
 * - `issuedAt`: 6 bytes, big-endian epoch milliseconds;
 * - `token`: the upstream continuation, UTF-8;
 * - `tag`: the first 16 bytes of HMAC-SHA256(secret, binding ‖ version ‖ issuedAt ‖ token), where
 *   `binding` is a length-prefixed JSON array of a domain label, the route and the filters (sorted
 *   by key, `undefined` dropped). Route and filters are not stored: the decoder knows them, and a
 *   cursor presented to another route or with other filters fails the tag check.
 * @module
 */
import { ApiError } from '../errors.ts';
import { decodeBase64Url, encodeBase64Url } from './base64url.ts';
import { hmacSha256 } from './digest.ts';

/** The current cursor format version. */
export const CURSOR_VERSION = 1;
/** Longest cursor accepted (and produced), in characters. */
export const MAX_CURSOR_LENGTH = 8192;
/** How far in the future a cursor's issue time may lie (clock skew between instances), in ms. */
export const CURSOR_CLOCK_SKEW_MS = 60_000;

const DOMAIN = 'tubescribe.cursor';
const HEADER_BYTES = 7;
const TAG_BYTES = 16;
const MAX_TIME = 2 ** 48 - 1;

/** What a cursor is bound to: the route and the parameters that shape the upstream request. */
export interface CursorBinding {
  /** A stable name of the route, e.g. `playlists.videos`. */
  route: string;
  /** Every parameter that shapes the page (ids, sort, filters); `undefined` values are ignored. */
  filters: Record<string, string | undefined>;
}

/** The input of {@link encodeCursor}. */
export interface CursorInput extends CursorBinding {
  /** The upstream continuation token to wrap. */
  token: string;
}

function invalid(message: string): ApiError {
  return new ApiError('invalid_cursor', message);
}

function bindingBytes(binding: CursorBinding): Uint8Array {
  const pairs = Object.keys(binding.filters)
    .filter((key) => binding.filters[key] !== undefined)
    .sort()
    .map((key) => [key, binding.filters[key]]);
  return new TextEncoder().encode(JSON.stringify([DOMAIN, binding.route, pairs]));
}

async function tag(secret: Uint8Array, binding: CursorBinding, payload: Uint8Array): Promise<Uint8Array> {
  const bound = bindingBytes(binding);
  const message = new Uint8Array(4 + bound.length + payload.length);
  new DataView(message.buffer).setUint32(0, bound.length);
  message.set(bound, 4);
  message.set(payload, 4 + bound.length);
  return (await hmacSha256(secret, message)).subarray(0, TAG_BYTES);
}

function checkSecret(secret: Uint8Array): void {
  if (!(secret instanceof Uint8Array) || secret.length === 0)
    throw new RangeError('cursor secret must be non-empty');
}

/** Constant-time equality of two byte arrays of the same length. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

/**
 * Wraps an upstream continuation token in a signed cursor bound to `route` and `filters`.
 * `now` (epoch ms) is recorded as the issue time. Throws `RangeError` for an empty secret or a
 * bad `now`, and `ApiError('upstream_error')` for a token that cannot be wrapped (ill-formed
 * Unicode, or too long for {@link MAX_CURSOR_LENGTH}).
 */
export async function encodeCursor(secret: Uint8Array, input: CursorInput, now: number): Promise<string> {
  checkSecret(secret);
  if (!Number.isSafeInteger(now) || now < 0 || now > MAX_TIME) throw new RangeError('now must be epoch ms');
  if (/\p{Cs}/u.test(input.token))
    throw new ApiError('upstream_error', 'Upstream continuation is not valid text.');
  const token = new TextEncoder().encode(input.token);
  if (Math.ceil(((HEADER_BYTES + token.length + TAG_BYTES) * 4) / 3) > MAX_CURSOR_LENGTH) {
    throw new ApiError('upstream_error', 'Upstream continuation is too long to wrap in a cursor.');
  }
  const payload = new Uint8Array(HEADER_BYTES + token.length);
  payload[0] = CURSOR_VERSION;
  const view = new DataView(payload.buffer);
  view.setUint16(1, Math.floor(now / 2 ** 32));
  view.setUint32(3, now % 2 ** 32);
  payload.set(token, HEADER_BYTES);
  const mac = await tag(secret, input, payload);
  const out = new Uint8Array(payload.length + TAG_BYTES);
  out.set(payload);
  out.set(mac, payload.length);
  return encodeBase64Url(out);
}

/**
 * Checks a cursor against the route and filters of the current request and returns the upstream
 * token it wraps. With `maxAgeMs`, a cursor older than that, or issued more than
 * {@link CURSOR_CLOCK_SKEW_MS} in the future, is refused too.
 * Every problem with the cursor is an `ApiError('invalid_cursor')` (400); only an empty secret
 * (a configuration error) throws `RangeError`.
 */
export async function decodeCursor(
  secret: Uint8Array,
  cursor: string,
  expected: CursorBinding,
  now: number,
  maxAgeMs?: number,
): Promise<string> {
  checkSecret(secret);
  if (typeof cursor !== 'string' || cursor.length === 0) throw invalid('Cursor is empty.');
  if (cursor.length > MAX_CURSOR_LENGTH) throw invalid('Cursor is too long.');
  const bytes = decodeBase64Url(cursor);
  if (bytes === undefined || bytes.length < HEADER_BYTES + TAG_BYTES) throw invalid('Cursor is malformed.');
  if (bytes[0] !== CURSOR_VERSION)
    throw invalid('Cursor version is not supported; start again without a cursor.');
  const payload = bytes.subarray(0, bytes.length - TAG_BYTES);
  const mac = await tag(secret, expected, payload);
  if (!sameBytes(mac, bytes.subarray(bytes.length - TAG_BYTES))) {
    throw invalid(
      'Cursor does not belong to this request; pass the next_cursor of the previous page unchanged.',
    );
  }
  if (maxAgeMs !== undefined) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const issuedAt = view.getUint16(1) * 2 ** 32 + view.getUint32(3);
    if (issuedAt - now > CURSOR_CLOCK_SKEW_MS) throw invalid('Cursor was issued in the future.');
    if (now - issuedAt > maxAgeMs) throw invalid('Cursor has expired; start again without a cursor.');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(payload.subarray(HEADER_BYTES));
  } catch {
    throw invalid('Cursor is malformed.');
  }
}
