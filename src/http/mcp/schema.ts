/**
 * Tool schemas for the MCP SDK: a valibot schema as a Standard Schema that also carries its JSON
 * Schema (`@valibot/to-json-schema`), with the JSON Schema computed once per target and kept.
 * The SDK builds a fresh server per request and asks for a tool's JSON Schema on `tools/list`
 * and on every `tools/call`; converting once keeps that off the request path.
 * @module
 */
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import type * as v from 'valibot';

/** `schema` for `registerTool`, its JSON Schema memoised per target and direction. */
export function toolSchema<S extends v.GenericSchema>(
  schema: S,
): StandardSchemaWithJSON<v.InferInput<S>, v.InferOutput<S>> {
  const standard = toStandardJsonSchema(schema)['~standard'];
  const memo = new Map<string, Record<string, unknown>>();
  const cached =
    (direction: 'input' | 'output') =>
    (options: { target: string; libraryOptions?: Record<string, unknown> | undefined }) => {
      const key = `${direction}:${options.target}:${JSON.stringify(options.libraryOptions ?? {})}`;
      let json = memo.get(key);
      if (!json) {
        json = standard.jsonSchema[direction](options as Parameters<typeof standard.jsonSchema.input>[0]);
        memo.set(key, json);
      }
      return json;
    };
  return {
    '~standard': { ...standard, jsonSchema: { input: cached('input'), output: cached('output') } },
  } as StandardSchemaWithJSON<v.InferInput<S>, v.InferOutput<S>>;
}
