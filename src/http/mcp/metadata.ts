/**
 * Discovery for MCP clients: the RFC 9728 protected-resource metadata document (served without a
 * key, declared as normal routes so the OpenAPI document lists it) and the `WWW-Authenticate`
 * challenge of a 401 on `/mcp`, which points at that document.
 * @module
 */
import type { RouteDeps } from '../context.ts';
import { defineRoute, type Route } from '../route.ts';
import { resourceMetadataSchema } from '../schemas-account.ts';

/** Where the MCP endpoint is served. */
export const MCP_PATH = '/mcp';

/** The path of the RFC 9728 document (the one the 401 challenge names). */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/** The RFC 9728 protected-resource metadata tubescribe publishes. */
export interface ResourceMetadata {
  resource: string;
  bearer_methods_supported: string[];
  resource_documentation: string;
  resource_name: string;
}

/** The `WWW-Authenticate` value of a 401 on `/mcp`. */
export function mcpChallenge(baseUrl: string): string {
  return `Bearer resource_metadata="${baseUrl}${RESOURCE_METADATA_PATH}"`;
}

/** The metadata document for `resource` (the API's base URL, or the MCP endpoint's URL). */
export function resourceMetadata(baseUrl: string, resource: string): ResourceMetadata {
  return {
    resource,
    bearer_methods_supported: ['header'],
    resource_documentation: `${baseUrl}/docs`,
    resource_name: 'tubescribe',
  };
}

/**
 * The metadata routes: `/.well-known/oauth-protected-resource` (resource = the base URL, which
 * every key is valid for) and its path-suffixed form for the MCP endpoint (RFC 9728 §3.1), which
 * some MCP clients ask for first.
 */
export function mcpMetadataRoutes(_deps: RouteDeps): Route[] {
  const route = (path: string, suffix: string) =>
    defineRoute({
      method: 'get',
      path,
      tags: ['MCP'],
      summary: 'OAuth protected-resource metadata for MCP clients (RFC 9728, no key)',
      description:
        'API keys are sent as `Authorization: Bearer <key>` (or `X-API-Key`); there is no ' +
        'authorization server: create keys through the admin API, the command line or agent sign-up.',
      auth: 'none',
      response: {
        description: '{resource, bearer_methods_supported, resource_documentation, resource_name}',
        schema: resourceMetadataSchema,
      },
      errors: [],
      handle: async (_input, ctx) => ({ json: resourceMetadata(ctx.baseUrl, `${ctx.baseUrl}${suffix}`) }),
    });
  return [route(RESOURCE_METADATA_PATH, ''), route(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, MCP_PATH)];
}
