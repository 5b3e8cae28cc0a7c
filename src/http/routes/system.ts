/**
 * The routes that need no key: GET /healthz, GET /openapi.json and GET /docs. Declared like every
 * other route, so the OpenAPI document lists them too.
 * @module
 */

import type { RouteDeps } from '../context.ts';
import { docsPage } from '../docs.ts';
import { openApiDocument } from '../openapi.ts';
import { defineRoute, type Route } from '../route.ts';

/** The system routes; `all` returns every route of the app (for the document and the docs page). */
export function systemRoutes({ settings }: RouteDeps, all: () => readonly Route[]): Route[] {
  const document = (baseUrl: string) =>
    openApiDocument(
      all().map((route) => route.meta),
      settings.pricing,
      baseUrl,
    );
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      tags: ['System'],
      summary: 'Liveness check (no key)',
      auth: 'none',
      response: { description: '{"status":"ok"}' },
      errors: [],
      handle: async () => ({ json: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tags: ['System'],
      summary: 'This OpenAPI 3.1 document (no key)',
      auth: 'none',
      response: { description: 'The OpenAPI document' },
      errors: [],
      handle: async (_input, ctx) => ({ json: document(ctx.baseUrl) }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      tags: ['System'],
      summary: 'The human documentation page (no key; works offline)',
      auth: 'none',
      response: { description: 'An HTML page', contentTypes: ['text/html'] },
      errors: [],
      handle: async (_input, ctx) => ({
        text: docsPage(document(ctx.baseUrl), ctx.baseUrl),
        contentType: 'text/html; charset=UTF-8',
      }),
    }),
  ];
}
