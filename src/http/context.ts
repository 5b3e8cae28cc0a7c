/**
 * What the HTTP layer is built from: the services and settings every route module receives, the
 * few ports the app's own middleware uses, and the typed per-request variables.
 * @module
 */
import type { Context } from 'hono';
import type { ClientAddressOf, MountPathOf, ServerOriginOf } from '../options.ts';
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
    /** The path the host app mounted tubescribe under, as the runtime adapter reports it. */
    mountPath: string | undefined;
    /** The origin the request's connection reached, as the runtime adapter reports it. */
    serverOrigin: string | undefined;
    /** The caller's account, once a key was checked (the request log; never the key). */
    accountId: string | undefined;
  };
}

/** The context of a request in this app. */
export type AppContext = Context<AppEnv>;

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
export interface HttpDeps extends RouteDeps {
  clock: Clock;
  random: Random;
  logger: Logger;
  /** Start-up (secret election); awaited by the first request. */
  start(): Promise<void>;
  /** The runtime adapter's client address of a request. */
  clientAddress?: ClientAddressOf;
  /** The runtime adapter's mount path of a request (Express/Connect strip it from the URL). */
  mountPath?: MountPathOf;
  /** The runtime adapter's origin of the connection a request reached (links without a public URL). */
  serverOrigin?: ServerOriginOf;
}
