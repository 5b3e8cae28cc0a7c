/**
 * The success answers of the OpenAPI document: each route's JSON body as JSON Schema (converted
 * from its valibot schema, named types as `#/components/schemas/…` references), text bodies as
 * strings in their content type, and the headers every answer carries.
 * @module
 */
import { type ConversionConfig, toJsonSchema, toJsonSchemaDefs } from '@valibot/to-json-schema';
import type { RouteMeta } from './route.ts';
import { NAMED_SCHEMAS } from './schemas-names.ts';
import type { AnySchema } from './validate.ts';

type Json = Record<string, unknown>;

const CONFIG: ConversionConfig = {
  errorMode: 'ignore',
  typeMode: 'input',
  target: 'draft-2020-12',
  overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
};

/** The headers of success answers. */
export const SUCCESS_HEADERS: Json = {
  'X-Request-Id': {
    description: 'Identifies the call (a sane client value is echoed)',
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  'X-Credits-To-Deduct': {
    description: 'Credits this call consumed',
    schema: { type: 'integer', minimum: 0 },
  },
  'X-RateLimit-Limit': {
    description: 'Requests per second allowed for the key',
    schema: { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?$' },
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the window closest to its limit',
    schema: { type: 'integer', minimum: 0 },
  },
};

const ref = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

/** The JSON Schema of a success body. */
function bodySchema(schema: AnySchema): Json {
  const out = toJsonSchema(schema, { ...CONFIG, definitions: NAMED_SCHEMAS }) as Json;
  delete out.$schema;
  delete out.$defs;
  return out;
}

/** Whether `type` is a JSON media type. */
export function isJsonType(type: string): boolean {
  return /^application\/(.+\+)?json\b/i.test(type);
}

/** The content of one success answer. */
function content(route: RouteMeta): Json {
  const { contentTypes, schema } = route.response;
  return Object.fromEntries(
    contentTypes.map((type) => [
      type,
      isJsonType(type)
        ? schema
          ? { schema: bodySchema(schema) }
          : {}
        : { schema: { type: 'string', description: `The document itself, as ${type}` } },
    ]),
  );
}

/** The `responses` entries of a route's success answers. */
export function successResponses(route: RouteMeta): Record<string, Json> {
  const { status, description, alternatives = [] } = route.response;
  const headers: Json = { 'X-Request-Id': ref('X-Request-Id') };
  if (route.auth === 'key') {
    headers['X-Credits-To-Deduct'] = ref('X-Credits-To-Deduct');
    headers['X-RateLimit-Limit'] = ref('X-RateLimit-Limit');
    headers['X-RateLimit-Remaining'] = ref('X-RateLimit-Remaining');
  }
  const out: Record<string, Json> = {
    [status]: status === 204 ? { description, headers } : { description, headers, content: content(route) },
  };
  for (const alternative of alternatives) {
    out[alternative.status] = {
      description: alternative.description,
      headers,
      content: { 'application/json': { schema: bodySchema(alternative.schema) } },
    };
  }
  return out;
}

/** The named schemas as JSON Schema (each refers to the others by name). */
export function namedDefinitions(): Record<string, Json> {
  const defs = toJsonSchemaDefs(NAMED_SCHEMAS, CONFIG) as Record<string, Json>;
  for (const def of Object.values(defs)) delete def.$schema;
  return defs;
}
