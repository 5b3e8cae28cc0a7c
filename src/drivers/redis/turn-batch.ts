/**
 * The calls of one script made in the same turn of the event loop, sent as one call of a script
 * that does them all: a busy server reads several requests per turn, and each cached answer
 * pays with `admitPaid`. One call for the turn saves, per request, the client's command building
 * and reply parsing and Redis's command dispatch, and lets the script read and write each hash
 * once (see `ADMIT_PAID_TOGETHER`). A lone call goes to the script for one, and waits only for
 * the rest of its turn, as every ledger write does (`writeTogether`).
 *
 * The batch keeps each call as given and leaves laying them out to its two senders: one call, or
 * several, whose script returns one reply per call, in order. A failed call fails every call of
 * its batch, as a lost connection fails every command in flight: the callers treat it as an
 * outcome they never learned.
 * @module
 */
import { nextTurn } from '../background-turn.ts';

/** Calls per batch at most: bounds how long one script holds Redis (6-8 µs a payment together: about 0.25 ms). */
export const MAX_BATCH = 32;

interface Waiting {
  resolve: (reply: unknown) => void;
  reject: (error: unknown) => void;
}

/** Gathers a turn's calls and sends them together (through `one` when there is one). */
export class TurnBatch<C> {
  private calls: C[] = [];
  private waiting: Waiting[] = [];

  constructor(
    /** Sends a lone call; resolves with its reply. */
    private readonly one: (call: C) => Promise<unknown>,
    /** Sends several calls in one script call; resolves with their replies, in order. */
    private readonly several: (calls: readonly C[]) => Promise<unknown>,
  ) {}

  /** Runs one call; resolves with its reply. */
  run(call: C): Promise<unknown> {
    if (this.waiting.length === 0) nextTurn(this.flush);
    this.calls.push(call);
    const reply = new Promise<unknown>((resolve, reject) => this.waiting.push({ resolve, reject }));
    if (this.waiting.length >= MAX_BATCH) this.flush();
    return reply;
  }

  /** Sends what has gathered (nothing when a full batch went already). */
  private readonly flush = (): void => {
    const waiting = this.waiting;
    if (waiting.length === 0) return;
    const calls = this.calls;
    this.calls = [];
    this.waiting = [];
    if (waiting.length === 1) {
      this.one(calls[0]!).then(waiting[0]!.resolve, waiting[0]!.reject);
      return;
    }
    this.several(calls).then(
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
