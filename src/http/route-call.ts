/**
 * A REST call's context objects, with what is costly made on first use: the deadline signal (a
 * cache hit runs nothing upstream and needs none), the client's address (only a failed key or a
 * sign-up reads it) and the public base URL (most routes link nowhere, and it parses the request
 * URL).
 *
 * They are classes, not object literals with getters, on purpose: a literal's getter is a new
 * closure per request, which V8 keeps in a new hidden class; those long-lived classes then keep
 * every request they point at alive through young-generation collections (measured: ~3 MB
 * promoted per scavenge under load, each scavenge 10-14 ms instead of 0.5).
 * @module
 */
import type { Principal } from '../services/accounts.ts';
import type { CallContext } from '../services/context.ts';
import type { Settings } from '../settings.ts';
import type { AppContext } from './context.ts';
import { publicBase } from './public-url.ts';

/** A call context whose signal is made by `makeSignal` when first read. */
export class LazyCall implements CallContext {
  #signal: AbortSignal | undefined;
  readonly hl?: string;
  readonly gl?: string;

  constructor(
    private readonly makeSignal: () => AbortSignal,
    locale: { hl?: string; gl?: string } = {},
  ) {
    if (locale.hl !== undefined) this.hl = locale.hl;
    if (locale.gl !== undefined) this.gl = locale.gl;
  }

  get signal(): AbortSignal {
    this.#signal ??= this.makeSignal();
    return this.#signal;
  }

  /** Whether the signal was made (else nothing upstream ran under it). */
  get signalMade(): boolean {
    return this.#signal !== undefined;
  }

  /**
   * The signal to check once the work is done: this call's when it was made, or when
   * `clientGone()` says the client left (then it is made, already aborted); else none, so a cache
   * hit makes no signal at all.
   */
  settledSignal(clientGone: () => boolean): AbortSignal | undefined {
    return this.#signal !== undefined || clientGone() ? this.signal : undefined;
  }

  /** The same call with locale hints (`hl`, `gl`), sharing this call's signal. */
  localized(locale: { hl?: string; gl?: string }): CallContext {
    return new LazyCall(() => this.signal, locale);
  }
}

/**
 * The client's address of a request, read on first use: only a failed key or a sign-up needs it,
 * and on Bun reading it is a call into the server. A class rather than a memoizing arrow: run
 * through tsx (`npm start`, the benchmarks), every arrow bound to a name is given its name with
 * `Object.defineProperty` when it is made, which cost each request about 3 % of its CPU.
 */
export class ClientAddress {
  #known: string | undefined;

  constructor(
    private readonly read: (c: AppContext) => string,
    private readonly c: AppContext,
  ) {}

  get value(): string {
    this.#known ??= this.read(this.c);
    return this.#known;
  }
}

/** What a route handler gets besides its input (see `RouteContext` in route.ts). */
export class RouteCallContext {
  #baseUrl: string | undefined;

  constructor(
    readonly principal: Principal | undefined,
    readonly call: LazyCall,
    readonly reservationId: string,
    private readonly clientAddress: ClientAddress,
    readonly c: AppContext,
    private readonly settings: Pick<Settings, 'publicUrl' | 'trustProxy'>,
  ) {}

  /** The client's address (see `client.ts`), found on first use. */
  get address(): string {
    return this.clientAddress.value;
  }

  /** The public base URL for links (see `public-url.ts`; may be a bare path when relative). */
  get baseUrl(): string {
    this.#baseUrl ??= publicBase(this.c, this.settings);
    return this.#baseUrl;
  }
}
