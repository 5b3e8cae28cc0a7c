/**
 * Search and suggestions. Pages of any `limit` (1–50) are cut from YouTube's pages: the cursor
 * remembers the upstream page and the offset in it, so no result is skipped or repeated.
 *
 * YouTube dropped server-side sorting by upload date and by rating in 2026: `upload_date` orders
 * each returned page by its relative dates ("3 days ago"), `rating` falls back to relevance.
 * @module
 */
import { relativeAgeSeconds, type SearchResultRecord, searchResultRecord } from '../core/records.ts';
import { ApiError } from '../errors.ts';
import type { SearchFilters, SearchItem, SearchPage, Upstream } from '../ports/upstream.ts';
import { type CacheStatus, type CacheTtls, combineStatus, type ResponseCache } from './cache.ts';
import { type CallContext, upstreamOptions } from './context.ts';
import type { Pager } from './paging.ts';

/** Dependencies of {@link Search}. */
export interface SearchDeps {
  upstream: Upstream;
  cache: ResponseCache;
  ttl: CacheTtls;
  pager: Pager;
  deadlineMs: number;
}

/** The search response. */
export interface SearchRecord {
  query: string;
  total_results: number;
  results: SearchResultRecord[];
  has_more: boolean;
  next_cursor: string | null;
}

interface Position {
  /** Continuation of the upstream page to read; '' = the first page. */
  c: string;
  /** Items of that page already returned. */
  o: number;
}

/** Upstream pages read for one response at most (a limit of 50 needs about 3 of YouTube's). */
const MAX_PAGES = 5;

/** The search service. */
export class Search {
  constructor(private readonly deps: SearchDeps) {}

  /** One page of results. */
  async search(
    query: string,
    filters: SearchFilters,
    options: { limit: number; cursor?: string },
    ctx: CallContext,
  ): Promise<{ record: SearchRecord; cache: CacheStatus }> {
    const binding = {
      q: query,
      type: filters.type,
      upload_date: filters.uploadDate,
      duration: filters.duration,
      sort_by: filters.sortBy,
    };
    let position: Position = { c: '', o: 0 };
    if (options.cursor !== undefined)
      position = parsePosition(await this.deps.pager.decode('search', binding, options.cursor));
    const results: SearchItem[] = [];
    let status: CacheStatus = 'HIT';
    let next: Position | undefined;
    for (let pages = 0; pages < MAX_PAGES; pages++) {
      const page = await this.page(query, filters, position.c, ctx);
      status = combineStatus(status, page.status);
      const items = page.value.items.slice(position.o);
      const room = options.limit - results.length;
      results.push(...items.slice(0, room));
      if (items.length > room) {
        next = { c: position.c, o: position.o + room };
        break;
      }
      if (!page.value.continuation) {
        next = undefined;
        break;
      }
      next = { c: page.value.continuation, o: 0 };
      if (results.length >= options.limit) break;
      position = next;
    }
    if (filters.sortBy === 'upload_date') sortByAge(results);
    const cursor = next ? await this.deps.pager.encode('search', binding, JSON.stringify(next)) : null;
    return {
      record: {
        query,
        total_results: results.length,
        results: results.map(searchResultRecord),
        has_more: cursor !== null,
        next_cursor: cursor,
      },
      cache: status,
    };
  }

  /** Autocomplete suggestions, ranked. */
  async suggestions(
    query: string,
    ctx: CallContext,
  ): Promise<{ record: { query: string; suggestions: string[] }; cache: CacheStatus }> {
    const list = await this.deps.cache.get(
      `suggest:${ctx.hl ?? ''}:${ctx.gl ?? ''}:${query}`,
      this.deps.ttl.suggestions,
      () =>
        this.deps.upstream.suggestions(
          query,
          upstreamOptions(ctx, AbortSignal.timeout(this.deps.deadlineMs)),
        ),
      ctx.signal,
    );
    return { record: { query, suggestions: list.value }, cache: list.status };
  }

  private page(query: string, filters: SearchFilters, continuation: string, ctx: CallContext) {
    const key = `search:${JSON.stringify([query, filters.type, filters.uploadDate, filters.duration, filters.sortBy, ctx.hl, ctx.gl])}:${continuation}`;
    return this.deps.cache.get<SearchPage>(
      key,
      this.deps.ttl.search,
      () =>
        this.deps.upstream.search(
          query,
          filters,
          continuation === '' ? {} : { continuation },
          upstreamOptions(ctx, AbortSignal.timeout(this.deps.deadlineMs)),
        ),
      ctx.signal,
    );
  }
}

function parsePosition(token: string): Position {
  try {
    const value = JSON.parse(token) as Position;
    if (typeof value.c === 'string' && Number.isInteger(value.o) && value.o >= 0) return value;
  } catch {
    // fall through
  }
  throw new ApiError('invalid_cursor', 'The cursor is not valid for this request.');
}

/** Newest first by relative age; items without a date keep their place at the end, in order. */
function sortByAge(items: SearchItem[]): void {
  const age = (item: SearchItem) => relativeAgeSeconds(item.publishedText) ?? Number.POSITIVE_INFINITY;
  const indexed = items.map((item, i) => ({ item, i, age: age(item) }));
  indexed.sort((a, b) => a.age - b.age || a.i - b.i);
  for (let i = 0; i < items.length; i++) items[i] = indexed[i]!.item;
}
