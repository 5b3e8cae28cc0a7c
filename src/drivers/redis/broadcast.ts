/**
 * Broadcasts between the instances sharing one Redis (the Ledger's `broadcast`, `onBroadcast` and
 * `caughtUp`): Redis pub/sub on one channel, over a subscriber connection of its own, opened when
 * the first listener registers.
 *
 * What a listener keeps must never outlive a message it missed, so whenever the subscription is
 * not live (still connecting, dropped, re-established) listeners are told to forget everything
 * (the message `*`), and {@link RedisBroadcast.caughtUp} says the same on every call until it is
 * live again: while disconnected, nothing kept is trusted.
 * @module
 */
import type { Redis } from 'ioredis';
import { nextTurn } from '../background-turn.ts';

/** Everything a listener keeps is stale: forget it all. */
export const FORGET_ALL = '*';

/** Pub/sub on `channel` over `client`'s server. */
export class RedisBroadcast {
  readonly #client: Redis;
  readonly #channel: string;
  readonly #listeners: ((message: string) => void)[] = [];
  readonly #waiting = new Map<string, () => void>();
  #subscriber: Redis | undefined;
  #live = false;
  #sent = 0;
  /** The turn the callers of {@link caughtUp} wait for, while one is pending. */
  #turn: Promise<void> | undefined;

  constructor(client: Redis, channel: string) {
    this.#client = client;
    this.#channel = channel;
  }

  /** Registers a listener (and subscribes, on the first). */
  listen(listener: (message: string) => void): void {
    this.#listeners.push(listener);
    if (this.#subscriber) return;
    // No autoResubscribe: on a reconnection ioredis would subscribe again with nobody awaiting
    // the answer (a link that drops meanwhile is then an unhandled rejection); the 'ready'
    // handler below subscribes, and handles the outcome.
    const subscriber = this.#client.duplicate({ lazyConnect: true, autoResubscribe: false });
    this.#subscriber = subscriber;
    subscriber.on('error', () => {});
    subscriber.on('close', () => this.#drop());
    subscriber.on('ready', () => {
      subscriber.subscribe(this.#channel).then(
        () => {
          this.#live = true;
          this.#emit(FORGET_ALL); // messages sent while it was down were missed
        },
        () => this.#drop(),
      );
    });
    subscriber.on('message', (_channel: string, raw: string) => {
      const bar = raw.indexOf('|');
      const id = raw.slice(0, bar);
      this.#emit(raw.slice(bar + 1));
      this.#waiting.get(id)?.();
    });
    subscriber.connect().catch(() => this.#drop());
  }

  /** Publishes `message`; resolves once this instance's own subscriber got it back (≤ 1 s). */
  async publish(message: string): Promise<void> {
    const id = `${++this.#sent}.${crypto.randomUUID()}`;
    if (!this.#live) {
      await this.#client.publish(this.#channel, `${id}|${message}`);
      return;
    }
    const echoed = new Promise<void>((resolve) => {
      const timer = setTimeout(done, 1000);
      const waiting = this.#waiting;
      function done() {
        clearTimeout(timer);
        waiting.delete(id);
        resolve();
      }
      waiting.set(id, done);
    });
    await this.#client.publish(this.#channel, `${id}|${message}`);
    await echoed;
  }

  /**
   * Resolves once the messages already delivered to this process were handed to the listeners
   * (they wait in the subscriber's socket until the event loop turns); while the subscription is
   * not live, first tells the listeners to forget everything.
   */
  caughtUp(): Promise<void> {
    if (!this.#live) {
      this.#emit(FORGET_ALL);
      return Promise.resolve();
    }
    // One turn for every caller of this turn: a turn that ends after the call serves it as well
    // as one of its own would (a request per call costs a timer per request under load).
    this.#turn ??= new Promise((resolve) =>
      nextTurn(() => {
        this.#turn = undefined;
        resolve();
      }),
    );
    return this.#turn;
  }

  /** Unsubscribes and closes the subscriber connection. */
  async close(): Promise<void> {
    const subscriber = this.#subscriber;
    this.#subscriber = undefined;
    this.#live = false;
    if (subscriber) await subscriber.quit().catch(() => subscriber.disconnect());
  }

  #drop(): void {
    this.#live = false;
    this.#emit(FORGET_ALL);
  }

  #emit(message: string): void {
    for (const listener of this.#listeners) listener(message);
  }
}
