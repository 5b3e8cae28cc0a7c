/**
 * What the HTTP layer is built from: the services and settings every route module receives, the
 * few ports the app's own middleware uses, and the typed per-request variables.
 * @module
 */
import type { Context } from 'hono';
import type {
  ClientAddressOf,
  ClientGoneOf,
  MountPathOf,
  RequestHeaderOf,
  ServerOriginOf,
} from '../options.ts';
import type { Clock } from '../ports/clock.ts';
import type { Logger } from '../ports/logger.ts';
import type { Random } from '../ports/random.ts';
import type { Services } from '../services/index.ts';
import type { Settings } from '../settings.ts';

/** The Hono environment of the app: its per-request variables. */
export interface AppEnv {
  Variables: {
    /** The request's id (`X-Request-Id`, logs): the client's when sane, else generated. */
    requestId: string;
    /** The id of this call's ledger reservations: always generated, never the client's. */
    reservationId: string;
    /** The runtime adapter's readers of the request (`edge.ts`). */
    edge: Edge;
    /**
     * Whether routes may answer with a plain header record (`route.ts`): true when tubescribe's own
     * middleware ran first, so no host middleware prepared headers on the context.
     */
    plainAnswer: boolean;
    /** The answer already carries `X-Request-Id` (a route answered with its plain headers). */
    idSent: boolean;
    /**
     * Headers a middleware wants on the answer (CORS): a route's plain answer takes them into its
     * own header record and clears this (`route.ts`), so nothing has to make the answer's `Headers`;
     * while it is still set after the route, tubescribe's first middleware adds them (`app.ts`).
     */
    answerHeaders: Readonly<Record<string, string>> | undefined;
    /** What the request log says a keyed call charged, and how the cache answered it. */
    charged: number | undefined;
    cacheStatus: string | undefined;
    /** The caller's account, once a key was checked (the request log; never the key). */
    accountId: string | undefined;
  };
}

/** The context of a request in this app. */
export type AppContext = Context<AppEnv>;

/** The adapter's readers of a request, each with the Web-object fallback filled in. */
export interface Edge {
  header(c: AppContext, name: string): string | undefined;
  /** Whether the client went away (its connection closed before the answer). */
  clientGone(c: AppContext): boolean;
  mountPath(c: AppContext): string | undefined;
  serverOrigin(c: AppContext): string | undefined;
}

/** The adapter hooks an {@link Edge} is made of (each optional; `edge.ts` builds the Edge). */
export interface EdgeHooks {
  requestHeader?: RequestHeaderOf;
  clientGone?: ClientGoneOf;
  mountPath?: MountPathOf;
  serverOrigin?: ServerOriginOf;
}

/** What every route module receives. */
export interface RouteDeps {
  services: Services;
  settings: Settings;
}

/** What a route is mounted with: the route modules' deps, and the client address of a request. */
export interface MountDeps extends RouteDeps {
  address(c: AppContext): string;
}

/** What the app is built from. */
export interface HttpDeps extends RouteDeps, EdgeHooks {
  clock: Clock;
  random: Random;
  logger: Logger;
  /** Start-up (secret election); awaited by the first request. */
  start(): Promise<void>;
  /** The runtime adapter's client address of a request. */
  clientAddress?: ClientAddressOf;
}
