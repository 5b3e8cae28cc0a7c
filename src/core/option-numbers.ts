/**
 * Checks the numeric options of `createApp` (cache, limits, batch, sign-up) when the app is made.
 * A wrong value otherwise surfaces late and far from its cause: `batch.instanceConcurrency: NaN`
 * gave a job queue that never ran a task, a `NaN` deadline never fired, a negative retention
 * dropped finished jobs at once, a 0-digit sign-up code failed every sign-up. Each error names
 * the option and the value it got.
 * @module
 */

/** What a number must be: a whole number with a minimum, or any finite number above or from 0. */
export type NumberBound = 'whole ≥ 1' | 'whole ≥ 0' | '> 0' | '≥ 0';

const MEANING: Record<NumberBound, string> = {
  'whole ≥ 1': 'a whole number of at least 1',
  'whole ≥ 0': 'a whole number of at least 0',
  '> 0': 'a finite number above 0',
  '≥ 0': 'a finite number of at least 0',
};

function meets(value: number, bound: NumberBound): boolean {
  switch (bound) {
    case 'whole ≥ 1':
      return Number.isSafeInteger(value) && value >= 1;
    case 'whole ≥ 0':
      return Number.isSafeInteger(value) && value >= 0;
    case '> 0':
      return Number.isFinite(value) && value > 0;
    case '≥ 0':
      return Number.isFinite(value) && value >= 0;
  }
}

/** `value` when it is a number within `bound`; otherwise throws a plain Error naming `option`. */
export function checkNumber(option: string, value: unknown, bound: NumberBound): number {
  if (typeof value === 'number' && meets(value, bound)) return value;
  const shown = typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value));
  throw new Error(`The option ${option} must be ${MEANING[bound]}, got ${shown}.`);
}

/**
 * Checks the named numbers of `values` (resolved options: defaults merged, so each is present);
 * returns `values`. `prefix` names the options (`limits.` gives `limits.deadlineMs`).
 */
export function checkNumbers<T extends object>(
  prefix: string,
  values: T,
  bounds: { readonly [K in keyof T]?: NumberBound },
): T {
  for (const [key, bound] of Object.entries(bounds) as [string, NumberBound][])
    checkNumber(prefix + key, (values as Record<string, unknown>)[key], bound);
  return values;
}
