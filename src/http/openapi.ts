/**
 * The OpenAPI 3.1 document, generated from the same valibot schemas the routes validate input
 * with and the tests validate real answers against: parameters, bodies, every success body
 * (named types under `components.schemas`), and every error status a route can answer.
 * @module
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { Pricing } from '../core/pricing.ts';
import { requestExamples } from './request-examples.ts';
import type { RouteMeta } from './route.ts';
import { ERROR_HEADERS, ERROR_SCHEMA, errorResponse } from './schemas-errors.ts';
import { TAGS } from './schemas-names.ts';
import { namedDefinitions, SUCCESS_HEADERS, successResponses } from './schemas-openapi.ts';
import type { AnySchema } from './validate.ts';

type JsonSchema = Record<string, unknown>;

/** The JSON Schema of a request part (its input type: what a client sends). */
function inputSchema(schema: AnySchema): JsonSchema {
  const out = toJsonSchema(schema, {
    errorMode: 'ignore',
    typeMode: 'input',
    target: 'draft-2020-12',
  }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parameters(schema: AnySchema | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = inputSchema(schema);
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    const parameter: JsonSchema = {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      schema: rest,
    };
    if (typeof description === 'string') parameter.description = description;
    return parameter;
  });
}

/** Every error status `route` can answer (decisions.md, Errors and HTTP edges). */
export function errorStatuses(route: RouteMeta, pricing: Pricing): number[] {
  // 405: other methods on the path (and HEAD off the document routes); 413: the body limit is
  // checked on every request; 500: anything unexpected.
  const statuses = new Set<number>([...route.errors, 405, 413, 500]);
  if (route.auth !== 'none') {
    // Conflicting Authorization and X-API-Key (400); keys and accounts live in storage (503).
    for (const status of [400, 401, 429, 503]) statuses.add(status);
  }
  if (route.auth === 'admin' || route.scope) statuses.add(403);
  if (route.operations?.some((op) => pricing[op] > 0)) statuses.add(402);
  if (route.params || route.query || route.body) statuses.add(400);
  if (route.body) statuses.add(415);
  return [...statuses].sort((a, b) => a - b);
}

/** The operation id of a route: `getV1VideosIdBasicInfo`. */
function operationId(route: RouteMeta): string {
  const path = route.path
    .replace(/[{}]/g, '')
    .replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''));
  return `${route.method}${path}`;
}

/** Every `$ref` target under `value`. */
function refsIn(value: unknown, into: Set<string>): Set<string> {
  if (Array.isArray(value)) for (const item of value) refsIn(item, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') into.add(item);
      else refsIn(item, into);
    }
  }
  return into;
}

/** Builds the OpenAPI 3.1 document of `routes`. */
export function openApiDocument(
  routes: readonly RouteMeta[],
  pricing: Pricing,
  serverUrl?: string,
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const used = new Set<number>();
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = successResponses(route);
    for (const status of errorStatuses(route, pricing)) {
      used.add(status);
      responses[status] = { $ref: `#/components/responses/E${status}` };
    }
    const operation: JsonSchema = {
      operationId: operationId(route),
      tags: route.tags,
      summary: route.summary,
      description: route.description ?? route.summary,
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      responses,
    };
    if (route.body)
      operation.requestBody = {
        required: true,
        content: {
          'application/json': {
            schema: inputSchema(route.body),
            ...requestExamples(route.method, route.path),
          },
        },
      };
    if (route.auth === 'key') operation.security = [{ bearer: [] }, { apiKey: [] }];
    if (route.auth === 'admin') operation.security = [{ bearer: [] }];
    if (route.auth === 'none') operation.security = [];
    if (route.operations)
      operation['x-credits'] = Object.fromEntries(route.operations.map((op) => [op, pricing[op]]));
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation;
  }
  const responses = Object.fromEntries(
    [...used].sort((a, b) => a - b).map((status) => [`E${status}`, errorResponse(status)]),
  );
  const tags = [...new Set(routes.flatMap((route) => route.tags))].map((name) => ({
    name,
    description: TAGS[name] ?? name,
  }));
  const document: JsonSchema = {
    openapi: '3.1.0',
    info: {
      title: 'tubescribe',
      version: '1.0.0',
      description:
        'YouTube transcripts, metadata, channels, playlists and search. Only HTTP 200 responses consume credits; every error is free.',
      contact: { name: 'tubescribe', ...(serverUrl ? { url: `${serverUrl}/docs` } : {}) },
      license: { name: 'MIT', identifier: 'MIT' },
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    tags,
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API key> (or the admin token on /admin)',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'The API key' },
      },
      schemas: {},
      responses,
      headers: { ...SUCCESS_HEADERS, ...ERROR_HEADERS },
    },
  };
  // Named schemas: those the operations refer to, and those they refer to in turn.
  const named = namedDefinitions();
  const wanted = new Set<string>();
  let frontier = refsIn(paths, new Set());
  while (frontier.size > 0) {
    const next = new Set<string>();
    for (const ref of frontier) {
      const name = ref.replace('#/components/schemas/', '');
      if (ref === name || wanted.has(name) || !(name in named)) continue;
      wanted.add(name);
      refsIn(named[name], next);
    }
    frontier = next;
  }
  const components = document.components as { schemas: Record<string, unknown> };
  components.schemas = {
    ...Object.fromEntries(Object.entries(named).filter(([name]) => wanted.has(name))),
    Error: ERROR_SCHEMA,
  };
  return document;
}
