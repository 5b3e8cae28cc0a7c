/**
 * A {@link Resolver} over the DNS-over-HTTPS JSON API (`TUBESCRIBE_DNS=https://…`), for runtimes
 * without a faithful `node:dns` (Deno Deploy, edge functions). Only `fetch` (through ofetch).
 *
 * Request: `GET <url>?name=<domain>&type=MX|A|AAAA` with `Accept: application/dns-json`, the format
 * of Google (`https://dns.google/resolve`) and Cloudflare (`https://cloudflare-dns.com/dns-query`).
 * Answer: `{ Status, Answer?: [{ name, type, TTL, data }] }`; `Status` 0 is NOERROR, 3 NXDOMAIN,
 * anything else (2 SERVFAIL, 5 REFUSED, …) a failure. Records are the `Answer` entries of the asked
 * type (15 MX with `data` like `10 mx.example.com.`, 1 A, 28 AAAA); NOERROR without any is NODATA.
 * A non-2xx answer, a body that is not that JSON, a network error or the timeout is a `failure`.
 * @module
 */
import { ofetch } from 'ofetch';
import type { Lookup, MxRecord, Resolver } from '../ports/dns.ts';
import { settingUrl } from './setting-url.ts';

/** Options of {@link createDohResolver}. */
export interface DohResolverOptions {
  /** Upper bound of one lookup in ms (one HTTP request; A and AAAA run in parallel). Default 3,000. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 3_000;
const TYPES = { MX: 15, A: 1, AAAA: 28 } as const;

/**
 * Combines the A and AAAA lookups of one domain: the records of both when either has some;
 * `failure` when either failed (the other found nothing); `nxdomain` only when both say so;
 * otherwise `nodata`.
 */
export function mergeAddressLookups(a: Lookup<string>, aaaa: Lookup<string>): Lookup<string> {
  const records = [...(a.ok ? a.records : []), ...(aaaa.ok ? aaaa.records : [])];
  if (records.length > 0) return { ok: true, records };
  const reasons = [a, aaaa].map((lookup) => (lookup.ok ? 'nodata' : lookup.reason));
  if (reasons.includes('failure')) return { ok: false, reason: 'failure' };
  if (reasons.every((reason) => reason === 'nxdomain')) return { ok: false, reason: 'nxdomain' };
  return { ok: false, reason: 'nodata' };
}

/**
 * Parses the `data` of an MX answer (`"10 mx.example.com."`) into an {@link MxRecord}: the trailing
 * dot is dropped, so a null MX (`"0 ."`) has the exchange `''`. Undefined when malformed.
 */
export function parseMxData(data: string): MxRecord | undefined {
  const match = /^\s*(\d{1,5})\s+(\S+)\s*$/.exec(data);
  if (!match) return undefined;
  const priority = Number(match[1]);
  if (priority > 65_535) return undefined;
  return { priority, exchange: match[2]!.replace(/\.$/, '').toLowerCase() };
}

interface DohAnswer {
  Status?: unknown;
  Answer?: unknown;
}

/** Maps one DoH JSON answer to the {@link Lookup} of records of `type`. */
export function dohLookup<T>(body: unknown, type: number, parse: (data: string) => T | undefined): Lookup<T> {
  if (typeof body !== 'object' || body === null) return { ok: false, reason: 'failure' };
  const { Status, Answer } = body as DohAnswer;
  if (Status === 3) return { ok: false, reason: 'nxdomain' };
  if (Status !== 0) return { ok: false, reason: 'failure' };
  if (Answer !== undefined && !Array.isArray(Answer)) return { ok: false, reason: 'failure' };
  const records: T[] = [];
  for (const entry of (Answer ?? []) as unknown[]) {
    if (typeof entry !== 'object' || entry === null) continue;
    const { type: entryType, data } = entry as { type?: unknown; data?: unknown };
    if (entryType !== type || typeof data !== 'string') continue;
    const record = parse(data);
    if (record !== undefined) records.push(record);
  }
  return records.length > 0 ? { ok: true, records } : { ok: false, reason: 'nodata' };
}

/**
 * A {@link Resolver} asking the DoH JSON endpoint `url` (see the module docs). Never throws; every
 * lookup ends within `timeoutMs`.
 * @throws Error at creation when `url` is not an http(s) URL.
 */
export function createDohResolver(url: string, options: DohResolverOptions = {}): Resolver {
  const endpoint = settingUrl('TUBESCRIBE_DNS', url, ['https:', 'http:'], 'a DNS-over-HTTPS https:// URL');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  async function query<T>(
    domain: string,
    type: keyof typeof TYPES,
    parse: (data: string) => T | undefined,
  ): Promise<Lookup<T>> {
    try {
      const target = new URL(endpoint);
      target.searchParams.set('name', domain);
      target.searchParams.set('type', type);
      const response = await ofetch.raw<string, 'text'>(target.href, {
        headers: { accept: 'application/dns-json' },
        signal: AbortSignal.timeout(timeoutMs),
        retry: false,
        ignoreResponseError: true,
        responseType: 'text',
      });
      if (response.status < 200 || response.status >= 300) return { ok: false, reason: 'failure' };
      return dohLookup(JSON.parse(response._data ?? ''), TYPES[type], parse);
    } catch {
      return { ok: false, reason: 'failure' };
    }
  }

  const address = (data: string): string | undefined => (data.trim() === '' ? undefined : data.trim());
  return {
    async mx(domain: string): Promise<Lookup<MxRecord>> {
      const lookup = await query(domain, 'MX', parseMxData);
      if (lookup.ok) lookup.records.sort((x, y) => x.priority - y.priority);
      return lookup;
    },
    async addresses(domain: string): Promise<Lookup<string>> {
      const [a, aaaa] = await Promise.all([query(domain, 'A', address), query(domain, 'AAAA', address)]);
      return mergeAddressLookups(a, aaaa);
    },
  };
}
