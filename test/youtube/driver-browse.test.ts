/**
 * The whole YouTube driver (`createYouTubeUpstream`) on the browse side, over the recorded
 * NewPipe (2026) exchanges: every request the driver makes must be one NewPipe recorded
 * (`replay.misses` stays empty), and the answers come out field by field. Pages are chained the
 * way a client chains them: page 1's continuation is handed back for page 2.
 *
 * Two exchanges were never recorded and are served by handlers, said where they are used:
 * the sort-chip follow-up (NewPipe never sorted) and the kurzgesagt feed, recorded as
 * `?user=Kurzgesagt` while the driver asks by `?channel_id=`.
 */
import { beforeAll, beforeEach, expect, it } from 'vitest';
import { createYouTubeUpstream, type YouTubeUpstream } from '../../src/drivers/youtube/index.ts';
import { sortChipTokens } from '../../src/drivers/youtube/parse-channel-tab.ts';
import { ApiError } from '../../src/errors.ts';
import type { FetchLike } from '../../src/ports/fetch.ts';
import type { ChannelSort, SearchFilters } from '../../src/ports/upstream.ts';
import { describeRecordings, loadRecording, recordedJson } from './recordings.ts';
import { allRecordings, ReplayFetch } from './replay-fetch.ts';

let replay: ReplayFetch;
let yt: YouTubeUpstream;
/** What the driver sent, in the order of `replay.log`. */
const sent: { url: string; body: string | undefined; headers: Headers }[] = [];
const fetch: FetchLike = (url, init) => {
  const body = typeof init.body === 'string' ? init.body : undefined;
  sent.push({ url, body, headers: new Headers(init.headers) });
  return replay.fetch(url, init);
};

const FIELDS = ['browseId', 'params', 'continuation', 'query', 'url'] as const;
const clientOf = (body: string | undefined) =>
  ((body ? JSON.parse(body) : {}) as { context?: { client?: Record<string, unknown> } }).context?.client ??
  {};
/** Headers whose recorded value must be ours too (Referer, Accept-Language and versions vary). */
const SAME_HEADERS = ['Origin', 'Cookie', 'X-YouTube-Client-Name', 'Content-Type'];
/** Client fields whose recorded value must be ours too (hl, gl and the version vary). */
const SAME_CLIENT = ['clientName', 'platform', 'originalUrl', 'utcOffsetMinutes'];
const rawFields = (body: string | undefined) => {
  const json = (body ? JSON.parse(body) : {}) as Record<string, unknown>;
  return Object.fromEntries(FIELDS.filter((k) => json[k] !== undefined).map((k) => [k, json[k]]));
};

/**
 * Nothing missed, and every request answered from a recording mirrors the recorded request:
 * path, `$fields`, each recorded query parameter, the raw body fields (no percent-decoding,
 * unlike the replay's matching), the `context.client` field names, and every recorded header.
 */
function expectRecordedRequests(): void {
  expect(replay.misses).toEqual([]);
  expect(sent).toHaveLength(replay.log.length);
  replay.log.forEach((entry, i) => {
    const recording = replay.byKey.get(entry.key);
    if (!recording) return; // served by a handler (said where one is installed)
    const ours = new URL(sent[i]!.url);
    const theirs = new URL(recording.request.url);
    expect(ours.pathname).toBe(theirs.pathname);
    expect(ours.searchParams.get('$fields')).toBe(theirs.searchParams.get('$fields'));
    for (const [key, value] of theirs.searchParams) expect(ours.searchParams.get(key), key).toBe(value);
    expect(rawFields(sent[i]!.body)).toEqual(rawFields(recording.request.body));
    const [client, recorded] = [clientOf(sent[i]!.body), clientOf(recording.request.body)];
    expect(Object.keys(client).sort()).toEqual(Object.keys(recorded).sort());
    for (const key of SAME_CLIENT) expect(client[key], key).toEqual(recorded[key]);
    for (const name of Object.keys(recording.request.headers))
      expect(sent[i]!.headers.has(name), name).toBe(true);
    for (const name of SAME_HEADERS) {
      const value = recording.request.headers[name]?.[0];
      if (value !== undefined) expect(sent[i]!.headers.get(name), name).toBe(value);
    }
  });
}

/** Requests sent since the last call. */
let mark = 0;
function cost(): number {
  const n = yt.transport.sent - mark;
  mark = yt.transport.sent;
  return n;
}

/** Asserts the upstream requests `op` cost (the figures of the report). */
function expectCost(op: string, n: number): void {
  expect(cost(), op).toBe(n);
}

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; details?: unknown }> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ApiError) return e.details ? { code: e.code, details: e.details } : { code: e.code };
    throw e;
  }
  throw new Error('expected an ApiError');
}

describeRecordings('YouTube driver over the recordings: browse side', () => {
  beforeAll(() => {
    replay = new ReplayFetch(allRecordings().filter((f) => !f.startsWith('stream/')));
  });
  beforeEach(() => {
    replay.misses.length = 0;
    replay.log.length = 0;
    replay.handlers.length = 0;
    sent.length = 0;
    yt = createYouTubeUpstream({ fetch, retries: 0 });
    mark = 0;
  });

  it('resolves handles, /c/ and /user/ names; an unknown handle is channel_not_found', async () => {
    const cases: [Parameters<YouTubeUpstream['resolveChannel']>[0], string][] = [
      [{ kind: 'handle', handle: '@TheDailyShow' }, 'UCwWhs_6x42TyRM4Wstoq8HA'],
      [{ kind: 'handle', handle: '@Gronkh' }, 'UCYJ61XIK64sp6ZFFS8sctxw'],
      [{ kind: 'handle', handle: '@EEVblog' }, 'UC2DjFE7Xf11URZqWBigcVOQ'],
      [{ kind: 'custom', name: 'JeffGeerling' }, 'UCR-DXc1voovS8nhAvccRZhg'],
      [{ kind: 'user', name: 'creativecommons' }, 'UCTwECeGqMZee77BjdoYtI2Q'],
    ];
    for (const [locator, id] of cases) expect(await yt.resolveChannel(locator)).toBe(id);
    expectCost('resolveChannel ×5 (handle, /c/, /user/)', 5);
    expect(await yt.resolveChannel({ kind: 'id', id: 'UCwWhs_6x42TyRM4Wstoq8HA' })).toBe(
      'UCwWhs_6x42TyRM4Wstoq8HA',
    );
    expectCost('resolveChannel (UC id)', 0);
    const missing = yt.resolveChannel({
      kind: 'handle',
      handle: '@nonExistingHandleThatWillNeverExist15464',
    });
    expect(await codeOf(missing)).toEqual({ code: 'channel_not_found' });
    expectCost('resolveChannel (unknown handle)', 1);
    expectRecordedRequests();
  });

  it('channel profiles: kurzgesagt (Jan 2026), gronkh via its handle (May 2026)', async () => {
    const kurz = await yt.channel('UCsXVk37bltHxD1rDPwtNM8Q');
    expectCost('channel', 1);
    expect(kurz).toMatchObject({
      channelId: 'UCsXVk37bltHxD1rDPwtNM8Q',
      title: 'Kurzgesagt – In a Nutshell',
      handle: '@kurzgesagt',
      subscriberCountText: '25m subscribers',
      subscriberCount: 25_000_000,
      videoCount: 337,
      verified: true,
      links: ['https://shop.kgs.link/cool'],
      tabs: ['home', 'videos', 'shorts', 'playlists', 'posts', 'store'],
    });
    expect(kurz.avatars.map((a) => a.width)).toEqual([72, 120, 160, 900]);
    expect(kurz.banners).toHaveLength(6);
    const gronkh = await yt.channel(await yt.resolveChannel({ kind: 'handle', handle: '@Gronkh' }));
    expectCost('resolveChannel + channel', 2);
    expect(gronkh).toMatchObject({
      channelId: 'UCYJ61XIK64sp6ZFFS8sctxw',
      title: 'Gronkh',
      handle: '@gronkh',
      subscriberCount: 5_040_000,
      videoCount: 18_000,
      verified: true,
      links: ['https://twitch.tv/Gronkh'],
    });
    expectRecordedRequests();
  });

  it('removed channel (alert) and invalid browse id (400 INVALID_ARGUMENT) → channel_not_found', async () => {
    expect(await codeOf(yt.channel('UCoaO4U_p7G7AwalqSbGCZOA'))).toEqual({
      code: 'channel_not_found',
      details: { reason: 'This channel was removed because it violated our Community Guidelines.' },
    });
    expect(await codeOf(yt.channel('DOESNT-EXIST'))).toEqual({ code: 'channel_not_found' });
    expectCost('channel ×2 (not found)', 2);
    expectRecordedRequests();
  });

  interface TabChain {
    name: string;
    locator: Parameters<YouTubeUpstream['resolveChannel']>[0];
    tab: 'videos' | 'shorts' | 'streams' | 'playlists';
    title: string;
    /** Per page: count, first id, last id, whether a next token follows. */
    pages: [number, string, string, boolean][];
  }
  const CHAINS: TabChain[] = [
    {
      name: 'videos (Creative Commons, /user/)',
      locator: { kind: 'user', name: 'creativecommons' },
      tab: 'videos',
      title: 'Creative Commons',
      pages: [
        [30, 'BD-LB23rRBE', 'Wi5vPm56fzg', true],
        [30, 'CIFHx7_z3Vc', '9c1Kl8ElHug', true],
      ],
    },
    {
      name: 'streams (Jeff Geerling, /c/)',
      locator: { kind: 'custom', name: 'JeffGeerling' },
      tab: 'streams',
      title: 'Jeff Geerling',
      pages: [
        [30, '27J-wwgZydE', 'nLoJ2L0AzDY', true],
        [27, '_rDzMYp-fBs', 'EyI_OwhufNk', false],
      ],
    },
    {
      name: 'shorts (Doobydobap, UC id)',
      locator: { kind: 'id', id: 'UCh8gHdtzO2tXd593_bjErWg' },
      tab: 'shorts',
      title: 'Doobydobap',
      pages: [
        [48, 'l-X5WbDSH2o', 'QwxXxlvoKZk', true],
        [48, 'R8ydpPnC6vI', 'bGXP83AU3Mc', true],
      ],
    },
    {
      name: 'playlists (EEVblog, @handle)',
      locator: { kind: 'handle', handle: '@EEVblog' },
      tab: 'playlists',
      title: 'EEVblog',
      pages: [
        [30, 'PLvOlSehNtuHtAlWfU05ycHQdkSoE0rR20', 'PLvOlSehNtuHt2pJ7X5tumuM4Wa3r1OC7Q', true],
        [30, 'PLvOlSehNtuHtX7OearWdmqGzqiu4DHKWi', 'PLvOlSehNtuHuo-6paPTh3ji7AEMpnSna6', true],
      ],
    },
  ];

  it.each(CHAINS)(
    'tab $name: page 1, then page 2 from its continuation',
    async ({ locator, tab, title, pages }) => {
      const id = await yt.resolveChannel(locator);
      cost();
      let continuation: string | undefined;
      for (const [i, [count, first, last, more]] of pages.entries()) {
        const page = continuation === undefined ? {} : { continuation };
        const result =
          tab === 'playlists'
            ? await yt.channelPlaylists(id, page)
            : await yt.channelVideos(id, tab, { sort: 'newest', ...page });
        expectCost(`${tab === 'playlists' ? 'channelPlaylists' : 'channelVideos (newest)'} page ${i + 1}`, 1);
        const ids = result.items.map((x) => ('videoId' in x ? x.videoId : x.playlistId));
        expect(result.channelId).toBe(id);
        expect(result.channelTitle).toBe(title);
        expect([ids.length, ids[0], ids.at(-1), result.continuation !== undefined]).toEqual([
          count,
          first,
          last,
          more,
        ]);
        continuation = result.continuation;
      }
      expectRecordedRequests();
    },
  );

  it('first pages of the kurzgesagt and gronkh video tabs', async () => {
    const kurz = await yt.channelVideos('UCsXVk37bltHxD1rDPwtNM8Q', 'videos', {});
    expect(kurz.items[0]).toMatchObject({
      videoId: 'D0WQK7cMJn8',
      title: 'We Made A New Channel!',
      lengthSeconds: 183,
      viewCount: 1_545_374,
      publishedText: '10 days ago',
    });
    expect([kurz.items.length, kurz.items.at(-1)?.videoId, kurz.continuation !== undefined]).toEqual([
      30,
      'reSfF60-2S4',
      true,
    ]);
    const gronkh = await yt.channelVideos('UCYJ61XIK64sp6ZFFS8sctxw', 'videos', {});
    expect([gronkh.channelTitle, gronkh.items.length, gronkh.items[0]?.videoId]).toEqual([
      'Gronkh',
      30,
      'ZzVJnP9sjlo',
    ]);
    expectCost('channelVideos ×2', 2);
    expectRecordedRequests();
  });

  // The chip follow-up was never recorded: its answer is built from the recorded continuation
  // page of the same tab, in the shape YouTube gives a chip (header + body reload commands).
  it.each([
    ['videos', 'popular', 'youtubechanneltabextractor/videos/generated_mock_', 'UCTwECeGqMZee77BjdoYtI2Q'],
    [
      'streams',
      'oldest',
      'youtubechanneltabextractor/livestreams/generated_mock_',
      'UCR-DXc1voovS8nhAvccRZhg',
    ],
  ] as const)(
    '%s sorted %s: the recorded first page, then its sort chip (2 requests)',
    async (tab, sort, dir, id) => {
      const chip = sortChipTokens(recordedJson(`${dir}3.json`))[sort as ChannelSort];
      expect(chip).toBeDefined();
      const next = recordedJson(`${dir}4.json`) as {
        onResponseReceivedActions: { appendContinuationItemsAction: { continuationItems: unknown[] } }[];
      };
      const items = next.onResponseReceivedActions[0]?.appendContinuationItemsAction.continuationItems;
      replay.handlers.push((_url, init) => {
        const body = JSON.parse(String(init.body ?? '{}')) as { continuation?: string };
        if (body.continuation !== chip) return undefined;
        return Response.json({
          onResponseReceivedActions: [
            {
              reloadContinuationItemsCommand: {
                slot: 'RELOAD_CONTINUATION_SLOT_HEADER',
                continuationItems: [],
              },
            },
            {
              reloadContinuationItemsCommand: {
                slot: 'RELOAD_CONTINUATION_SLOT_BODY',
                continuationItems: items,
              },
            },
          ],
        });
      });
      const page = await yt.channelVideos(id, tab, { sort });
      expectCost(`channelVideos (${sort}, first page)`, 2);
      expect(replay.log.map((r) => r.key.split(' ')[2]?.split('=')[0])).toEqual(['browseId', 'continuation']);
      const expected = tab === 'videos' ? [30, 'CIFHx7_z3Vc', true] : [27, '_rDzMYp-fBs', false];
      expect([page.items.length, page.items[0]?.videoId, page.continuation !== undefined]).toEqual(expected);
      expect(page.channelTitle).toBe(tab === 'videos' ? 'Creative Commons' : 'Jeff Geerling');
      expectRecordedRequests();
    },
  );

  const TOP150 = 'PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr';
  const TOP10 = 'PLXJg25X-OulsVsnvZ7RVtSDW-id9_RzAO';

  it('playlist of 150: header + first item page, then the second page; indexes run on', async () => {
    const p1 = await yt.playlist(TOP150, {});
    expectCost('playlist (first page: header + items)', 2);
    expect(p1).toMatchObject({
      playlistId: TOP150,
      title: "TOP 150 Songs 2026 - List of Best Music 2026 (Today's Hits Playlist)",
      videoCount: 150,
      viewCountText: '143,206 views',
      author: 'Redlist - Chart Playlists',
    });
    expect(p1.thumbnails).toHaveLength(4);
    expect(p1.videos[0]).toMatchObject({
      videoId: 'u2ah9tWTkmk',
      title: 'Alex Warren - Ordinary (Official Video)',
      index: 1,
      lengthSeconds: 187,
      author: 'Alex Warren',
      channelId: 'UCX2Pm1JoWF3chsVOR9e1hbQ',
    });
    expect([p1.videos.length, p1.videos.at(-1)?.videoId, p1.videos.at(-1)?.index]).toEqual([
      100,
      'vz-_ZtUh8P4',
      100,
    ]);
    expect(p1.continuation).toBeDefined();
    const p2 = await yt.playlist(TOP150, { continuation: p1.continuation! });
    expectCost('playlist (continuation page)', 1);
    expect([p2.videos.length, p2.videos[0]?.videoId, p2.videos[0]?.index]).toEqual([50, 'aQMKAZpcynA', 101]);
    expect([p2.videos.at(-1)?.videoId, p2.videos.at(-1)?.index, p2.continuation]).toEqual([
      'zUtTpuqV55U',
      150,
      undefined,
    ]);
    expect(p2.title).toBe(p1.title);
    expectRecordedRequests();
  });

  it('playlist of 17: one page, no continuation', async () => {
    const p = await yt.playlist(TOP10, {});
    expect(p).toMatchObject({
      title: 'Top 10 Copyright Free Music Tracks 2025',
      videoCount: 17,
      author: 'Audio Lounge Music',
    });
    expect([p.videos.length, p.videos[0]?.videoId, p.videos.at(-1)?.videoId, p.continuation]).toEqual([
      17,
      'UKwSQSFN4Nw',
      'TzRptXir15E',
      undefined,
    ]);
    expectCost('playlist (single page)', 2);
    expectRecordedRequests();
  });

  it.each([
    ['INVALID_ID', 'This playlist type is unviewable.'],
    ['PL11111111111111111111111111111111', 'The playlist does not exist.'],
  ])('playlist %s → playlist_not_found after the header call', async (id, reason) => {
    expect(await codeOf(yt.playlist(id, {}))).toEqual({ code: 'playlist_not_found', details: { reason } });
    expectCost('playlist (not found)', 1);
    expectRecordedRequests();
  });

  const SEARCHES: [string, string, SearchFilters, [number, string, string, number][]][] = [
    [
      'videos',
      'test',
      { type: 'video' },
      [
        [20, 'Z8KYabgkMbw', 'oo2aNvVDpAM', 430_195_562],
        [20, 'JOHUZMTdgBY', 'ezYffvVRjG4', 430_196_212],
      ],
    ],
    [
      'channel',
      'test',
      { type: 'channel' },
      [
        [20, 'UCZRcA_nO3Kt-SOml2mY8D9g', 'UCka5_p33Baa_mVKGXxQsHjg', 32_629],
        [20, 'UCOhfuSLiCVeoLTBKoOHRddA', 'UCwJOcrZqJtR8vWx0dXgPjvA', 32_410],
      ],
    ],
    [
      'playlists',
      'test',
      { type: 'playlist' },
      [
        [20, 'PLAD454F0807B6CB80', 'PLIi5X8tybGdCmQNWQXg-o3trOHN_vh5c0', 35_473],
        [25, 'PLrx4fxhgMUOaVOO0wpBzPzmcQOimxiBHv', 'PLFoAuQjNPg1Kk5F1DtaUXZwaChhWlzMaz', 35_469],
      ],
    ],
    [
      'all',
      'test',
      {},
      [
        [40, '6GDBMbMU0ew', 'Z8KYabgkMbw', 430_198_371],
        [45, 'aRyI5VtJcSQ', 'Mv70uh16iUY', 430_192_635],
      ],
    ],
    [
      'correctedsearch',
      'pewdeipie',
      { type: 'video' },
      [
        [20, 'lJIvq7jmHxA', 'zBTO5HeHGYc', 7_511_757],
        [19, 'gRyPjRrjS34', 'M0bq3RvD_NQ', 7_511_759],
      ],
    ],
    [
      'suggestion',
      'on board ing',
      { type: 'video' },
      [
        [20, 'RCh7ZS-hkZY', 'vSwSn5XI2tg', 14_339_930],
        [20, 'PMuQh-a3w_U', 'DptGBVPnvKE', 14_339_884],
      ],
    ],
    [
      'crisisresources',
      'suicide',
      {},
      [
        [20, 'eiLo-Xqrc_w', 'sG-WJueFR30', 21_680_554],
        [19, 'uT6x-CrtcNM', 'gEztZUnj_6M', 21_680_752],
      ],
    ],
    [
      'randomquerynomorepages',
      'UCO6AK',
      {},
      [
        [14, 'UCo6ak-HCqQQAyuo6_5remFw', 'MkPQ9bXNjkM', 14],
        [0, '', '', 14],
      ],
    ],
  ];

  it.each(SEARCHES)(
    'search %s (%s): first page, then the continuation page',
    async (name, query, filters, pages) => {
      const p1 = await yt.search(query, filters, {});
      expectCost('search (first page)', 1);
      const p2 = await yt.search(query, filters, { continuation: p1.continuation! });
      expectCost('search (continuation page)', 1);
      [p1, p2].forEach((page, i) => {
        const [count, first, last, estimated] = pages[i]!;
        expect([
          page.items.length,
          page.items[0]?.id ?? '',
          page.items.at(-1)?.id ?? '',
          page.estimatedResults,
        ]).toEqual([count, first, last, estimated]);
        expect(page).not.toHaveProperty('correction');
      });
      expect(p1.continuation).toBeDefined();
      expect(p2.continuation !== undefined).toBe(name !== 'randomquerynomorepages');
      if (name === 'videos')
        expect(p1.items[0]).toMatchObject({
          type: 'video',
          title: 'Blind Test TOUT GENRE | 140 extraits',
          channelId: 'UCuEBTg6pcG7s3PpPGRtFKQA',
          durationSeconds: 2840,
        });
      expectRecordedRequests();
    },
  );

  it('suggestions for "hello" (gl DE)', async () => {
    const list = await yt.suggestions('hello', { gl: 'DE', hl: 'en-GB' });
    expectCost('suggestions', 1);
    expect([list.length, list[0], list.at(-1)]).toEqual([14, 'hello', 'hello there']);
    expect(replay.log[0]?.url).toMatch(
      /\/complete\/search\?client=youtube&ds=yt&gl=DE&hl=en-GB&q=hello&xhr=t$/,
    );
    expectRecordedRequests();
  });

  it('latest: the kurzgesagt feed (recorded as ?user=, served for ?channel_id=), and a removed channel (404)', async () => {
    const feed = loadRecording('youtubefeedextractor/kurzgesagt/generated_mock_0.json').response.body;
    replay.handlers.push((url) =>
      url.pathname === '/feeds/videos.xml' &&
      url.searchParams.get('channel_id') === 'UCsXVk37bltHxD1rDPwtNM8Q'
        ? new Response(feed, { headers: { 'content-type': 'text/xml; charset=UTF-8' } })
        : undefined,
    );
    const videos = await yt.latest('UCsXVk37bltHxD1rDPwtNM8Q');
    expectCost('latest', 1);
    expect(videos).toHaveLength(15);
    expect(videos[0]).toMatchObject({
      videoId: 'zg40FHOAqC0',
      title: 'Jupiter Made Earth Possible',
      viewCount: 1_086_938,
    });
    expect(videos.at(-1)).toMatchObject({ videoId: 'ZSch_NgZpQs', title: 'Trees Are So Weird' });
    expect(await codeOf(yt.latest('UCTGjY2I-ZUGnwVoWAGRd7XQ'))).toEqual({ code: 'channel_not_found' });
    expectCost('latest (removed channel)', 1);
    expectRecordedRequests();
  });

  it('with an origin override every request goes to the origin and still matches a recording', async () => {
    const local = createYouTubeUpstream({ fetch, origin: 'http://127.0.0.1:9', retries: 0 });
    await local.resolveChannel({ kind: 'handle', handle: '@TheDailyShow' });
    await local.playlist(TOP10, {});
    await local.search('test', { type: 'video' }, {});
    await local.suggestions('hello', { gl: 'DE' });
    await local.latest('UCTGjY2I-ZUGnwVoWAGRd7XQ').catch(() => undefined);
    expect(replay.log.map((r) => new URL(r.url).origin)).toEqual(Array(6).fill('http://127.0.0.1:9'));
    expect(local.transport.sent).toBe(6);
    expectRecordedRequests();
  });
});
