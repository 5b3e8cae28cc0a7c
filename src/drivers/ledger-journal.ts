/**
 * The embedded ledger's credit state and how it is persisted: one small journal entry per credit
 * operation (`op:<seq>`), folded now and then into one document per account (`acct:<account>`).
 *
 * Every operation writes exactly one journal entry before it changes the live state, so a crash
 * can never persist half of an operation, and no call rewrites a whole account document (with its
 * open holds and every grant key it ever applied). Compaction writes the accounts the journal
 * touched, each stamped with the last sequence number it includes, then deletes those entries;
 * loading replays an entry only onto accounts whose stamp is older, so a crash halfway through a
 * compaction loses and doubles nothing. Documents written before the journal existed (no stamp)
 * load as stamp 0.
 * @module
 */
import type { KeyValue } from '../ports/kv.ts';

/** An open reservation. */
export interface Hold {
  cost: number;
  expiresAt: number;
}

/** One day of metered use: requests, credits, and requests per operation. */
export interface DayUse {
  r: number;
  c: number;
  o: Record<string, number>;
}

/** One account's live credit state (mutated in place). */
export interface AccountState {
  balance: number;
  reserved: number;
  spent: number;
  granted: number;
  holds: Map<string, Hold>;
  grants: Map<string, number>;
  /** Metered use per UTC day (`YYYY-MM-DD`), from commits that carried an operation. */
  usage: Map<string, DayUse>;
  /** The last journal entry folded into the persisted document. */
  seq: number;
}

/** The persisted account document. */
export interface AccountDoc {
  balance: number;
  reserved: number;
  spent: number;
  granted: number;
  holds: Record<string, Hold>;
  grants: Record<string, number>;
  usage?: Record<string, DayUse>;
  seq?: number;
}

/**
 * One journal entry: a reservation, its commit or release (metered when `o` and `d` name the
 * operation and day), a grant, a free request's use (`use`), or a payment made at once (`pay`:
 * `c` credits from the balance to spent, metered, no hold).
 */
export type Op =
  | { s: number; a: string; k: 'reserve'; id: string; c: number; x: number }
  | { s: number; a: string; k: 'commit' | 'release'; id: string; o?: string; d?: string }
  | { s: number; a: string; k: 'grant'; id: string; c: number }
  | { s: number; a: string; k: 'use'; o: string; d: string }
  | { s: number; a: string; k: 'pay'; c: number; o: string; d: string };

/** Counts one request of `op` and its `credits` on `date`. */
function meterDay(state: AccountState, date: string, op: string, credits: number): void {
  const day = state.usage.get(date) ?? { r: 0, c: 0, o: {} };
  day.r += 1;
  day.c += credits;
  day.o[op] = (day.o[op] ?? 0) + 1;
  state.usage.set(date, day);
}

/** A fresh account. */
export const emptyAccount = (): AccountState => ({
  balance: 0,
  reserved: 0,
  spent: 0,
  granted: 0,
  holds: new Map(),
  grants: new Map(),
  usage: new Map(),
  seq: 0,
});

/** The live state of a persisted document. */
export function fromDoc(doc: AccountDoc): AccountState {
  return {
    balance: doc.balance,
    reserved: doc.reserved,
    spent: doc.spent,
    granted: doc.granted,
    holds: new Map(Object.entries(doc.holds ?? {})),
    grants: new Map(Object.entries(doc.grants ?? {})),
    usage: new Map(Object.entries(doc.usage ?? {})),
    seq: doc.seq ?? 0,
  };
}

/** The document of a live state, stamped with `seq`. */
export function toDoc(state: AccountState, seq: number): AccountDoc {
  return {
    balance: state.balance,
    reserved: state.reserved,
    spent: state.spent,
    granted: state.granted,
    holds: Object.fromEntries(state.holds),
    grants: Object.fromEntries(state.grants),
    usage: Object.fromEntries(state.usage),
    seq,
  };
}

/** Applies a (validated or replayed) journal entry to an account's state. */
export function applyOp(state: AccountState, op: Op): void {
  if (op.k === 'reserve') {
    state.balance -= op.c;
    state.reserved += op.c;
    state.holds.set(op.id, { cost: op.c, expiresAt: op.x });
  } else if (op.k === 'grant') {
    state.balance += op.c;
    state.granted += op.c;
    state.grants.set(op.id, op.c);
  } else if (op.k === 'use') {
    meterDay(state, op.d, op.o, 0);
  } else if (op.k === 'pay') {
    state.balance -= op.c;
    state.spent += op.c;
    meterDay(state, op.d, op.o, op.c);
  } else {
    const hold = state.holds.get(op.id);
    if (!hold) return;
    state.holds.delete(op.id);
    state.reserved -= hold.cost;
    if (op.k === 'commit') state.spent += hold.cost;
    else state.balance += hold.cost;
    if (op.o !== undefined && op.d !== undefined) {
      meterDay(state, op.d, op.o, op.k === 'commit' ? hold.cost : 0);
    }
  }
}

/** The journal key of sequence number `seq` (fixed width, so keys sort like numbers). */
export const opKey = (prefix: string, seq: number): string =>
  `${prefix}op:${seq.toString(36).padStart(11, '0')}`;

/**
 * Folds the journal into account documents: writes every account in `dirty` stamped with `upTo`,
 * then deletes the entries `seqs`. A failure leaves the journal in place (tried again later).
 */
export async function compact(
  kv: KeyValue,
  prefix: string,
  accounts: ReadonlyMap<string, AccountState>,
  dirty: ReadonlySet<string>,
  seqs: readonly number[],
  upTo: number,
): Promise<void> {
  for (const account of dirty) {
    const state = accounts.get(account);
    if (!state) continue;
    await kv.set(`${prefix}acct:${account}`, toDoc(state, upTo));
    state.seq = upTo;
  }
  for (const seq of seqs) await kv.delete(opKey(prefix, seq));
}
