/**
 * What the app's route table says about a path: the methods it answers there (for `Allow`), and
 * whether it has a route at all (the Node middleware hands requests without one to the host app's
 * `next()`). HEAD is answered only on the free document routes ({@link HEAD_PATHS}): Hono would
 * otherwise run a GET handler for it, and a keyed GET costs a credit and may reach YouTube.
 * @module
 */
import type { Hono } from 'hono';
import { basePath } from 'hono/route';
import { TrieRouter } from 'hono/router/trie-router';
import { ApiError, toEnvelope } from '../errors.ts';
import type { AppContext, AppEnv } from './context.ts';

/** The app paths a HEAD is answered on (as a GET without body): documents that cost nothing. */
export const HEAD_PATHS: ReadonlySet<string> = new Set([
  '/healthz',
  '/readyz',
  '/openapi.json',
  '/docs',
  '/docs/scalar.js',
  '/docs/init.js',
]);

/** The methods of the app's routes by path, matched like Hono matches them. */
export interface RouteTable {
  /** The methods answered on `path` (app-relative), `ALL` for catch-all routes; empty = no route. */
  methods(path: string): string[];
}

/** The table of `app`'s routes, built on first use (every route is mounted by then). */
export function routeTable(app: Hono<AppEnv>): RouteTable {
  let router: TrieRouter<string> | undefined;
  const build = (): TrieRouter<string> => {
    const built = new TrieRouter<string>();
    for (const route of app.routes) {
      // Middleware (app.use) is registered for every method on `/*`; it is no route.
      if (route.method === 'ALL' && (route.path === '/*' || route.path === '*')) continue;
      built.add('ALL', route.path, route.method);
    }
    return built;
  };
  return {
    methods(path) {
      router ??= build();
      const [matches] = router.match('ALL', path);
      return [...new Set(matches.map(([method]) => method))];
    },
  };
}

/** The request's path inside the app (without a Hono `app.route` prefix). */
export function appPath(c: AppContext): string {
  const prefix = basePath(c).replace(/\/+$/, '');
  return prefix !== '' && c.req.path.startsWith(prefix) ? c.req.path.slice(prefix.length) || '/' : c.req.path;
}

/**
 * The answer to a HEAD outside {@link HEAD_PATHS}: 405 `method_not_allowed` with the path's
 * methods in `Allow`, or undefined when the path has no route (the 404 follows as usual) or a
 * catch-all one.
 */
export function refuseHead(c: AppContext, table: RouteTable): Response | undefined {
  const path = appPath(c);
  if (HEAD_PATHS.has(path)) return undefined;
  // Catch-all handlers (`/mcp`, the dashboard) check the method themselves.
  const methods = table.methods(path).filter((m) => m !== 'HEAD');
  if (methods.length === 0 || methods.includes('ALL')) return undefined;
  const allow = methods.join(', ');
  const refusal = new ApiError('method_not_allowed', `HEAD is not allowed here; use ${allow}.`);
  return c.json(toEnvelope(refusal), 405, { Allow: allow });
}
