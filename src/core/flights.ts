/**
 * Sharing identical asynchronous work between callers (request coalescing), with per-caller
 * cancellation. No I/O of its own: the work is whatever the caller starts.
 * @module
 */

/**
 * Identical work in flight, shared: the first caller starts it, later callers with the same key
 * join it. Each caller's signal rejects only that caller; the shared work sees a signal that
 * aborts once every joined caller has aborted (a caller without a signal keeps it alive).
 */
export class Flights<T> {
  private readonly running = new Map<
    string,
    { promise: Promise<T>; controller: AbortController; waiters: number }
  >();

  /** Joins the flight of `key`, starting it with `start` when there is none. */
  run(key: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    let flight = this.running.get(key);
    if (!flight) {
      const controller = new AbortController();
      const entry = { promise: start(controller.signal), controller, waiters: 0 };
      const clear = () => {
        if (this.running.get(key) === entry) this.running.delete(key);
      };
      entry.promise.then(clear, clear);
      this.running.set(key, entry);
      flight = entry;
    }
    const f = flight;
    f.waiters++;
    if (!signal) return f.promise;
    return new Promise<T>((resolve, reject) => {
      const onAbort = () => {
        reject(signal.reason);
        if (--f.waiters > 0) return;
        if (this.running.get(key) === f) this.running.delete(key);
        f.controller.abort(signal.reason);
      };
      signal.addEventListener('abort', onAbort, { once: true });
      f.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
