/**
 * The bound on concurrent YouTube work: a counting semaphore with a short, bounded wait queue.
 * A request that finds every slot taken waits (at most `maxQueued` of them, each at most
 * `maxWaitMs` or until its signal aborts); past that it is refused with `503 upstream_busy`
 * (retryable, `Retry-After: 1`), which costs the caller nothing.
 * @module
 */
import { ApiError } from '../../errors.ts';

/** Options of {@link Gate}. */
export interface GateOptions {
  /** Requests allowed in flight at once. */
  maxConcurrent: number;
  /** Requests allowed to wait for a slot. */
  maxQueued: number;
  /** Longest wait for a slot before `upstream_busy`. */
  maxWaitMs: number;
}

/** The default bound: 32 in flight, 64 waiting, each waiting at most 2 s. */
export const DEFAULT_GATE: Readonly<GateOptions> = { maxConcurrent: 32, maxQueued: 64, maxWaitMs: 2000 };

interface Waiter {
  grant: (release: () => void) => void;
  timer: ReturnType<typeof setTimeout>;
}

/** The error of a full gate. */
export function busyError(): ApiError {
  return new ApiError('upstream_busy', 'This server is busy with other YouTube requests; retry shortly.', {
    retryAfter: 1,
  });
}

/** A counting semaphore over YouTube requests (see module docs). */
export class Gate {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private readonly options: GateOptions;

  /** Missing options take {@link DEFAULT_GATE}'s values. */
  constructor(options: Partial<GateOptions> = {}) {
    this.options = { ...DEFAULT_GATE, ...options };
  }

  /** Slots in use. */
  get inUse(): number {
    return this.active;
  }

  /** Requests waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  /**
   * Takes a slot, waiting for one when all are taken. Resolves to the slot's release function
   * (idempotent); rejects with `upstream_busy` when the queue is full or the wait runs out, or
   * with the signal's reason when it aborts first.
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    if (this.active < this.options.maxConcurrent) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.options.maxQueued) return Promise.reject(busyError());
    return new Promise((resolve, reject) => {
      const leave = () => {
        const i = this.waiting.indexOf(waiter);
        if (i >= 0) this.waiting.splice(i, 1);
        clearTimeout(waiter.timer);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        leave();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        grant: (release) => {
          leave();
          resolve(release);
        },
        timer: setTimeout(() => {
          leave();
          reject(busyError());
        }, this.options.maxWaitMs),
      };
      this.waiting.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** Runs `work` holding a slot, released when it settles. */
  async run<T>(signal: AbortSignal | undefined, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const next = this.waiting[0];
      // The slot passes straight to the first waiter; otherwise it is freed.
      if (next) next.grant(this.releaser());
      else this.active--;
    };
  }
}
