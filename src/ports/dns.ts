/**
 * The Resolver port: the MX and address lookups of the sign-up deliverability check, and their
 * outcomes.
 * @module
 */

/** One MX record. A null MX (RFC 7505) is `{ exchange: '', priority: 0 }` or `exchange: '.'`. */
export interface MxRecord {
  exchange: string;
  priority: number;
}

/**
 * The answer to a lookup: records, or why there are none. `nxdomain` and `nodata` are
 * authoritative answers ("this does not exist"); `failure` means the lookup itself failed
 * (timeout, SERVFAIL, no resolver), which callers treat as "unknown".
 */
export type Lookup<T> = { ok: true; records: T[] } | { ok: false; reason: 'nxdomain' | 'nodata' | 'failure' };

/**
 * Answers the DNS questions of the deliverability check.
 * Implementations MUST NOT throw: every failure is reported as `{ ok: false, reason: 'failure' }`,
 * and MUST give up within their own timeout.
 */
export interface Resolver {
  /** The MX records of `domain`. */
  mx(domain: string): Promise<Lookup<MxRecord>>;
  /** The A and AAAA addresses of `domain` (either family suffices). */
  addresses(domain: string): Promise<Lookup<string>>;
}
