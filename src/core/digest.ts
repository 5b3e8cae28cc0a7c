/**
 * SHA-256 and HMAC-SHA256 through Web Crypto (deterministic, on every runtime), and hex.
 * @module
 */

const encoder = new TextEncoder();

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (const byte of bytes) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** The bytes of lower-case (or upper-case) hex; undefined when `hex` is not hex of whole bytes. */
export function fromHex(hex: string): Uint8Array | undefined {
  if (hex.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(hex)) return undefined;
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
  return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

/** HMAC-SHA256 of `data` (bytes, or a UTF-8 string) under `secret`. */
export async function hmacSha256(secret: Uint8Array, data: Uint8Array | string): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    'raw',
    new Uint8Array(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const message = typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, message));
}
