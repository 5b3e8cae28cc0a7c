/**
 * The routes that need no key: GET /healthz (liveness: the process answers), GET /readyz
 * (readiness: storage, ledger and secret answer; 503 `storage_unavailable` otherwise), GET
 * /openapi.json and GET /docs. Declared like every other route, so the OpenAPI document lists them
 * too. (`GET /metrics`, which needs a token, is in `metrics.ts`.)
 * @module
 */

import * as v from 'valibot';
import type { RouteDeps } from '../context.ts';
import { docsHeaders, docsPage, mountedBaseUrl } from '../docs.ts';
import { docsScriptRoutes } from '../docs-ui/assets.ts';
import { openApiDocument } from '../openapi.ts';
import { defineRoute, type Route } from '../route.ts';
import { healthSchema, openApiSchema } from '../schemas-account.ts';

const checkOk = v.literal('ok');

/** The body of a ready instance. */
const readySchema = v.object({
  status: checkOk,
  checks: v.object({ storage: checkOk, ledger: checkOk, secret: checkOk }),
});

/** The system routes; `all` returns every route of the app (for the document and the docs page). */
export function systemRoutes({ settings, services }: RouteDeps, all: () => readonly Route[]): Route[] {
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
      response: { description: '{"status":"ok"}', schema: healthSchema },
      errors: [],
      handle: async () => ({ json: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      tags: ['System'],
      summary: 'Readiness check (no key)',
      description:
        'Whether this instance can serve keyed requests: it reads the storage (fs folder, Redis or ' +
        'memory) and the credit ledger, each probe bounded to 2 s, and checks that start-up elected ' +
        'the shared secret. 503 `storage_unavailable` (with `details.checks`: `ok`, `failed` or ' +
        "`timeout` per check) takes the instance out of a load balancer's rotation; `/healthz` " +
        'stays 200 meanwhile, since the process itself is alive.',
      auth: 'none',
      response: { description: '{"status":"ok","checks":{…}}', schema: readySchema },
      errors: [503],
      handle: async () => ({ json: await services.readiness.check() }),
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      tags: ['System'],
      summary: 'This OpenAPI 3.1 document (no key)',
      auth: 'none',
      response: { description: 'The OpenAPI document', schema: openApiSchema },
      errors: [],
      handle: async (_input, ctx) => ({
        json: document(mountedBaseUrl(ctx.c, '/openapi.json', ctx.baseUrl, settings.publicUrl)),
      }),
    }),
    defineRoute({
      method: 'get',
      path: '/docs',
      tags: ['System'],
      summary: 'The interactive API reference, with try-it-out (no key; works offline)',
      auth: 'none',
      response: { description: 'An HTML page', contentTypes: ['text/html'] },
      errors: [],
      handle: async (_input, ctx) => {
        const base = mountedBaseUrl(ctx.c, '/docs', ctx.baseUrl, settings.publicUrl);
        return {
          text: docsPage(document(base), settings.publicUrl),
          contentType: 'text/html; charset=UTF-8',
          headers: docsHeaders(settings.publicUrl),
        };
      },
    }),
    ...docsScriptRoutes(),
  ];
}
