/**
 * Usage reports: `GET /v1/usage`, the dashboard's 30-day chart and the operator's daily totals.
 *
 * The service reads recorded days through the narrow {@link UsageReader} and fills the calendar
 * (core/usage.ts). Recording belongs with the charge, in the Ledger (atomic on every backend); a
 * Ledger that records usage exposes `usage()` and `usageTotals()`, and {@link ledgerUsageReader}
 * reads it. A Ledger without them has recorded nothing, so every day reads as zero.
 * @module
 */
import { DEFAULT_USAGE_DAYS, fillDays, lastDays, MAX_USAGE_DAYS, type UsageDay } from '../core/usage.ts';
import { ApiError } from '../errors.ts';
import type { Clock } from '../ports/clock.ts';

/** Where recorded use is read from. Days without use may be absent from the answers. */
export interface UsageReader {
  /** One account's recorded days among `dates`. */
  days(accountId: string, dates: readonly string[]): Promise<UsageDay[]>;
  /** Every account's use summed per day among `dates`. */
  totals(dates: readonly string[]): Promise<UsageDay[]>;
  /** When each of `keyIds` was last used (epoch ms, to the minute); unknown keys are absent. */
  lastUsed(keyIds: readonly string[]): Promise<Record<string, number>>;
}

/** The Ledger methods that read metering (the Ledger's optional usage capability). */
export interface UsageSource {
  usage?(accountId: string, dates: readonly string[]): Promise<UsageDay[]>;
  usageTotals?(dates: readonly string[]): Promise<UsageDay[]>;
  keysLastUsed?(keyIds: readonly string[]): Promise<Record<string, number>>;
}

/** A reader over a Ledger's usage capability; a Ledger without it has recorded no use. */
export function ledgerUsageReader(ledger: object): UsageReader {
  const source = ledger as UsageSource;
  return {
    days: (accountId, dates) => source.usage?.(accountId, dates) ?? Promise.resolve([]),
    totals: (dates) => source.usageTotals?.(dates) ?? Promise.resolve([]),
    lastUsed: (keyIds) => source.keysLastUsed?.(keyIds) ?? Promise.resolve({}),
  };
}

/** `GET /v1/usage`'s body. */
export interface UsageReport {
  account_id: string;
  days: UsageDay[];
}

/** Parses `days` of a query: 1–90, default 30; anything else is `invalid_request`. */
export function parseUsageDays(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_USAGE_DAYS;
  const n = /^\d{1,3}$/.test(value) ? Number(value) : Number.NaN;
  if (!(n >= 1 && n <= MAX_USAGE_DAYS)) {
    throw new ApiError('invalid_request', `days must be an integer from 1 to ${MAX_USAGE_DAYS}.`, {
      details: { field: 'days' },
    });
  }
  return n;
}

/** Usage reports over a reader. */
export class Usage {
  constructor(
    private readonly reader: UsageReader,
    private readonly clock: Clock,
  ) {}

  /** One account's last `days` UTC days (today included), oldest first, zeros where unused. */
  async report(accountId: string, days: number = DEFAULT_USAGE_DAYS): Promise<UsageReport> {
    const dates = lastDays(this.clock.now(), days);
    return { account_id: accountId, days: fillDays(dates, await this.reader.days(accountId, dates)) };
  }

  /** When each key was last used, as ISO 8601 (keys never used, or not recorded, are absent). */
  async lastUsed(keyIds: readonly string[]): Promise<Record<string, string>> {
    const out: Record<string, string> = {};
    if (keyIds.length === 0) return out;
    for (const [id, at] of Object.entries(await this.reader.lastUsed(keyIds)))
      out[id] = new Date(at).toISOString();
    return out;
  }

  /** Every account's use per day over the last `days` days. */
  async totals(days: number = DEFAULT_USAGE_DAYS): Promise<UsageDay[]> {
    const dates = lastDays(this.clock.now(), days);
    return fillDays(dates, await this.reader.totals(dates));
  }
}
