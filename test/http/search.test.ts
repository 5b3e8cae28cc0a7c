/**
 * GET /v1/search (filters, limit 1–50, cursors that neither skip nor repeat) and
 * GET /v1/search/suggestions (free).
 */
import { describe, expect, test } from 'vitest';
import { ApiError } from '../../src/errors.ts';
import { CHANNEL, PLAYLIST, VIDEO } from '../fakes/upstream.ts';
import { expectError, expectJson, expectKeyedHeaders, fixture, tamper } from '../helpers/http.ts';

interface SearchBody {
  query: string;
  total_results: number;
  results: Record<string, unknown>[];
  has_more: boolean;
  next_cursor: string | null;
}

describe('GET /v1/search', () => {
  test('one page: query, total_results, results field by field, next_cursor; 1 credit', async () => {
    const f = await fixture();
    const res = await f.get('/v1/search?q=rick&limit=2');
    const body = await expectJson<SearchBody>(res);
    expect(body).toEqual({
      query: 'rick',
      total_results: 2,
      results: [
        {
          id: VIDEO,
          type: 'video',
          title: 'Never Gonna Give You Up',
          channel_title: 'Rick Astley',
          channel_id: CHANNEL,
          duration_seconds: 213,
          view_count: 1_000_000,
          upload_date: '15 years ago',
          thumbnail_url: 'https://i.ytimg.com/vi/dQw4w9WgXcQ/hq.jpg',
          url: `https://www.youtube.com/watch?v=${VIDEO}`,
        },
        {
          id: 'yPYZpwSpKmA',
          type: 'video',
          title: 'Together Forever',
          channel_title: 'Rick Astley',
          channel_id: CHANNEL,
          duration_seconds: 205,
          view_count: 5000,
          upload_date: '2 days ago',
          thumbnail_url: null,
          url: 'https://www.youtube.com/watch?v=yPYZpwSpKmA',
        },
      ],
      has_more: true,
      next_cursor: expect.any(String),
    });
    expectKeyedHeaders(res, 1);
    expect(await f.balance(f.accountId)).toBe(999);
  });

  test('default limit 20: everything, no cursor', async () => {
    const f = await fixture();
    const body = await expectJson<SearchBody>(await f.get('/v1/search?q=rick'));
    expect(body.results.map((r) => r.id)).toEqual([VIDEO, 'yPYZpwSpKmA', CHANNEL, PLAYLIST, 'AC3Ejf7vPEY']);
    expect([body.total_results, body.has_more, body.next_cursor]).toEqual([5, false, null]);
  });

  test.each([1, 2, 3, 4])(
    'paging with limit %i across upstream pages of 3 neither skips nor repeats',
    async (limit) => {
      const f = await fixture();
      f.upstream.searchPageSize = 3;
      const seen: unknown[] = [];
      let path = `/v1/search?q=rick&limit=${limit}`;
      let pages = 0;
      for (;;) {
        const body = await expectJson<SearchBody>(await f.get(path));
        pages++;
        expect(body.total_results).toBe(body.results.length);
        expect(body.results.length).toBeLessThanOrEqual(limit);
        seen.push(...body.results.map((r) => r.id));
        if (!body.next_cursor) break;
        path = `/v1/search?q=rick&limit=${limit}&cursor=${body.next_cursor}`;
      }
      expect(seen).toEqual([VIDEO, 'yPYZpwSpKmA', CHANNEL, PLAYLIST, 'AC3Ejf7vPEY']);
      expect(await f.balance(f.accountId)).toBe(1000 - pages);
    },
  );

  test('every filter value and alias is accepted; the locale reaches the upstream', async () => {
    const f = await fixture();
    const values: Record<string, string[]> = {
      type: ['video', 'channel', 'playlist', 'movie', 'shorts'],
      upload_date: ['hour', 'today', 'week', 'month', 'year'],
      duration: ['short', 'medium', 'long'],
      sort_by: ['relevance', 'rating', 'upload_date', 'view_count', 'date'],
    };
    for (const [name, list] of Object.entries(values))
      for (const value of list)
        expect((await f.get(`/v1/search?q=rick&${name}=${value}`)).status, `${name}=${value}`).toBe(200);
    await f.get('/v1/search?q=rock&country=jp&hl=ja');
    expect(f.upstream.lastOptions.search).toMatchObject({ gl: 'JP', hl: 'ja' });
  });

  test('sort_by=upload_date (alias date) orders the page newest first, undated last', async () => {
    const f = await fixture();
    for (const sort of ['upload_date', 'date']) {
      const body = await expectJson<SearchBody>(await f.get(`/v1/search?q=rick&sort_by=${sort}`));
      expect(body.results.map((r) => r.id)).toEqual(['yPYZpwSpKmA', 'AC3Ejf7vPEY', VIDEO, CHANNEL, PLAYLIST]);
    }
  });

  test.each([
    ['', 'q'],
    ['?q=', 'q'],
    ['?q=%20%20', 'q'],
    [`?q=${'x'.repeat(501)}`, 'q'],
    ['?q=a&limit=0', 'limit'],
    ['?q=a&limit=51', 'limit'],
    ['?q=a&limit=ten', 'limit'],
    ['?q=a&limit=2.5', 'limit'],
    ['?q=a&type=podcast', 'type'],
    ['?q=a&upload_date=decade', 'upload_date'],
    ['?q=a&duration=epic', 'duration'],
    ['?q=a&sort_by=likes', 'sort_by'],
    ['?q=a&gl=xyz', 'gl'],
  ])('400 invalid_parameter for %s names %s', async (query, parameter) => {
    const f = await fixture();
    const e = await expectError(await f.get(`/v1/search${query}`), 400, 'invalid_parameter');
    expect(e.message).toContain(`'${parameter}'`);
    expect(e.details).toEqual({ parameter, location: 'query' });
    expect(f.upstream.calls).toEqual({});
  });

  test('a blank query is named in a readable message', async () => {
    const f = await fixture();
    const e = await expectError(await f.get('/v1/search?q=%20%20'), 400, 'invalid_parameter');
    expect(e.message).toBe("Invalid parameter 'q': expected a search query, got an empty value.");
  });

  test('a cursor is bound to the query and filters (not to limit)', async () => {
    const f = await fixture();
    f.upstream.searchPageSize = 3;
    const { next_cursor } = await expectJson<SearchBody>(await f.get('/v1/search?q=rick&limit=2&type=video'));
    const before = await f.balance(f.accountId);
    for (const query of [
      `q=astley&type=video&cursor=${next_cursor}`,
      `q=rick&type=channel&cursor=${next_cursor}`,
      `q=rick&type=video&sort_by=view_count&cursor=${next_cursor}`,
      `q=rick&type=video&duration=long&cursor=${next_cursor}`,
      `q=rick&type=video&cursor=${tamper(next_cursor!)}`,
    ])
      await expectError(await f.get(`/v1/search?${query}`), 400, 'invalid_cursor');
    expect(await f.balance(f.accountId)).toBe(before);
    const ok = await expectJson<SearchBody>(
      await f.get(`/v1/search?q=rick&type=video&limit=3&continuation=${next_cursor}`),
    );
    expect(ok.results.map((r) => r.id)).toEqual([CHANNEL, PLAYLIST, 'AC3Ejf7vPEY']);
  });

  test('upstream errors pass through (no 404 here), free', async () => {
    const f = await fixture();
    f.upstream.failures.search = new ApiError('upstream_error', 'cannot parse');
    await expectError(await f.get('/v1/search?q=rick'), 502, 'upstream_error');
    f.upstream.failures.search = new ApiError('upstream_blocked', 'blocked', { retryAfter: 5 });
    const res = await f.get('/v1/search?q=rick');
    expect(res.headers.get('retry-after')).toBe('5');
    await expectError(res, 503, 'upstream_blocked');
    expect(await f.balance(f.accountId)).toBe(1000);
  });
});

describe('GET /v1/search/suggestions', () => {
  test('query and ranked suggestions; free, also with an empty balance', async () => {
    const f = await fixture({}, 0);
    const res = await f.get('/v1/search/suggestions?q=never%20gonna&hl=en&gl=gb');
    expect(await expectJson(res)).toEqual({
      query: 'never gonna',
      suggestions: ['never gonna', 'never gonna world'],
    });
    expectKeyedHeaders(res, 0);
    expect(res.headers.get('x-cache')).toBe('MISS');
    expect(f.upstream.lastOptions.suggestions).toMatchObject({ hl: 'en', gl: 'GB' });
    expect((await f.get('/v1/search/suggestions?q=never%20gonna&hl=en&gl=gb')).headers.get('x-cache')).toBe(
      'HIT',
    );
  });

  test.each([
    ['', 'q'],
    ['?q=', 'q'],
    [`?q=${'y'.repeat(201)}`, 'q'],
    ['?q=a&hl=1', 'hl'],
  ])('400 invalid_parameter for %s', async (query, parameter) => {
    const f = await fixture();
    const e = await expectError(await f.get(`/v1/search/suggestions${query}`), 400, 'invalid_parameter');
    expect(e.details).toEqual({ parameter, location: 'query' });
  });

  test('upstream errors pass through', async () => {
    const f = await fixture();
    f.upstream.failures.suggestions = new ApiError('upstream_error', 'bad answer');
    await expectError(await f.get('/v1/search/suggestions?q=a'), 502, 'upstream_error');
  });
});
