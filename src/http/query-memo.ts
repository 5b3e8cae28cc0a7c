/**
 * A route's validated query, remembered per query string: the same URL (a popular video's
 * transcript) is parsed and validated once, not on every call. Validation is a pure function of
 * the query string, so a remembered answer is the one validation would give; outputs are frozen,
 * so no handler can change another call's input. Bounded: the memory is cleared when full, and
 * long query strings are validated every time.
 * @module
 */
import type * as v from 'valibot';
import { queryRecord } from './body.ts';
import { type AnySchema, validate } from './validate.ts';

/** Distinct query strings remembered per route. */
const ENTRIES = 256;
/** Longer query strings are not remembered. */
const MAX_LENGTH = 512;

/** Freezes `value` and the arrays and objects in it. */
function freezeDeep<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) freezeDeep(inner);
  }
  return value;
}

/** The validator of `schema` over a request URL's query, remembering valid outputs. */
export function queryValidator<S extends AnySchema>(schema: S): (url: string) => v.InferOutput<S> {
  const seen = new Map<string, v.InferOutput<S>>();
  return (url) => {
    const at = url.indexOf('?');
    const search = at < 0 ? '' : url.slice(at + 1);
    const known = seen.get(search);
    if (known !== undefined) return known;
    const output = freezeDeep(validate(schema, queryRecord(url), 'query'));
    if (search.length <= MAX_LENGTH) {
      if (seen.size >= ENTRIES) seen.clear();
      seen.set(search, output);
    }
    return output;
  };
}
