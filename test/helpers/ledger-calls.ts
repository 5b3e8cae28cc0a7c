/** Counting a ledger's calls, for tests of how many ledger steps a request costs. */
import type { Ledger } from '../../src/ports/ledger.ts';

/** Counts the calls of each credit-moving ledger method from now on (the ledger is wrapped in place). */
export function countCalls(ledger: Ledger): Record<string, number> {
  const calls: Record<string, number> = {};
  const methods = ledger as unknown as Record<string, unknown>;
  for (const name of ['hit', 'admit', 'reserve', 'commit', 'release', 'meter', 'admitPaid']) {
    const real = methods[name] as ((...args: unknown[]) => unknown) | undefined;
    if (!real) continue;
    methods[name] = (...args: unknown[]) => {
      calls[name] = (calls[name] ?? 0) + 1;
      return real.apply(ledger, args);
    };
  }
  return calls;
}
