/**
 * The callers of recently seen API keys, kept in memory so that a request with a known key costs
 * neither a SHA-256 of the key nor the two storage reads behind it. Bounded (oldest first out).
 *
 * Revocation stays immediate on every instance: a revoked key or an account whose plan changed is
 * announced through the Ledger's broadcast ({@link Ledger.broadcast}, Redis pub/sub when shared);
 * every instance drops what it kept, and waits for the announcements already delivered to it
 * ({@link Ledger.caughtUp}) before trusting an entry. Without a broadcast, nothing is kept: a
 * ledger shared between processes that cannot announce changes would make revocation late.
 * A read that overlapped an announcement is not kept (its result may predate the change).
 * @module
 */
import type { Ledger } from '../ports/ledger.ts';

/** What the cache needs to know of a caller (the key and account a change names). */
export interface CachedCaller {
  keyId: string;
  accountId: string;
}

/** Entries kept at most (about 200 bytes each). */
export const PRINCIPAL_CACHE_ENTRIES = 10_000;

/** The broadcast message announcing the revocation of a key. */
export const keyChanged = (keyId: string): string => `key:${keyId}`;
/** The broadcast message announcing a change of an account (its plan). */
export const accountChanged = (accountId: string): string => `account:${accountId}`;

/** The cache; inert when the ledger cannot broadcast. */
export class PrincipalCache<Principal extends CachedCaller> {
  readonly #entries = new Map<string, Principal>();
  readonly #ledger: Ledger;
  readonly #max: number;
  readonly enabled: boolean;
  /** Counts the announcements applied, so a read that overlapped one is not kept. */
  #generation = 0;

  constructor(ledger: Ledger, max: number = PRINCIPAL_CACHE_ENTRIES) {
    this.#ledger = ledger;
    this.#max = max;
    this.enabled = typeof ledger.broadcast === 'function' && typeof ledger.onBroadcast === 'function';
    if (this.enabled) ledger.onBroadcast!((message) => this.apply(message));
  }

  /** The generation to pass to {@link PrincipalCache.set} (read it before the storage reads). */
  get generation(): number {
    return this.#generation;
  }

  /** The caller behind `key`, once every announcement already delivered has been applied. */
  async get(key: string): Promise<Principal | undefined> {
    if (!this.enabled || this.#entries.size === 0) return undefined;
    if (this.#ledger.caughtUp) await this.#ledger.caughtUp();
    return this.#entries.get(key);
  }

  /** Keeps `principal` for `key`, unless an announcement was applied since `generation`. */
  set(key: string, principal: Principal, generation: number): void {
    if (!this.enabled || generation !== this.#generation) return;
    if (this.#entries.size >= this.#max) {
      const oldest = this.#entries.keys().next();
      if (!oldest.done) this.#entries.delete(oldest.value);
    }
    this.#entries.set(key, principal);
  }

  /**
   * Announces `message` to every instance (this one first, synchronously) and resolves once it
   * has been delivered. Without a broadcast there is nothing to announce.
   */
  async announce(message: string): Promise<void> {
    if (!this.enabled) return;
    this.apply(message);
    await this.#ledger.broadcast!(message);
  }

  /** Drops what `message` invalidates. */
  private apply(message: string): void {
    this.#generation++;
    const [kind, id] = [message.slice(0, message.indexOf(':')), message.slice(message.indexOf(':') + 1)];
    for (const [key, principal] of this.#entries) {
      if ((kind === 'key' && principal.keyId === id) || (kind === 'account' && principal.accountId === id)) {
        this.#entries.delete(key);
      }
    }
    if (kind !== 'key' && kind !== 'account') this.#entries.clear();
  }
}
