/**
 * The shapes of the Upstream port (src/ports/upstream.ts) as checks for the Upstream contract:
 * each check lists what is wrong with a value (empty when it conforms), so a failing test names
 * every offending field by its path. Optional fields are absent or of the right type; keys the
 * port does not name, `undefined`, `null` and values that do not survive JSON are problems.
 */

/** Checks a value at a path and reports problems into `out`. */
export type Check = (value: unknown, at: string, out: string[]) => void;

/** `dQw4w9WgXcQ`. */
export const VIDEO_ID: RegExp = /^[A-Za-z0-9_-]{11}$/;
/** `UC` and 22 characters. */
export const CHANNEL_ID: RegExp = /^UC[A-Za-z0-9_-]{22}$/;
/** `PL…`, `UU…`, `OL…`, `RD…`: two capitals and at least 10 more characters. */
export const PLAYLIST_ID: RegExp = /^[A-Z]{2}[A-Za-z0-9_-]{10,}$/;

const show = (v: unknown): string => JSON.stringify(v)?.slice(0, 60) ?? String(v);

/** A string (matching `re` when given). */
export const str =
  (re?: RegExp): Check =>
  (v, at, out) => {
    if (typeof v !== 'string') out.push(`${at}: ${show(v)} is not a string`);
    else if (re && !re.test(v)) out.push(`${at}: ${show(v)} does not match ${re}`);
  };

/** A finite number in [min, max] (an integer when `integer`). */
export const num =
  (min = 0, max = Number.POSITIVE_INFINITY, integer = false): Check =>
  (v, at, out) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) out.push(`${at}: ${show(v)} is not a finite number`);
    else if (integer && !Number.isInteger(v)) out.push(`${at}: ${v} is not an integer`);
    else if (v < min || v > max) out.push(`${at}: ${v} is outside [${min}, ${max}]`);
  };

/** A non-negative integer. */
export const count: Check = num(0, Number.POSITIVE_INFINITY, true);
/** Unix seconds (not milliseconds). */
export const unixSeconds: Check = num(1, 9_999_999_999, true);
/** A boolean. */
export const bool: Check = (v, at, out) => {
  if (typeof v !== 'boolean') out.push(`${at}: ${show(v)} is not a boolean`);
};
/** One of the given strings. */
export const oneOf =
  (...values: string[]): Check =>
  (v, at, out) => {
    if (typeof v !== 'string' || !values.includes(v)) out.push(`${at}: ${show(v)} is not one of ${values}`);
  };
/** An array whose every element passes `item`. */
export const arrayOf =
  (item: Check): Check =>
  (v, at, out) => {
    if (!Array.isArray(v)) out.push(`${at}: ${show(v)} is not an array`);
    else for (const [i, x] of v.entries()) item(x, `${at}[${i}]`, out);
  };

/** An object with exactly the `required` keys, any of the `optional` ones, and no other key. */
export const shape =
  (required: Record<string, Check>, optional: Record<string, Check> = {}): Check =>
  (v, at, out) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      out.push(`${at}: ${show(v)} is not an object`);
      return;
    }
    const o = v as Record<string, unknown>;
    for (const [key, check] of Object.entries(required)) {
      if (!Object.hasOwn(o, key)) out.push(`${at}.${key}: missing`);
      else check(o[key], `${at}.${key}`, out);
    }
    for (const [key, value] of Object.entries(o)) {
      if (Object.hasOwn(required, key)) continue;
      const check = optional[key];
      if (!check) out.push(`${at}.${key}: not a field of the port`);
      else if (value === undefined) out.push(`${at}.${key}: set to undefined (must be omitted)`);
      else check(value, `${at}.${key}`, out);
    }
  };

/** Everything in `value` that is not plain JSON data: `undefined`, `null`, non-finite numbers, class instances. */
export function jsonProblems(value: unknown, at = '$', out: string[] = []): string[] {
  if (value === undefined) out.push(`${at}: undefined`);
  else if (value === null) out.push(`${at}: null (no type of the port has null)`);
  else if (typeof value === 'number' && !Number.isFinite(value)) out.push(`${at}: ${value}`);
  else if (Array.isArray(value)) for (const [i, x] of value.entries()) jsonProblems(x, `${at}[${i}]`, out);
  else if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      out.push(`${at}: an instance of ${proto?.constructor?.name}`);
    else for (const [k, x] of Object.entries(value)) jsonProblems(x, `${at}.${k}`, out);
  } else if (!['string', 'boolean', 'number'].includes(typeof value)) out.push(`${at}: a ${typeof value}`);
  return out;
}

/** Problems of `value` against `check`, plain-JSON problems included: the first one of each path. */
export function problems(check: Check, value: unknown, at = '$'): string[] {
  const out = jsonProblems(value, at);
  check(value, at, out);
  const byPath = new Map<string, string>();
  for (const problem of out) {
    const path = problem.slice(0, problem.indexOf(': '));
    if (!byPath.has(path)) byPath.set(path, problem);
  }
  return [...byPath.values()];
}
