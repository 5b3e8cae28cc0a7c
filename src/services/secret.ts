/**
 * The server's HMAC secret (cursors, sign-up codes): the configured one, or one shared by every
 * instance on the same storage, elected at start-up. Election is an explicit step
 * ({@link SharedSecret.elect}, run by `Tubescribe.start()`); reading the secret before it fails
 * loudly instead of signing with something else.
 * @module
 */
import { fromHex, toHex } from '../core/digest.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import type { Random } from '../ports/random.ts';

const SECRET_KEY = 'config:secret';

/** What the election needs. */
export interface SecretElection {
  kv: KeyValue;
  ledger: Ledger;
  random: Random;
  /** Pause between looks for the secret another instance is writing. Default 50 ms. */
  pollMs?: number;
  /** Looks before giving up. Default 100. */
  attempts?: number;
}

/** The secret, once known. */
export class SharedSecret {
  #bytes: Uint8Array | undefined;

  /** `configured` (already checked to be ≥ 32 bytes) makes the election a no-op. */
  constructor(configured?: Uint8Array) {
    this.#bytes = configured;
  }

  /** The secret; throws when read before {@link SharedSecret.elect} finished. */
  get bytes(): Uint8Array {
    if (this.#bytes === undefined)
      throw new Error('tubescribe has not started: the secret is not elected yet.');
    return this.#bytes;
  }

  /**
   * Loads the secret kept in storage, or creates it when exactly this instance wins the
   * consume-once election; the others wait for the winner to write it.
   */
  async elect(election: SecretElection): Promise<Uint8Array> {
    if (this.#bytes !== undefined) return this.#bytes;
    const { kv, ledger, random } = election;
    for (let attempt = 0; attempt < (election.attempts ?? 100); attempt++) {
      const stored = await kv.get<string>(SECRET_KEY);
      const bytes = stored ? fromHex(stored) : undefined;
      if (bytes && bytes.length >= 32) {
        this.#bytes = bytes;
        return bytes;
      }
      if (await ledger.consumeOnce(`${SECRET_KEY}:init`, 60_000)) {
        const secret = random.bytes(32);
        await kv.set(SECRET_KEY, toHex(secret));
        this.#bytes = secret;
        return secret;
      }
      await new Promise((resolve) => setTimeout(resolve, election.pollMs ?? 50));
    }
    throw new Error('Timed out waiting for another instance to create the shared secret.');
  }
}
