/**
 * Running a handler from this instance's memory alone, before admission: a REST route or an MCP
 * tool whose work is reading the cache runs first with {@link MEMORY_ONLY} as its call; when it
 * answers without reaching upstream, the answer is admitted and paid in one ledger step
 * (`Billing.payReady`), else the call goes the usual way (admitted, charged around its work).
 * @module
 */
import { LazyCall } from './route-call.ts';

/** Thrown by {@link MEMORY_ONLY}'s signal: the work needs upstream. */
class NeedsUpstream extends Error {}

/**
 * The call of work run from memory alone: the cache asks for the call's signal only when it has
 * something to wait for (an L1 miss), and upstream work always does, so asking for it means the
 * answer is not in memory. The throw comes before any load starts.
 */
export const MEMORY_ONLY: LazyCall = new LazyCall(() => {
  throw new NeedsUpstream('not in memory');
});

/**
 * The work's result when it made one from memory alone, else undefined: it needed upstream, or it
 * failed (the usual path runs it again, admitted and charged as always, and answers the same).
 */
export async function answerFromMemory<T>(run: () => Promise<T>): Promise<T | undefined> {
  try {
    return await run();
  } catch {
    return undefined;
  }
}
