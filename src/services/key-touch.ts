/**
 * Per-key `last_used_at`: every authenticated call marks its key as used, written to the Ledger
 * ({@link Ledger.touchKey}) at most once a minute per key. This process skips keys it touched
 * less than a minute ago without asking the ledger, and the ledger's own check keeps several
 * instances to one write per key and minute. The write is never awaited by the request and its
 * failure is ignored: the request never waits for, or fails with, a bookkeeping write.
 * @module
 */
import type { Clock } from '../ports/clock.ts';
import type { Ledger } from '../ports/ledger.ts';

/** The least time between two recorded uses of one key. */
export const KEY_TOUCH_GAP_MS = 60_000;
/** Keys remembered by this process at most (about 100 bytes each). */
const REMEMBERED_KEYS = 10_000;

/** Records keys' last uses through the ledger, once a minute per key at most. */
export class KeyTouches {
  /** Key id → when this process last asked the ledger to record it. */
  readonly #touched = new Map<string, number>();
  /** Writes started and not finished (tests and shutdown can wait for them). */
  readonly #pending = new Set<Promise<unknown>>();

  constructor(
    private readonly ledger: Pick<Ledger, 'touchKey'>,
    private readonly clock: Clock,
    private readonly gapMs: number = KEY_TOUCH_GAP_MS,
  ) {}

  /** Marks `keyId` as used now; returns at once (the write, if any, runs in the background). */
  touch(keyId: string): void {
    const { ledger } = this;
    if (!ledger.touchKey) return;
    const now = this.clock.now();
    const last = this.#touched.get(keyId);
    if (last !== undefined && now - last < this.gapMs) return;
    if (last === undefined && this.#touched.size >= REMEMBERED_KEYS) {
      const oldest = this.#touched.keys().next();
      if (!oldest.done) this.#touched.delete(oldest.value);
    }
    this.#touched.delete(keyId);
    this.#touched.set(keyId, now);
    let write: Promise<unknown>;
    try {
      write = ledger.touchKey(keyId, this.gapMs).catch(() => false);
    } catch {
      return; // a ledger that throws synchronously: the use is simply not recorded
    }
    this.#pending.add(write);
    void write.finally(() => this.#pending.delete(write));
  }

  /** Resolves once every write started so far has finished (succeeded or not). */
  async settled(): Promise<void> {
    await Promise.all([...this.#pending]);
  }
}
