/**
 * Where the dashboard is served: `/dashboard` under the path the app is mounted at, so that its
 * links, forms, assets and redirects keep working when tubescribe is embedded under a path
 * (Express's `app.use('/youtube', …)`, Hono's `app.route('/api', …)`). With a public URL
 * configured, its path is the prefix (the only way to know it under Hono's `app.mount`, which
 * hides it from the request).
 *
 * The main app hands each dashboard request over with {@link pagesRequest}: the pages app's routes
 * start at `/dashboard`, so the request's path loses what `app.route` put before it, and the prefix
 * the links need is remembered with the request. While a page renders, {@link dashboardUrl} names
 * an address under the dashboard (`respond.tsx` provides it for the page being answered).
 * @module
 */
import { type Context, createContext, useContext } from 'hono/jsx';
import type { Settings } from '../../settings.ts';
import type { AppContext } from '../context.ts';
import { mountPrefix, routePrefix } from '../public-url.ts';
import { siteOrigin } from './session.ts';

/** The mount prefix of each request handed to the pages app (absent: the root). */
const prefixes = new WeakMap<Request, string>();

/** The request the pages app answers for the main app's `c`, its prefix remembered. */
export function pagesRequest(c: AppContext, settings: Pick<Settings, 'publicUrl'>): Request {
  const route = routePrefix(c);
  let request = c.req.raw;
  if (route !== '') {
    const url = new URL(request.url);
    if (url.pathname.startsWith(route)) url.pathname = url.pathname.slice(route.length);
    request = new Request(url, request);
  }
  const prefix =
    settings.publicUrl === undefined
      ? mountPrefix(c)
      : new URL(settings.publicUrl).pathname.replace(/\/+$/, '');
  if (prefix !== '') prefixes.set(request, prefix);
  return request;
}

/** The prefix the app is mounted under, for a request of the pages app (`''` at the root). */
export function mountOf(c: AppContext): string {
  return prefixes.get(c.req.raw) ?? '';
}

/** The base URL of the API a page names (examples, links): the public URL, else this site's. */
export function apiBase(c: AppContext, settings: Settings): string {
  return settings.publicUrl ?? `${siteOrigin(c, settings)}${mountOf(c)}`;
}

/** The dashboard's own path for a request of the pages app (`/youtube/dashboard`). */
export function dashboardAt(c: AppContext): string {
  return `${mountOf(c)}/dashboard`;
}

/** The dashboard's path while a page renders (provided per answer, see `respond.tsx`). */
export const DashboardPath: Context<string> = createContext('/dashboard');

/** An address under the dashboard while a page renders: `''` the overview, `'/keys'`, … */
export function dashboardUrl(path = ''): string {
  return useContext(DashboardPath) + path;
}
