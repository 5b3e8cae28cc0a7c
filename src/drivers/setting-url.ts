/**
 * Reading a URL-valued setting (TUBESCRIBE_MAILER, TUBESCRIBE_DNS, …): parse it and check its
 * scheme, with an operator-readable message that never echoes the value (it may hold a password
 * or a token).
 * @module
 */

/**
 * The parsed `value` of the setting `variable`; throws when it is not a URL or its scheme is not
 * one of `schemes` (e.g. `['smtp:', 'smtps:']`). `what` describes the expected URL in messages.
 */
export function settingUrl(variable: string, value: string, schemes: readonly string[], what: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`${variable}: not a valid ${what}`);
  }
  if (!schemes.includes(parsed.protocol)) {
    throw new Error(`${variable}: expected ${what}, got ${parsed.protocol}//`);
  }
  return parsed;
}
