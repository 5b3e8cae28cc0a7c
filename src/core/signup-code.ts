/**
 * Sign-up codes and tokens: generating them from an injected Random, checking their shape before
 * any lookup, and the token-bound HMAC under which a code is stored (the code itself never is).
 * @module
 */
import type { Random } from '../ports/random.ts';
import { newId } from './api-keys.ts';
import { hmacSha256, toHex } from './digest.ts';

/**
 * A uniformly random code of `length` decimal digits (leading zeros kept). Bytes ≥ 250 are
 * rejected so that `byte % 10` is unbiased.
 */
export function generateCode(random: Random, length = 6): string {
  if (!Number.isInteger(length) || length < 1) throw new RangeError('code length must be a positive integer');
  let code = '';
  for (let round = 0; code.length < length; round++) {
    if (round >= 64) throw new Error('Random source keeps returning unusable bytes');
    for (const byte of random.bytes(length - code.length + 2)) {
      if (byte < 250 && code.length < length) code += String(byte % 10);
    }
  }
  return code;
}

/** True when `code` is exactly `length` ASCII digits (the verify body's shape check). */
export function isWellFormedCode(code: unknown, length = 6): boolean {
  return typeof code === 'string' && code.length === length && /^[0-9]+$/.test(code);
}

/** A new sign-up token: `sut_` + 32 base62 characters (≈ 190 bits). */
export function generateSignupToken(random: Random): string {
  return newId('sut', random, 32);
}

/** True when `token` has the shape of {@link generateSignupToken}'s output (checked before any lookup). */
export function isWellFormedSignupToken(token: unknown): boolean {
  return typeof token === 'string' && /^sut_[0-9A-Za-z]{32}$/.test(token);
}

/**
 * The stored form of a code: lower-case hex HMAC-SHA256 under `secret` of the token and the
 * code, so a stored MAC is useless for any other token and the code itself is never stored.
 */
export async function codeMac(secret: Uint8Array, token: string, code: string): Promise<string> {
  return toHex(await hmacSha256(secret, `tubescribe/signup-code\n${token}\n${code}`));
}

/** True when `code` is the code whose {@link codeMac} is `mac`; compares in constant time. */
export async function codeMatches(
  secret: Uint8Array,
  token: string,
  code: string,
  mac: string,
): Promise<boolean> {
  const expected = await codeMac(secret, token, code);
  let diff = expected.length ^ mac.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ (mac.charCodeAt(i) | 0);
  return diff === 0;
}
