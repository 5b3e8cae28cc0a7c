import { describe, expect, it } from 'vitest';
import type { SearchFilters } from '../../ports/upstream.ts';
import { decodeBase64, decodeMessage, protoField, protoMessage } from './protobuf.ts';
import { SEARCH_FILTER_MAPPING, searchParams } from './search-params.ts';

/** The bytes behind a params string in any of its spellings. */
const bytesOf = (params: string): number[] => [...(decodeBase64(decodeURIComponent(params)) ?? [])];

describe('searchParams', () => {
  // Expected strings: the precomputed 2026 values of youtube-protocol.md §6.
  it.each<[string, SearchFilters, string]>([
    ['no filter', {}, '8AEB'],
    ['type video', { type: 'video' }, 'EgIQAfABAQ=='],
    ['type channel', { type: 'channel' }, 'EgIQAvABAQ=='],
    ['type playlist', { type: 'playlist' }, 'EgIQA/ABAQ=='],
    ['type movie', { type: 'movie' }, 'EgIQBPABAQ=='],
    ['type shorts', { type: 'shorts' }, 'EgIQCfABAQ=='],
    ['upload today', { uploadDate: 'today' }, 'EgIIAvABAQ=='],
    ['upload week', { uploadDate: 'week' }, 'EgIIA_ABAQ=='],
    ['upload month', { uploadDate: 'month' }, 'EgIIBPABAQ=='],
    ['upload year', { uploadDate: 'year' }, 'EgIIBfABAQ=='],
    ['duration short (<3 min)', { duration: 'short' }, 'EgIYBPABAQ=='],
    ['duration medium (3–20 min)', { duration: 'medium' }, 'EgIYBfABAQ=='],
    ['duration long (>20 min)', { duration: 'long' }, 'EgIYAvABAQ=='],
    ['sort by view count', { sortBy: 'view_count' }, 'CAPwAQE='],
    [
      'video + week + view count',
      { type: 'video', uploadDate: 'week', sortBy: 'view_count' },
      'CAMSBAgDEAHwAQE=',
    ],
  ])('%s', (_name, filters, documented) => {
    const params = searchParams(filters);
    expect(bytesOf(params)).toEqual(bytesOf(documented));
  });

  it('uses the exact spelling of YouTube web: url-safe, padding percent-encoded', () => {
    expect(searchParams({ type: 'video' })).toBe('EgIQAfABAQ%3D%3D');
    expect(searchParams({ type: 'playlist' })).toBe('EgIQA_ABAQ%3D%3D');
    expect(searchParams({ sortBy: 'view_count' })).toBe('CAPwAQE%3D');
    expect(searchParams({})).toBe('8AEB');
  });

  it('maps removed values to the nearest remaining ones', () => {
    expect(searchParams({ uploadDate: 'hour' })).toBe(searchParams({ uploadDate: 'today' }));
    for (const sortBy of ['relevance', 'rating', 'upload_date'] as const) {
      expect(searchParams({ sortBy })).toBe('8AEB');
    }
  });

  it('always carries field 30 = 1 and orders filter fields 1, 2, 3', () => {
    const entries = decodeMessage(
      Uint8Array.from(bytesOf(searchParams({ duration: 'long', type: 'shorts', uploadDate: 'year' }))),
    );
    expect(protoField(entries, 30)?.value).toBe(1);
    expect(protoMessage(entries, 2)?.map((e) => [e.field, e.value])).toEqual([
      [1, 5],
      [2, 9],
      [3, 2],
    ]);
  });
});

describe('SEARCH_FILTER_MAPPING', () => {
  it('describes every filter value', () => {
    expect(Object.keys(SEARCH_FILTER_MAPPING.type)).toEqual([
      'video',
      'channel',
      'playlist',
      'movie',
      'shorts',
    ]);
    expect(Object.keys(SEARCH_FILTER_MAPPING.uploadDate)).toEqual(['hour', 'today', 'week', 'month', 'year']);
    expect(Object.keys(SEARCH_FILTER_MAPPING.duration)).toEqual(['short', 'medium', 'long']);
    expect(Object.keys(SEARCH_FILTER_MAPPING.sortBy)).toEqual([
      'relevance',
      'view_count',
      'upload_date',
      'rating',
    ]);
  });

  it('marks the sorts YouTube dropped as client-side', () => {
    expect(SEARCH_FILTER_MAPPING.sortBy.upload_date.serverSide).toBe(false);
    expect(SEARCH_FILTER_MAPPING.sortBy.rating.serverSide).toBe(false);
    expect(SEARCH_FILTER_MAPPING.sortBy.view_count.serverSide).toBe(true);
    expect(SEARCH_FILTER_MAPPING.uploadDate.hour.note).toMatch(/Today/);
    expect(SEARCH_FILTER_MAPPING.duration.short.upstream).toMatch(/Under 3 minutes/);
  });
});
