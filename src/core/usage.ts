/**
 * Usage per UTC day, the pure part: the day of an instant, the last N days up to today, and the
 * report of `GET /v1/usage` (decisions.md: oldest first, days without use included with zeros).
 * @module
 */

/** One account's (or every account's) use on one UTC day. */
export interface UsageDay {
  /** `YYYY-MM-DD` (UTC). */
  date: string;
  /** Requests that succeeded (HTTP 2xx of keyed routes, succeeded MCP tool calls), free ones included. */
  requests: number;
  /** Credits charged. */
  credits: number;
  /** Requests per priced operation (`transcript`, `search`, …); operations without use are absent. */
  by_operation: Record<string, number>;
}

/** Most days `GET /v1/usage` reports. */
export const MAX_USAGE_DAYS = 90;
/** Days reported when the query names none. */
export const DEFAULT_USAGE_DAYS = 30;
const DAY_MS = 86_400_000;

/** The UTC day (`YYYY-MM-DD`) of epoch ms `at`. */
export function utcDay(at: number): string {
  return new Date(at).toISOString().slice(0, 10);
}

/** A memo of {@link utcDay} for a clock that moves forward: formats a date once per day. */
export function dayMemo(): (at: number) => string {
  let start = Number.NaN;
  let name = '';
  return (at) => {
    if (!(at >= start && at < start + DAY_MS)) {
      start = at - (((at % DAY_MS) + DAY_MS) % DAY_MS);
      name = utcDay(at);
    }
    return name;
  };
}

/** The `count` UTC days that end with the day of `now`, oldest first. */
export function lastDays(now: number, count: number): string[] {
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  const days: string[] = [];
  for (let i = count - 1; i >= 0; i--) days.push(utcDay(today - i * DAY_MS));
  return days;
}

/** An empty day. */
export function emptyDay(date: string): UsageDay {
  return { date, requests: 0, credits: 0, by_operation: {} };
}

/** The days of `dates` in order, each the recorded one or zeros (records outside `dates` are dropped). */
export function fillDays(dates: readonly string[], recorded: readonly UsageDay[]): UsageDay[] {
  const byDate = new Map(recorded.map((d) => [d.date, d]));
  return dates.map((date) => byDate.get(date) ?? emptyDay(date));
}

/** The sum of several days' use (operator totals), per operation too. */
export function sumDays(date: string, days: readonly UsageDay[]): UsageDay {
  const out = emptyDay(date);
  for (const d of days) {
    out.requests += d.requests;
    out.credits += d.credits;
    for (const [op, n] of Object.entries(d.by_operation))
      out.by_operation[op] = (out.by_operation[op] ?? 0) + n;
  }
  return out;
}

/** The operations used on any of `days`, most used first (the chart's legend order). */
export function operationsUsed(days: readonly UsageDay[]): string[] {
  const totals = new Map<string, number>();
  for (const d of days) {
    for (const [op, n] of Object.entries(d.by_operation)) totals.set(op, (totals.get(op) ?? 0) + n);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([op]) => op);
}
