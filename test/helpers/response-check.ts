/**
 * The response-contract hook of the test apps: every answer a test receives from a declared route
 * is checked against what `/openapi.json` says of it, so every route test also tests the
 * contract. A 2xx JSON body that does not match the route's valibot schema, a 2xx status or
 * content type the route does not declare, an error status its entry does not list, or an error
 * without the envelope fails the call with a message naming the route, the status and the first
 * mismatches.
 */
import * as v from 'valibot';
import type { Tubescribe } from '../../src/app.ts';
import { DEFAULT_PRICES, type Pricing } from '../../src/core/pricing.ts';
import { errorStatuses } from '../../src/http/openapi.ts';
import type { RouteMeta } from '../../src/http/route.ts';
import { ROUTE_MODULES } from '../../src/http/routes/index.ts';
import { systemRoutes } from '../../src/http/routes/system.ts';
import { isJsonType } from '../../src/http/schemas-openapi.ts';
import type { AnySchema } from '../../src/http/validate.ts';

/** The error a call fails with when its answer breaks the declared contract. */
export class ResponseContractError extends Error {
  override name = 'ResponseContractError';
}

/** A declared route with the pattern its paths match. */
export interface DeclaredRoute {
  meta: RouteMeta;
  pattern: RegExp;
}

/** Every route the app declares (those of its route set), most specific paths first. */
export function declaredRoutes(ts: Pick<Tubescribe, 'services' | 'settings'>): DeclaredRoute[] {
  const deps = { services: ts.services, settings: ts.settings };
  const modules = ROUTE_MODULES.filter((m) => m.sets.includes(ts.settings.routes));
  const routes = [...systemRoutes(deps, () => []), ...modules.flatMap((m) => m.routes(deps))];
  return routes
    .map((route) => ({
      meta: route.meta,
      pattern: new RegExp(`^${route.meta.path.replace(/[.]/g, '\\.').replace(/\{\w+\}/g, '[^/]+')}$`),
    }))
    .sort((a, b) => a.meta.path.split('{').length - b.meta.path.split('{').length);
}

/** The declared route a request reaches, if any. */
export function routeOf(
  routes: readonly DeclaredRoute[],
  method: string,
  url: string,
): RouteMeta | undefined {
  const path = new URL(url).pathname;
  return routes.find((r) => r.meta.method === method.toLowerCase() && r.pattern.test(path))?.meta;
}

/** The first mismatches of `issues`, one a line: `path: message`. */
function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const path = issue.path?.map((item) => String(item.key)).join('.') || '(body)';
      return `  ${path}: ${issue.message}`;
    })
    .join('\n');
}

/** The contract's error envelope, exactly. */
const ENVELOPE = v.strictObject({
  error: v.strictObject({
    code: v.pipe(v.string(), v.regex(/^[a-z_]+$/)),
    message: v.pipe(v.string(), v.minLength(1)),
    retryable: v.boolean(),
    details: v.optional(v.record(v.string(), v.unknown())),
  }),
});

/** Why an error answer breaks the contract: a status the route does not list, or no envelope. */
async function errorProblem(name: string, listed: number[], response: Response): Promise<string | undefined> {
  const { status } = response;
  const text = await response.clone().text();
  // A path the router did not take (a parameter it refuses) is the app's 404, not the route's.
  if (status === 404 && /"code":"not_found"/.test(text)) return undefined;
  if (!listed.includes(status)) {
    return `${name} answered ${status}, which its OpenAPI entry does not list (${listed.join(', ')}): ${text.slice(0, 300)}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return v.is(ENVELOPE, body)
    ? undefined
    : `${name} answered ${status} without the error envelope: ${text.slice(0, 300)}`;
}

/** Why `response` breaks the contract of `route`, or undefined when it keeps it. */
export async function contractProblem(
  route: RouteMeta,
  response: Response,
  pricing: Pricing = DEFAULT_PRICES,
): Promise<string | undefined> {
  const { status } = response;
  const name = `${route.method.toUpperCase()} ${route.path}`;
  if (status >= 400) return errorProblem(name, errorStatuses(route, pricing), response);
  if (status < 200 || status > 299) return undefined;
  const declared = route.response;
  const alternative = declared.alternatives?.find((a) => a.status === status);
  if (status !== declared.status && !alternative) {
    return `${name} answered ${status}; it declares ${[declared.status, ...(declared.alternatives ?? []).map((a) => a.status)].join(', ')}`;
  }
  if (status === 204) return undefined;
  const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!isJsonType(type)) {
    return declared.contentTypes.includes(type)
      ? undefined
      : `${name} answered ${status} as '${type}'; it declares ${declared.contentTypes.join(', ')}`;
  }
  const schema: AnySchema | undefined = alternative ? alternative.schema : declared.schema;
  if (!alternative && !declared.contentTypes.some(isJsonType))
    return `${name} answered ${status} as JSON; it declares ${declared.contentTypes.join(', ')}`;
  if (!schema) return `${name} answered ${status} with JSON but declares no response schema`;
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `${name} answered ${status} as JSON with a body that does not parse: ${text.slice(0, 200)}`;
  }
  const result = v.safeParse(schema, body);
  if (result.success) return undefined;
  return `${name} answered ${status} with a body that does not match its declared schema:\n${describeIssues(result.issues)}\nbody: ${text.slice(0, 500)}`;
}

/**
 * Installs the check on `ts.app.fetch` (which `app.request` and `ts.fetch` go through): a 2xx
 * answer that breaks its route's declared contract throws {@link ResponseContractError}.
 */
export function installResponseCheck(ts: Tubescribe): void {
  const routes = declaredRoutes(ts);
  const fetch = ts.app.fetch;
  ts.app.fetch = async (request: Request, ...rest: unknown[]) => {
    const { method, url } = request;
    const response = await (fetch as (r: Request, ...x: unknown[]) => Response | Promise<Response>)(
      request,
      ...rest,
    );
    const route = routeOf(routes, method, url);
    const problem = route && (await contractProblem(route, response, ts.settings.pricing));
    if (problem) throw new ResponseContractError(problem);
    return response;
  };
}
