/**
 * The search `params` (`sp`) value for our search filters, with the values YouTube uses since its
 * January–February 2026 filter change (youtube-protocol.md §6).
 *
 * `sp` is a protobuf `SearchFilter{1: sort, 2: Filters{1: upload date, 2: type, 3: duration}, 30: 1}`
 * in URL-safe base64. Field 30 = 1 is sent by YouTube's own web client on every search, so it is
 * always present; no filter at all therefore encodes as `8AEB`.
 * @module
 */
import type { SearchFilters } from '../../ports/upstream.ts';
import { encodeBase64UrlSafe, encodeMessage, type ProtoField } from './protobuf.ts';

/** `SearchFilter.sort`: only relevance (0, the default, never written) and view count remain. */
const SORT: Readonly<Record<NonNullable<SearchFilters['sortBy']>, number>> = {
  relevance: 0,
  rating: 0,
  upload_date: 0,
  view_count: 3,
};

/** `Filters.upload_date` (field 1); YouTube removed "last hour" (1) in 2026. */
const UPLOAD_DATE: Readonly<Record<NonNullable<SearchFilters['uploadDate']>, number>> = {
  hour: 2,
  today: 2,
  week: 3,
  month: 4,
  year: 5,
};

/** `Filters.type` (field 2). */
const TYPE: Readonly<Record<NonNullable<SearchFilters['type']>, number>> = {
  video: 1,
  channel: 2,
  playlist: 3,
  movie: 4,
  shorts: 9,
};

/** `Filters.duration` (field 3), 2026 values. */
const DURATION: Readonly<Record<NonNullable<SearchFilters['duration']>, number>> = {
  short: 4,
  medium: 5,
  long: 2,
};

/**
 * The `params` value to send in the InnerTube `search` body (or as `sp` in a results URL), in
 * the exact form YouTube's web client uses: URL-safe base64 with its `=` padding percent-encoded
 * (`EgIQAfABAQ%3D%3D`). Always defined: with no filter it is `8AEB` (field 30 alone).
 *
 * `sortBy: 'upload_date'` and `'rating'` encode as relevance: YouTube no longer sorts by them;
 * the service orders a page by date itself (see {@link SEARCH_FILTER_MAPPING}).
 */
export function searchParams(filters: SearchFilters): string {
  const inner: ProtoField[] = [];
  if (filters.uploadDate) inner.push([1, UPLOAD_DATE[filters.uploadDate]]);
  if (filters.type) inner.push([2, TYPE[filters.type]]);
  if (filters.duration) inner.push([3, DURATION[filters.duration]]);
  const fields: ProtoField[] = [];
  const sort = filters.sortBy ? SORT[filters.sortBy] : 0;
  if (sort !== 0) fields.push([1, sort]);
  if (inner.length > 0) fields.push([2, inner]);
  fields.push([30, 1]);
  return encodeBase64UrlSafe(encodeMessage(fields)).replace(/=/g, '%3D');
}

/** How one API filter value reaches YouTube, for the documentation. */
export interface FilterMapping {
  /** What YouTube applies, in its own words. */
  upstream: string;
  /** False when YouTube ignores it and tubescribe emulates or drops it. */
  serverSide: boolean;
  note?: string;
}

/** What every search filter value maps to upstream (2026 filter set), for the API docs. */
export const SEARCH_FILTER_MAPPING: {
  readonly type: Readonly<Record<NonNullable<SearchFilters['type']>, FilterMapping>>;
  readonly uploadDate: Readonly<Record<NonNullable<SearchFilters['uploadDate']>, FilterMapping>>;
  readonly duration: Readonly<Record<NonNullable<SearchFilters['duration']>, FilterMapping>>;
  readonly sortBy: Readonly<Record<NonNullable<SearchFilters['sortBy']>, FilterMapping>>;
} = {
  type: {
    video: { upstream: 'Type: Videos', serverSide: true },
    channel: { upstream: 'Type: Channels', serverSide: true },
    playlist: { upstream: 'Type: Playlists', serverSide: true },
    movie: { upstream: 'Type: Movies', serverSide: true },
    shorts: { upstream: 'Type: Shorts', serverSide: true },
  },
  uploadDate: {
    hour: {
      upstream: 'Upload date: Today',
      serverSide: true,
      note: 'YouTube removed "Last hour" in 2026; the nearest remaining filter, Today, is used.',
    },
    today: { upstream: 'Upload date: Today', serverSide: true },
    week: { upstream: 'Upload date: This week', serverSide: true },
    month: { upstream: 'Upload date: This month', serverSide: true },
    year: { upstream: 'Upload date: This year', serverSide: true },
  },
  duration: {
    short: {
      upstream: 'Duration: Under 3 minutes',
      serverSide: true,
      note: 'Was "under 4 minutes" before 2026.',
    },
    medium: { upstream: 'Duration: 3–20 minutes', serverSide: true, note: 'Was "4–20 minutes" before 2026.' },
    long: { upstream: 'Duration: Over 20 minutes', serverSide: true },
  },
  sortBy: {
    relevance: { upstream: 'Sort: Relevance', serverSide: true },
    view_count: { upstream: 'Sort: Popularity (view count)', serverSide: true },
    upload_date: {
      upstream: 'Sort: Relevance',
      serverSide: false,
      note: 'YouTube dropped sorting by upload date in 2026: the fetched page is ordered by date by tubescribe (best effort).',
    },
    rating: {
      upstream: 'Sort: Relevance',
      serverSide: false,
      note: 'YouTube dropped sorting by rating in 2026: results come in relevance order.',
    },
  },
};
