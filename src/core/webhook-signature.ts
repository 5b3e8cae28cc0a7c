/**
 * Webhook signatures: the `Tubescribe-Signature` header of a webhook delivery and its check.
 *
 * The header is `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, where the HMAC
 * key is the UTF-8 bytes of the whole secret as the client received it (`whsec_…`, prefix
 * included) and the body is the exact bytes sent. A receiver recomputes the HMAC over the raw
 * body it read (before any JSON parsing), compares in constant time and refuses timestamps too far
 * from its own clock, so a captured delivery cannot be replayed later. Pure: time comes in as an
 * argument; only Web Crypto's deterministic HMAC is used.
 * @module
 */
import { constantTimeEquals } from './constant-time.ts';
import { hmacSha256, toHex } from './digest.ts';

/** The version tag of the signature scheme in the header. */
const SCHEME = 'v1';

/** How far (seconds, either way) a timestamp may be from the receiver's clock by default. */
const DEFAULT_TOLERANCE_SECONDS = 300;

/** A v1 signature: 64 hex digits (checked case-insensitively). */
const HEX_SIGNATURE = /^[0-9a-fA-F]{64}$/;

/** A timestamp: decimal digits without sign or leading zeros. */
const DIGITS = /^(?:0|[1-9][0-9]{0,15})$/;

function checkArguments(secret: string, timestampSeconds: number): void {
  if (secret === '') throw new RangeError('A webhook secret must not be empty.');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0) {
    throw new RangeError(`A signature timestamp must be a non-negative integer, got ${timestampSeconds}.`);
  }
}

/** Hex HMAC-SHA256 of `"<t>.<body>"` under the UTF-8 bytes of `secret`. */
async function sign(secret: string, timestampSeconds: number, body: string): Promise<string> {
  const key = new TextEncoder().encode(secret);
  return toHex(await hmacSha256(key, `${timestampSeconds}.${body}`));
}

/**
 * The `Tubescribe-Signature` header value for one delivery: `t=<timestampSeconds>,v1=<hex>`, the
 * hex HMAC-SHA256 of `"<timestampSeconds>.<body>"` keyed with the UTF-8 bytes of `secret`.
 *
 * @param secret the whole webhook secret (`whsec_…`).
 * @param timestampSeconds the moment of sending, in whole Unix seconds.
 * @param body the exact request body that is sent.
 * @throws RangeError when the secret is empty or the timestamp not a non-negative safe integer.
 */
export async function signatureHeader(
  secret: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  checkArguments(secret, timestampSeconds);
  return `t=${timestampSeconds},${SCHEME}=${await sign(secret, timestampSeconds, body)}`;
}

/** The parts of a signature header, or undefined when it is malformed. */
function parseHeader(header: string): { timestamp: number; signatures: string[] } | undefined {
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return undefined;
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === 't') {
      if (timestamp !== undefined || !DIGITS.test(value)) return undefined;
      timestamp = Number(value);
    } else if (name === SCHEME) {
      if (HEX_SIGNATURE.test(value)) signatures.push(value.toLowerCase());
    }
    // Other schemes are ignored, so a later scheme can be sent alongside v1.
  }
  if (timestamp === undefined || signatures.length === 0) return undefined;
  return { timestamp, signatures };
}

/**
 * True when `header` carries a `v1` signature of `body` under `secret` whose timestamp is within
 * `toleranceSeconds` of `nowSeconds` (either way); an empty secret matches nothing. Several `v1=` entries are allowed (any one may
 * match); entries of other schemes are ignored. The comparison is constant-time. Never throws:
 * a malformed header, a stale or future timestamp, or a wrong signature are all `false`.
 *
 * @param secret the whole webhook secret (`whsec_…`).
 * @param header the `Tubescribe-Signature` header as received.
 * @param body the raw request body as received (before JSON parsing).
 * @param nowSeconds the receiver's current Unix time in seconds.
 * @param toleranceSeconds the largest accepted distance between `t` and `nowSeconds`; default 300.
 */
export async function verifySignature(
  secret: string,
  header: string,
  body: string,
  nowSeconds: number,
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): Promise<boolean> {
  const parsed = parseHeader(header);
  if (parsed === undefined || secret === '') return false;
  if (!(Math.abs(nowSeconds - parsed.timestamp) <= toleranceSeconds)) return false;
  const expected = await sign(secret, parsed.timestamp, body);
  let match = false;
  for (const candidate of parsed.signatures) match = constantTimeEquals(candidate, expected) || match;
  return match;
}
