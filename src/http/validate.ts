/**
 * Input validation with valibot: every failure is a 400 in the contract's envelope whose message
 * names the parameter.
 * @module
 */
import * as v from 'valibot';
import { ApiError } from '../errors.ts';

/** Any valibot schema. */
export type AnySchema = v.GenericSchema<unknown, unknown>;

/** Where an input came from (named in messages when the issue has no path). */
export type InputPart = 'path' | 'query' | 'body';

/** Validates `input` against `schema`; throws `invalid_parameter` naming the first bad parameter. */
export function validate<S extends AnySchema>(schema: S, input: unknown, part: InputPart): v.InferOutput<S> {
  // valibot's object schema also accepts arrays; a body must be a JSON object.
  if (part === 'body' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw new ApiError('invalid_request', 'The request body must be a JSON object.');
  }
  const result = v.safeParse(schema, input, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const path = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  if (path === '' && part === 'body') {
    // A rule over the whole body (for example "send exactly one of amount or pack").
    throw new ApiError('invalid_request', `Invalid request body: ${issue.message}.`);
  }
  const parameter = path === '' ? part : path;
  const received = issue.input === undefined ? 'it is missing' : issue.message;
  throw new ApiError('invalid_parameter', `Invalid parameter '${parameter}': ${received}.`, {
    details: { parameter, location: part },
  });
}

/** A string parameter from a set of values, with aliases mapped to their canonical value. */
export function oneOf<const T extends string>(
  values: readonly T[],
  aliases: Readonly<Record<string, T>> = {},
): v.GenericSchema<string, T> {
  const accepted = [...values, ...Object.keys(aliases)];
  return v.pipe(
    v.string(`expected one of ${values.join(', ')}`),
    v.metadata({ enum: accepted }),
    v.transform((s) => s.trim().toLowerCase()),
    v.check((s) => accepted.includes(s), `expected one of ${values.join(', ')}`),
    v.transform((s) => (aliases[s] ?? s) as T),
  ) as v.GenericSchema<string, T>;
}

/** A boolean query parameter: `true`/`false`/`1`/`0`/`yes`/`no`. */
export const queryBoolean: v.GenericSchema<string, boolean> = v.pipe(
  v.string('expected true or false'),
  v.metadata({ enum: ['true', 'false'] }),
  v.transform((s) => s.trim().toLowerCase()),
  v.check((s) => ['true', 'false', '1', '0', 'yes', 'no'].includes(s), 'expected true or false'),
  v.transform((s) => s === 'true' || s === '1' || s === 'yes'),
) as v.GenericSchema<string, boolean>;

/** An integer query parameter within bounds. */
export function queryInteger(min: number, max: number): v.GenericSchema<string, number> {
  return v.pipe(
    v.string(`expected an integer from ${min} to ${max}`),
    v.metadata({ pattern: '^-?[0-9]+$', description: `An integer from ${min} to ${max}.` }),
    v.check((s) => /^\s*-?\d+\s*$/.test(s), `expected an integer from ${min} to ${max}`),
    v.transform((s) => Number(s)),
    v.number(),
    v.minValue(min, `expected an integer from ${min} to ${max}`),
    v.maxValue(max, `expected an integer from ${min} to ${max}`),
  ) as v.GenericSchema<string, number>;
}

/** A non-empty trimmed string of at most `max` characters. */
export function text(max: number, what = 'text'): v.GenericSchema<string, string> {
  return v.pipe(
    v.string(`expected ${what}`),
    v.transform((s) => s.trim()),
    v.minLength(1, `expected ${what}, got an empty value`),
    v.maxLength(max, `expected at most ${max} characters`),
  ) as v.GenericSchema<string, string>;
}
