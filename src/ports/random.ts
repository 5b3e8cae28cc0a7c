/**
 * The Random port: where random bytes come from, injected so tests can seed it.
 * @module
 */

/**
 * The source of randomness for keys, ids, secrets and sign-up codes.
 * Production implementations MUST be cryptographically secure (a CSPRNG such as
 * `crypto.getRandomValues`); tests inject a seeded one.
 */
export interface Random {
  /** Returns `length` fresh random bytes. */
  bytes(length: number): Uint8Array;
}
