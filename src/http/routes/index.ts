/**
 * The route modules of the app, and which route sets serve each (decisions.md: the data API and
 * agent sign-up may run on different hosts). Adding a route module is one line here; adding a
 * route to a module needs nothing here.
 * @module
 */
import type { RouteSet } from '../../options.ts';
import type { RouteDeps } from '../context.ts';
import { dashboardRoutes } from '../dashboard/index.ts';
import { mcpMetadataRoutes } from '../mcp/metadata.ts';
import type { Route } from '../route.ts';
import { accountRoutes } from './account.ts';
import { batchRoutes } from './batch.ts';
import { channelRoutes } from './channels.ts';
import { commentRoutes } from './comments.ts';
import { metricsRoutes } from './metrics.ts';
import { playlistRoutes } from './playlists.ts';
import { searchRoutes } from './search.ts';
import { signupRoutes } from './signup.ts';
import { transcriptRoutes } from './transcripts.ts';
import { usageRoutes } from './usage.ts';
import { videoRoutes } from './videos.ts';

/** A route module: a factory over the services and settings, and the sets that serve it. */
export interface RouteModule {
  routes: (deps: RouteDeps) => Route[];
  sets: readonly RouteSet[];
}

const API: readonly RouteSet[] = ['all', 'api'];
const SIGNUP: readonly RouteSet[] = ['all', 'signup'];

/** Every route module but the system routes (health, document, docs), which every set serves. */
export const ROUTE_MODULES: readonly RouteModule[] = [
  { routes: transcriptRoutes, sets: API },
  { routes: videoRoutes, sets: API },
  { routes: commentRoutes, sets: API },
  { routes: playlistRoutes, sets: API },
  { routes: channelRoutes, sets: API },
  { routes: searchRoutes, sets: API },
  { routes: batchRoutes, sets: API },
  { routes: accountRoutes, sets: API },
  { routes: usageRoutes, sets: API },
  { routes: mcpMetadataRoutes, sets: API },
  { routes: signupRoutes, sets: SIGNUP },
  { routes: dashboardRoutes, sets: ['all'] },
  { routes: metricsRoutes, sets: ['all', 'api', 'signup'] },
];
