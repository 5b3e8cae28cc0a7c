/**
 * The dashboard at `/dashboard` (decisions.md: no key; people sign in by email code, operators
 * with the admin token). Its pages live in their own Hono app: the main app documents and mounts
 * `GET /dashboard` (the one entry point, in the OpenAPI document beside `/docs`) and hands every
 * `/dashboard/...` request to it, so the pages and forms stay out of the API's contract. Off when
 * the `dashboard` setting is false.
 * @module
 */
import { Hono } from 'hono';
import { ApiError, toEnvelope } from '../../errors.ts';
import { asApiError } from '../../services/context.ts';
import type { AppContext, AppEnv, MountDeps, RouteDeps } from '../context.ts';
import type { Route, RouteMeta } from '../route.ts';
import { pagesRequest } from './address.ts';
import { on } from './guard.ts';
import { mountAccountPages } from './routes-account.tsx';
import { mountOperatorPages } from './routes-operator.tsx';
import { mountSignin } from './routes-signin.tsx';

const META: RouteMeta = {
  method: 'get',
  path: '/dashboard',
  tags: ['System'],
  summary: 'The web dashboard (no key: sign in by email code)',
  description:
    'Server-rendered pages under /dashboard: sign in or sign up by email code, balance, plan and ' +
    'limits, API keys, usage per day, batch jobs, and the operator pages (admin token).',
  auth: 'none',
  response: { status: 200, description: 'An HTML page', contentTypes: ['text/html'] },
  errors: [],
};

/** The dashboard's own app: every page and form, and a readable 404 for the rest. */
export function dashboardApp(deps: MountDeps): Hono<AppEnv> {
  const pages = new Hono<AppEnv>();
  mountAccountPages(pages, deps);
  mountSignin(pages, deps);
  mountOperatorPages(pages, deps);
  on(pages, deps, 'GET', '/dashboard/*', async (c) => {
    throw new ApiError('not_found', `There is no dashboard page at ${c.req.path}.`);
  });
  pages.notFound((c) =>
    c.json(toEnvelope(new ApiError('not_found', `No route for ${c.req.method} ${c.req.path}.`)), 404),
  );
  pages.onError((error, c) => {
    const e = asApiError(error);
    return c.json(toEnvelope(e), e.status as 500);
  });
  return pages;
}

/** The dashboard's route module (empty when the dashboard is switched off). */
export function dashboardRoutes({ settings }: RouteDeps): Route[] {
  if (!settings.dashboard) return [];
  return [
    {
      meta: META,
      mount(app, deps) {
        const pages = dashboardApp(deps);
        const handOver = (c: AppContext) => pages.fetch(pagesRequest(c, deps.settings), c.env);
        app.get('/dashboard', handOver);
        app.all('/dashboard/*', handOver);
      },
    },
  ];
}
