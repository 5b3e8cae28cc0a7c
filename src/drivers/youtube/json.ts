/**
 * Tolerant traversal of InnerTube JSON. YouTube renames renderers a few times a year, so
 * parsers read through these helpers: they never throw on a missing branch, and a parser that
 * needs a value it cannot find throws {@link ParseError} naming the path, which the driver turns
 * into `502 upstream_error` (logging the path, never the body).
 * @module
 */

/** A JSON value as received. */
export type Json = unknown;

/** A plain JSON object. */
export type JsonObject = Record<string, unknown>;

/** Thrown when a response lacks something a parser cannot do without. */
export class ParseError extends Error {
  /** The JSON path (or description) that failed, e.g. `contents.twoColumnBrowseResultsRenderer.tabs`. */
  readonly path: string;
  constructor(path: string, message?: string) {
    super(message ?? `unexpected response shape at ${path}`);
    this.name = 'ParseError';
    this.path = path;
  }
}

/** The object at `value`, or undefined when it is not a plain object. */
export function obj(value: Json): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/** The array at `value`, or an empty array. */
export function arr(value: Json): unknown[] {
  return Array.isArray(value) ? value : [];
}

/** Follows `keys` (object keys or array indexes) from `value`; undefined as soon as one is missing. */
export function at(value: Json, ...keys: (string | number)[]): unknown {
  let current: unknown = value;
  for (const key of keys) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

/** A string, or undefined. */
export function str(value: Json): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** A finite number (numeric strings accepted), or undefined. */
export function num(value: Json): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** A boolean, or undefined. */
export function bool(value: Json): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/**
 * The text of a YouTube text object in any of its shapes: `{simpleText}`, `{runs:[{text}]}`,
 * `{content}` (view models), or a plain string. Undefined when there is none.
 */
export function text(value: Json): string | undefined {
  if (typeof value === 'string') return value;
  const o = obj(value);
  if (!o) return undefined;
  if (typeof o.simpleText === 'string') return o.simpleText;
  if (typeof o.content === 'string') return o.content;
  if (Array.isArray(o.runs)) {
    let out = '';
    for (const run of o.runs) {
      const t = at(run, 'text');
      if (typeof t === 'string') out += t;
    }
    return out;
  }
  return undefined;
}

/** `value` when defined, else throws {@link ParseError} for `path`. */
export function required<T>(value: T | undefined | null, path: string): T {
  if (value === undefined || value === null) throw new ParseError(path);
  return value;
}

/**
 * Every object stored under `key` anywhere inside `value` (depth-first, document order), up to
 * `limit` results. For renderers whose position moves between layouts.
 */
export function findAll(value: Json, key: string, limit: number = Number.POSITIVE_INFINITY): JsonObject[] {
  const out: JsonObject[] = [];
  // Depth-first, pre-order: an entry is matched when it is visited, before its children.
  const stack: [string | undefined, unknown][] = [[undefined, value]];
  while (stack.length > 0 && out.length < limit) {
    const [k, current] = stack.pop()!;
    if (k === key) {
      const o = obj(current);
      if (o) out.push(o);
    }
    if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([undefined, current[i]]);
    } else if (typeof current === 'object' && current !== null) {
      const entries = Object.entries(current as JsonObject);
      for (let i = entries.length - 1; i >= 0; i--) stack.push(entries[i]!);
    }
  }
  return out;
}

/** The first object stored under `key` anywhere inside `value`. */
export function findFirst(value: Json, key: string): JsonObject | undefined {
  return findAll(value, key, 1)[0];
}
