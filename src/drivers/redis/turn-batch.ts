/**
 * The calls of one script made in the same turn of the event loop, sent as one call of a script
 * that does them all: a busy server reads several requests per turn, and each cached answer
 * pays with `admitPaid`. One call for the turn saves, per request, the client's command building
 * and reply parsing and Redis's command dispatch, and lets the script read and write each hash
 * once (see `ADMIT_PAID_TOGETHER`). A lone call goes to the script for one, and waits only for
 * the rest of its turn, as every ledger write does (`writeTogether`).
 *
 * The script for several takes its calls' KEYS and ARGV one after another, each laid out as the
 * script for one takes them, and returns one reply per call, in order. A failed call fails every
 * call of its batch, as a lost connection fails every command in flight: the callers treat it
 * as an outcome they never learned.
 * @module
 */
import { nextTurn } from '../background-turn.ts';
import type { Script } from './ledger-scripts.ts';

/** Calls per batch at most: bounds how long one script holds Redis (6-8 µs a payment together: about 0.25 ms). */
export const MAX_BATCH = 32;

interface Waiting {
  resolve: (reply: unknown) => void;
  reject: (error: unknown) => void;
}

/** Gathers a turn's calls and sends them together (through `one` when there is one). */
export class TurnBatch {
  private keys: string[] = [];
  private args: (string | number)[] = [];
  private waiting: Waiting[] = [];

  constructor(
    private readonly one: Script,
    private readonly several: Script,
  ) {}

  /** Runs one call (its keys and arguments as the script reads one call's); resolves with its reply. */
  run(keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (this.waiting.length === 0) nextTurn(this.flush);
    for (const key of keys) this.keys.push(key);
    for (const arg of args) this.args.push(arg);
    const reply = new Promise<unknown>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (this.waiting.length >= MAX_BATCH) this.flush();
    return reply;
  }

  /** Sends what has gathered (nothing when a full batch went already). */
  private readonly flush = (): void => {
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    const { keys, args } = this;
    this.keys = [];
    this.args = [];
    this.waiting = [];
    if (waiting.length === 1) {
      this.one.run(keys, args, false).then(waiting[0]!.resolve, waiting[0]!.reject);
      return;
    }
    this.several.run(keys, args, false).then(
      (replies) => {
        if (!Array.isArray(replies) || replies.length !== waiting.length) {
          const error = new Error(`a batch of ${waiting.length} calls had ${String(replies)} for replies`);
          for (const call of waiting) call.reject(error);
          return;
        }
        for (let i = 0; i < waiting.length; i++) waiting[i]!.resolve(replies[i]);
      },
      (error: unknown) => {
        for (const call of waiting) call.reject(error);
      },
    );
  };
}
