/**
 * The OpenAPI 3.1 document, generated from the same valibot schemas the routes validate with.
 * @module
 */
import { toJsonSchema } from '@valibot/to-json-schema';
import type { Pricing } from '../core/pricing.ts';
import type { RouteMeta } from './route.ts';
import type { AnySchema } from './validate.ts';

type JsonSchema = Record<string, unknown>;

function jsonSchema(schema: AnySchema): JsonSchema {
  const out = toJsonSchema(schema, { errorMode: 'ignore', typeMode: 'input' }) as JsonSchema;
  delete out.$schema;
  return out;
}

function parameters(schema: AnySchema | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema);
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

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid parameters (invalid_parameter, invalid_video_id, invalid_cursor, …)',
  401: 'Missing or invalid API key',
  402: 'Credit balance too low (insufficient_credits)',
  403: 'Restricted video or missing scope',
  404: 'No captions, language not found, or resource unavailable',
  409: 'The email address already has an account (account_exists)',
  429: 'Rate limited (rate_limited, daily_limit_exceeded); see Retry-After',
  500: 'Internal error (retryable)',
  502: 'YouTube answered something unparseable (upstream_error), or the code email could not be sent (email_failed)',
  503: 'YouTube refused us (upstream_blocked), this server is busy with YouTube work (upstream_busy), storage is down (storage_unavailable), or sign-up is paused or off (agent_signup_busy, agent_signup_disabled); see Retry-After',
  504: 'The upstream work took too long (upstream_timeout)',
};

/** Builds the OpenAPI 3.1 document of `routes`. */
export function openApiDocument(
  routes: readonly RouteMeta[],
  pricing: Pricing,
  serverUrl?: string,
): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const statuses = new Set<number>([...route.errors, 500]);
    if (route.auth !== 'none') {
      statuses.add(401);
      statuses.add(429);
    }
    if (route.operations?.some((op) => pricing[op] > 0)) statuses.add(402);
    if (route.params || route.query || route.body) statuses.add(400);
    const responses: Record<string, JsonSchema> = {
      [route.response.status]: {
        description: route.response.description,
        ...(route.response.status === 204
          ? {}
          : {
              content: Object.fromEntries(
                route.response.contentTypes.map((type) => [
                  type,
                  route.response.schema && type === 'application/json'
                    ? { schema: jsonSchema(route.response.schema) }
                    : {},
                ]),
              ),
            }),
      },
    };
    for (const status of [...statuses].sort())
      responses[status] = { $ref: `#/components/responses/E${status}` };
    const operation: JsonSchema = {
      operationId: `${route.method}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      tags: route.tags,
      summary: route.summary,
      parameters: [...parameters(route.params, 'path'), ...parameters(route.query, 'query')],
      responses,
    };
    if (route.description) operation.description = route.description;
    if (route.body)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: jsonSchema(route.body) } },
      };
    if (route.auth === 'key') operation.security = [{ bearer: [] }, { apiKey: [] }];
    if (route.auth === 'admin') operation.security = [{ bearer: [] }];
    if (route.auth === 'none') operation.security = [];
    if (route.operations)
      operation['x-credits'] = Object.fromEntries(route.operations.map((op) => [op, pricing[op]]));
    paths[route.path] ??= {};
    paths[route.path]![route.method] = operation;
  }
  const errorResponses = Object.fromEntries(
    Object.entries(STATUS_TEXT).map(([status, description]) => [
      `E${status}`,
      { description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'tubescribe',
      version: '1.0.0',
      description:
        'YouTube transcripts, metadata, channels, playlists and search. Only HTTP 200 responses consume credits; every error is free.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'Authorization: Bearer <API key> (or the admin token on /admin)',
        },
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message', 'retryable'],
              properties: {
                code: { type: 'string' },
                message: { type: 'string' },
                retryable: { type: 'boolean' },
                details: { type: 'object' },
              },
            },
          },
        },
      },
      responses: errorResponses,
    },
  };
}
