import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ParseError } from './json.ts';
import { parseSearch } from './parse-search.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8'));
const hq = (id: string) => `https://i.ytimg.com/vi/${id}/hqdefault.jpg?sqp=b`;
const CAT = { channelTitle: 'Science Cat', channelId: 'UCaaaaaaaaaaaaaaaaaaaaaa' };

describe('parseSearch', () => {
  it('reads every result kind in order and drops ads, mixes, suggestion shelves and radio', () => {
    const page = parseSearch(fixture('search-first.json'));
    expect(page.items).toEqual([
      {
        id: 'vid00000001',
        type: 'video',
        title: 'How gravity works',
        ...CAT,
        durationSeconds: 754,
        viewCount: 1_234_567,
        publishedText: '2 weeks ago',
        thumbnailUrl: hq('vid00000001'),
      },
      {
        id: 'vid00000002',
        type: 'video',
        title: 'Live: ask a cat anything',
        ...CAT,
        viewCount: 312,
        thumbnailUrl: hq('vid00000002'),
      },
      {
        id: 'UCaaaaaaaaaaaaaaaaaaaaaa',
        type: 'channel',
        title: 'Science Cat',
        ...CAT,
        thumbnailUrl: 'https://yt3.ggpht.com/cat=s176-c-k',
      },
      {
        id: 'sht00000001',
        type: 'shorts',
        title: 'Cat vs cucumber',
        viewCount: 2_400_000,
        thumbnailUrl: 'https://i.ytimg.com/vi/sht00000001/oardefault.jpg',
      },
      {
        id: 'sht00000002',
        type: 'shorts',
        title: 'Physics in 30 seconds',
        viewCount: 895_000,
        thumbnailUrl: 'https://i.ytimg.com/vi/sht00000002/oardefault.jpg',
      },
      {
        id: 'PLcat000000000000000000000000000001',
        type: 'playlist',
        title: 'Gravity series',
        ...CAT,
        thumbnailUrl: 'https://i.ytimg.com/vi/vid00000001/hqdefault.jpg',
      },
      {
        id: 'sht00000003',
        type: 'shorts',
        title: 'Old-style short',
        viewCount: 12_000,
        thumbnailUrl: 'https://i.ytimg.com/vi/sht00000003/frame0.jpg',
      },
      {
        id: 'mov00000001',
        type: 'movie',
        title: 'The Cat Movie',
        channelTitle: 'Cat Films',
        channelId: 'UCffffffffffffffffffffff',
        durationSeconds: 5530,
        thumbnailUrl: hq('mov00000001'),
      },
    ]);
    expect(page.continuation).toBe('tokSearchPage2');
    expect(page.estimatedResults).toBe(123_456);
    expect(page.correction).toEqual({ kind: 'showing_results_for', query: 'science cat' });
  });

  it('skips crisis resources, reads "did you mean" and shorts inside videoRenderer', () => {
    const page = parseSearch(fixture('search-crisis.json'));
    expect(page.items.map((i) => [i.id, i.type, i.durationSeconds])).toEqual([
      ['vid00000010', 'video', 245],
      ['sht00000004', 'shorts', 45],
    ]);
    expect(page.correction).toEqual({ kind: 'did_you_mean', query: 'help line' });
    expect(page.continuation).toBeUndefined();
  });

  it('reads continuation pages and the empty last page', () => {
    const next = parseSearch(fixture('search-continuation.json'));
    expect(next.items.map((i) => i.id)).toEqual(['vid00000011']);
    expect(next.items[0]?.viewCount).toBe(1200);
    expect(next.continuation).toBe('tokSearchPage3');
    expect(next.estimatedResults).toBe(123_460);
    expect(parseSearch(fixture('search-end.json'))).toEqual({ items: [], estimatedResults: 14 });
  });

  it('rejects answers that are not search results, and renamed renderers', () => {
    expect(() => parseSearch({ contents: { twoColumnBrowseResultsRenderer: {} } })).toThrow(ParseError);
    const renamed = {
      contents: {
        twoColumnSearchResultsRenderer: {
          primaryContents: {
            sectionListRenderer: {
              contents: [{ itemSectionRenderer: { contents: [{ videoViewModelX: {} }] } }],
            },
          },
        },
      },
    };
    expect(() => parseSearch(renamed)).toThrow(/videoViewModelX/);
  });

  it('answers an empty page when every item is dropped on purpose', () => {
    const onlyMix = {
      onResponseReceivedCommands: [
        { appendContinuationItemsAction: { continuationItems: [{ radioRenderer: { playlistId: 'RDx' } }] } },
      ],
    };
    expect(parseSearch(onlyMix)).toEqual({ items: [] });
  });
});
