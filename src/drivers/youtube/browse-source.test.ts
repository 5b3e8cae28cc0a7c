import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../test/fakes/clock.ts';
import { SeededRandom } from '../../../test/fakes/random.ts';
import { ApiError } from '../../errors.ts';
import type { FetchLike } from '../../ports/fetch.ts';
import { silentLogger } from '../system.ts';
import {
  BrowseSource,
  PLAYLIST_PARAMS,
  playlistItemsToken,
  unwrapContinuation,
  wrapContinuation,
} from './browse-source.ts';
import { InnerTube } from './innertube.ts';
import { TAB_PARAMS } from './parse-channel-tab.ts';
import { DEFAULT_PLAYER_CHAIN, resolveProfiles } from './profiles.ts';
import type { SourceDeps } from './source-deps.ts';
import { Transport } from './transport.ts';

interface Sent {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: Record<string, unknown> | undefined;
}

/** A BrowseSource over a fake fetch answering with `route` (a Response, or JSON for a 200). */
function setup(route: (req: Sent) => unknown, options: { origin?: string; hl?: string; gl?: string } = {}) {
  const sent: Sent[] = [];
  const fetch: FetchLike = async (input, init) => {
    const body =
      typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
    const req = {
      method: init.method ?? 'GET',
      url: new URL(input),
      headers: init.headers as Record<string, string>,
      body,
    };
    sent.push(req);
    const out = route(req);
    return out instanceof Response ? out : Response.json(out);
  };
  const clock = new ManualClock();
  const random = new SeededRandom();
  const transport = new Transport({
    fetch,
    clock,
    random,
    logger: silentLogger,
    retries: 0,
    ...options,
  });
  const deps: SourceDeps = {
    tube: new InnerTube(transport, clock, silentLogger),
    profiles: resolveProfiles(),
    playerChain: DEFAULT_PLAYER_CHAIN,
    logger: silentLogger,
    clock,
    random,
  };
  return { source: new BrowseSource(deps), sent };
}

const error = (code: number, status: string) =>
  Response.json({ error: { code, message: 'x', status } }, { status: code });

const lockup = (id: string, views: string) => ({
  richItemRenderer: {
    content: {
      lockupViewModel: {
        contentId: id,
        contentType: 'LOCKUP_CONTENT_TYPE_VIDEO',
        metadata: {
          lockupMetadataViewModel: {
            title: { content: `Title ${id}` },
            metadata: {
              contentMetadataViewModel: {
                metadataRows: [
                  { metadataParts: [{ text: { content: views } }, { text: { content: '1 day ago' } }] },
                ],
              },
            },
          },
        },
      },
    },
  },
});
const more = (token: string) => ({
  continuationItemRenderer: { continuationEndpoint: { continuationCommand: { token } } },
});
const chip = (text: string, token: string) => ({
  chipViewModel: { text, tapCommand: { innertubeCommand: { continuationCommand: { token } } } },
});

/** A channel browse answer whose selected tab is `selected` (by its params). */
function channelPage(selected: string, items: unknown[], chips = true) {
  return {
    metadata: { channelMetadataRenderer: { externalId: 'UCaaaaaaaaaaaaaaaaaaaaaa', title: 'Chan | nel' } },
    contents: {
      twoColumnBrowseResultsRenderer: {
        tabs: [
          {
            tabRenderer: {
              selected: true,
              endpoint: { browseEndpoint: { params: selected } },
              content: {
                richGridRenderer: {
                  ...(chips
                    ? {
                        header: {
                          chipBarViewModel: {
                            chips: [
                              chip('Latest', 'T-NEW'),
                              chip('Popular', 'T-POP'),
                              chip('Oldest', 'T-OLD'),
                            ],
                          },
                        },
                      }
                    : {}),
                  contents: items,
                },
              },
            },
          },
        ],
      },
    },
  };
}

const reload = (items: unknown[]) => ({
  onResponseReceivedActions: [
    {
      reloadContinuationItemsCommand: {
        slot: 'RELOAD_CONTINUATION_SLOT_HEADER',
        continuationItems: [{ chip: 1 }],
      },
    },
    { reloadContinuationItemsCommand: { slot: 'RELOAD_CONTINUATION_SLOT_BODY', continuationItems: items } },
  ],
});
const append = (items: unknown[]) => ({
  onResponseReceivedActions: [{ appendContinuationItemsAction: { continuationItems: items } }],
});

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    return (e as Error).name;
  }
  return 'resolved';
}

const UC = 'UCaaaaaaaaaaaaaaaaaaaaaa';

describe('request shapes', () => {
  it('browse: WEB profile headers and context, body fields, no visitor_id call', async () => {
    const { source, sent } = setup(() => channelPage(TAB_PARAMS.videos, [lockup('aaaaaaaaaaa', '5 views')]), {
      hl: 'de',
      gl: 'AT',
    });
    await source.channel(UC, { hl: 'fr', gl: 'FR' });
    expect(sent).toHaveLength(1);
    const [req] = sent;
    expect(req?.method).toBe('POST');
    expect(req?.url.href).toBe('https://www.youtube.com/youtubei/v1/browse?prettyPrint=false');
    expect(req?.headers).toMatchObject({
      'Content-Type': 'application/json',
      'X-YouTube-Client-Name': '1',
      'X-YouTube-Client-Version': resolveProfiles().WEB?.version,
      Origin: 'https://www.youtube.com',
      Cookie: 'SOCS=CAE=',
      'Accept-Language': 'fr, en;q=0.9',
    });
    expect(req?.body).toMatchObject({ browseId: UC, params: TAB_PARAMS.videos });
    expect(req?.body?.context).toMatchObject({
      client: {
        clientName: 'WEB',
        hl: 'fr',
        gl: 'FR',
        platform: 'DESKTOP',
        originalUrl: 'https://www.youtube.com',
      },
    });
  });

  it('transport defaults for hl/gl; the origin override replaces every host, never the resolve_url body', async () => {
    const { source, sent } = setup(
      (req) => {
        if (req.url.pathname.endsWith('resolve_url'))
          return { endpoint: { browseEndpoint: { browseId: UC } } };
        if (req.url.pathname === '/complete/search') return new Response('["q",[["a",0]],{}]');
        if (req.url.pathname === '/feeds/videos.xml') return new Response('<feed><title>t</title></feed>');
        return {
          contents: {
            twoColumnSearchResultsRenderer: { primaryContents: { sectionListRenderer: { contents: [] } } },
          },
        };
      },
      { origin: 'http://127.0.0.1:9/', hl: 'de', gl: 'AT' },
    );
    expect(await source.resolveChannel({ kind: 'handle', handle: '@Foo.bar' })).toBe(UC);
    await source.resolveChannel({ kind: 'custom', name: 'Jeff Geerling' });
    await source.resolveChannel({ kind: 'user', name: 'creativecommons' });
    expect(await source.resolveChannel({ kind: 'id', id: UC })).toBe(UC);
    await source.search('a b', {}, {});
    await source.suggestions('hello');
    await source.latest(UC).catch(() => undefined);
    expect(sent.map((r) => r.url.origin)).toEqual(Array(6).fill('http://127.0.0.1:9'));
    expect(sent.slice(0, 3).map((r) => r.body?.url)).toEqual([
      'https://www.youtube.com/@Foo.bar',
      'https://www.youtube.com/c/Jeff%20Geerling',
      'https://www.youtube.com/user/creativecommons',
    ]);
    expect(sent[3]?.body).toMatchObject({
      query: 'a b',
      params: '8AEB',
      context: { client: { hl: 'de', gl: 'AT' } },
    });
    expect(sent[4]?.url.search).toBe('?client=youtube&ds=yt&gl=AT&hl=de&q=hello&xhr=t');
    expect(sent[4]?.headers).toMatchObject({
      Origin: 'https://www.youtube.com',
      'Accept-Language': 'de, en;q=0.9',
    });
    expect(`${sent[5]?.url.pathname}${sent[5]?.url.search}`).toBe(`/feeds/videos.xml?channel_id=${UC}`);
  });

  it('search params are the already percent-encoded value; continuation pages send only the token', async () => {
    const { source, sent } = setup(() => append([]));
    await source.search('test', { type: 'playlist', uploadDate: 'hour', sortBy: 'upload_date' }, {});
    await source.search('test', { type: 'video' }, { continuation: 'TOKEN%3D%3D' });
    expect(sent[0]?.body).toMatchObject({ query: 'test', params: 'EgQIAhAD8AEB' });
    expect(sent[1]?.body?.continuation).toBe('TOKEN%3D%3D');
    expect(sent[1]?.body).not.toHaveProperty('query');
  });

  it('an aborted signal: no request starts, the call rejects', async () => {
    const { source, sent } = setup(() => ({}));
    const signal = AbortSignal.abort();
    for (const call of [
      source.channel(UC, { signal }),
      source.playlist('PLx', {}, { signal }),
      source.suggestions('q', { signal }),
      source.latest(UC, { signal }),
    ])
      await expect(call).rejects.toBeDefined();
    expect(sent).toHaveLength(0);
  });
});

describe('channel tabs', () => {
  const page1 = channelPage(TAB_PARAMS.videos, [
    lockup('aaaaaaaaaaa', '10 views'),
    lockup('bbbbbbbbbbb', '99 views'),
    more('T-P2'),
  ]);

  it('newest: one request; the continuation carries the title and is passed through', async () => {
    const { source, sent } = setup((req) =>
      req.body?.continuation ? append([lockup('ccccccccccc', '1 view')]) : page1,
    );
    const first = await source.channelVideos(UC, 'videos', {});
    expect(sent).toHaveLength(1);
    expect(first.continuation).toBe(wrapContinuation('T-P2', 'Chan | nel'));
    const second = await source.channelVideos(UC, 'videos', {
      sort: 'popular',
      continuation: first.continuation!,
    });
    expect(sent).toHaveLength(2);
    expect(sent[1]?.body?.continuation).toBe('T-P2');
    expect(second).toEqual({
      channelId: UC,
      channelTitle: 'Chan | nel',
      items: [expect.objectContaining({ videoId: 'ccccccccccc' })],
    });
  });

  it.each([
    ['popular', 'T-POP'],
    ['oldest', 'T-OLD'],
  ] as const)('%s: the first page follows the sort chip (2 requests)', async (sort, token) => {
    const { source, sent } = setup((req) =>
      req.body?.continuation ? reload([lockup('zzzzzzzzzzz', '5 views'), more('T-SORTED-2')]) : page1,
    );
    const page = await source.channelVideos(UC, 'videos', { sort });
    expect(sent.map((r) => r.body?.continuation ?? r.body?.params)).toEqual([TAB_PARAMS.videos, token]);
    expect(page.items.map((v) => v.videoId)).toEqual(['zzzzzzzzzzz']);
    expect(page.channelTitle).toBe('Chan | nel');
    expect(unwrapContinuation(page.continuation!)).toEqual({ token: 'T-SORTED-2', extra: 'Chan | nel' });
  });

  it('a single page without chips is ordered locally; with more pages and no chip it is a parse error', async () => {
    const items = [lockup('aaaaaaaaaaa', '10 views'), lockup('bbbbbbbbbbb', '99 views')];
    const single = setup(() => channelPage(TAB_PARAMS.videos, items, false));
    const popular = await single.source.channelVideos(UC, 'videos', { sort: 'popular' });
    expect(popular.items.map((v) => v.videoId)).toEqual(['bbbbbbbbbbb', 'aaaaaaaaaaa']);
    const oldest = await single.source.channelVideos(UC, 'videos', { sort: 'oldest' });
    expect(oldest.items.map((v) => v.videoId)).toEqual(['bbbbbbbbbbb', 'aaaaaaaaaaa']);
    expect(single.sent).toHaveLength(2);
    const paged = setup(() => channelPage(TAB_PARAMS.videos, [...items, more('x')], false));
    expect(await codeOf(paged.source.channelVideos(UC, 'videos', { sort: 'oldest' }))).toBe('ParseError');
  });

  it('a channel without the tab: empty page, one request, also for popular', async () => {
    const { source, sent } = setup(() => channelPage(TAB_PARAMS.featured, [lockup('aaaaaaaaaaa', '1 view')]));
    const page = await source.channelVideos(UC, 'shorts', { sort: 'popular' });
    expect(page).toEqual({ channelId: UC, channelTitle: 'Chan | nel', items: [] });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.body?.params).toBe(TAB_PARAMS.shorts);
  });

  it('playlists tab: params, then the continuation', async () => {
    const card = {
      lockupViewModel: { contentId: 'PLx', contentType: 'LOCKUP_CONTENT_TYPE_PLAYLIST', metadata: {} },
    };
    const { source, sent } = setup((req) =>
      req.body?.continuation ? append([card]) : channelPage(TAB_PARAMS.playlists, [card, more('PL-2')]),
    );
    const first = await source.channelPlaylists(UC, {});
    await source.channelPlaylists(UC, { continuation: first.continuation! });
    expect(sent.map((r) => r.body?.params ?? r.body?.continuation)).toEqual([TAB_PARAMS.playlists, 'PL-2']);
  });
});

describe('playlists', () => {
  it("the first item token is NewPipe's (byte for byte the recorded one)", () => {
    expect(playlistItemsToken('PLoumn5BIsUDeGF1vy5Nylf_RJKn5aL_nr')).toBe(
      '4qmFsgJdEiRWTFBMb3VtbjVCSXNVRGVHRjF2eTVOeWxmX1JKS241YUxfbnIaEENBRENCZ0lJQUElM0QlM0SaAiJQTG91bW41QklzVURlR0Yxdnk1TnlsZl9SSktuNWFMX25y',
    );
  });

  it('first page: header call with $fields, then the item page; continuation carries the next index', async () => {
    const video = (id: string, index: number) => ({
      playlistVideoRenderer: { videoId: id, title: { simpleText: id }, index: { simpleText: String(index) } },
    });
    const { source, sent } = setup((req) =>
      req.url.searchParams.has('$fields')
        ? {
            header: {},
            sidebar: {
              playlistSidebarRenderer: {
                items: [
                  {
                    playlistSidebarPrimaryInfoRenderer: {
                      title: { simpleText: 'My list' },
                      stats: [{ simpleText: '3 videos' }],
                    },
                  },
                ],
              },
            },
          }
        : reload([video('aaaaaaaaaaa', 1), video('bbbbbbbbbbb', 2), more('PAGE-2')]),
    );
    const page = await source.playlist('PLabc', {});
    expect(sent[0]?.url.search).toBe('?prettyPrint=false&$fields=sidebar,header,microformat,alerts');
    expect(sent[0]?.body).toMatchObject({ browseId: 'VLPLabc', params: PLAYLIST_PARAMS });
    expect(sent[1]?.body?.continuation).toBe(playlistItemsToken('PLabc'));
    expect(page).toMatchObject({ playlistId: 'PLabc', title: 'My list', videoCount: 3 });
    expect(page.videos.map((v) => [v.videoId, v.index])).toEqual([
      ['aaaaaaaaaaa', 1],
      ['bbbbbbbbbbb', 2],
    ]);
    expect(page.continuation).toBe('PAGE-2|3');
  });

  it('missing playlist (alerts only) → playlist_not_found after one request', async () => {
    const { source, sent } = setup(() => ({
      alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: 'The playlist does not exist.' } } }],
    }));
    expect(await codeOf(source.playlist('PLnope', {}))).toBe('playlist_not_found');
    expect(sent).toHaveLength(1);
  });
});

describe('errors', () => {
  it.each([
    [
      'resolve 404',
      'channel_not_found',
      (s: BrowseSource) => s.resolveChannel({ kind: 'handle', handle: '@nope' }),
      () => error(404, 'NOT_FOUND'),
    ],
    [
      'browse 400 INVALID_ARGUMENT',
      'channel_not_found',
      (s: BrowseSource) => s.channel('DOESNT-EXIST'),
      () => error(400, 'INVALID_ARGUMENT'),
    ],
    [
      'browse alerts only',
      'channel_not_found',
      (s: BrowseSource) => s.channelVideos(UC, 'videos', {}),
      () => Response.json({ alerts: [{ alertRenderer: { type: 'ERROR', text: { simpleText: 'gone' } } }] }),
    ],
    [
      'rejected continuation',
      'invalid_cursor',
      (s: BrowseSource) => s.channelVideos(UC, 'videos', { continuation: 'bad|x' }),
      () => error(400, 'INVALID_ARGUMENT'),
    ],
    [
      'rejected search continuation',
      'invalid_cursor',
      (s: BrowseSource) => s.search('q', {}, { continuation: 'bad' }),
      () => error(400, 'INVALID_ARGUMENT'),
    ],
    [
      'empty continuation',
      'invalid_cursor',
      (s: BrowseSource) => s.playlist('PLx', { continuation: '|3' }),
      () => error(400, 'INVALID_ARGUMENT'),
    ],
    [
      'browse 403 HTML',
      'ParseError',
      (s: BrowseSource) => s.channel(UC),
      () => new Response('<html>', { status: 403 }),
    ],
    [
      'RSS 404',
      'channel_not_found',
      (s: BrowseSource) => s.latest(UC),
      () => new Response('<html><title>Error 404 (Not Found)</title></html>', { status: 404 }),
    ],
    [
      'RSS 403',
      'ParseError',
      (s: BrowseSource) => s.latest(UC),
      () => new Response('<html>', { status: 403 }),
    ],
    [
      'suggest 400',
      'ParseError',
      (s: BrowseSource) => s.suggestions('q'),
      () => new Response('x', { status: 400 }),
    ],
    [
      '429',
      'upstream_blocked',
      (s: BrowseSource) => s.search('q', {}, {}),
      () => new Response('', { status: 429, headers: { 'retry-after': '60' } }),
    ],
  ] as const)('%s → %s', async (_name, code, call, response) => {
    const { source } = setup(response);
    expect(await codeOf(call(source))).toBe(code);
  });
});

describe('suggestions and feed', () => {
  it('JSONP and JSON bodies', async () => {
    const { source } = setup(
      () => new Response('window.google.ac.h(["hel",[["hello",0],["help",0,[512]]],{"k":1}])'),
    );
    expect(await source.suggestions('hel', { hl: 'en', gl: 'US' })).toEqual(['hello', 'help']);
  });

  it('latest: newest first, at most 15', async () => {
    const entry = (i: number) =>
      `<entry><yt:videoId>v${String(i).padStart(10, '0')}</yt:videoId><title>t${i}</title><published>2026-01-${String(i + 1).padStart(2, '0')}T00:00:00+00:00</published></entry>`;
    const xml = `<feed><link href="https://www.youtube.com/channel/${UC}"/><title>C</title>${Array.from({ length: 17 }, (_, i) => entry(i)).join('')}</feed>`;
    const { source } = setup(() => new Response(xml));
    const videos = await source.latest(UC);
    expect(videos).toHaveLength(15);
    expect(videos[0]?.title).toBe('t16');
    expect(videos.at(-1)?.title).toBe('t2');
  });
});

describe('continuation envelope', () => {
  it.each([
    ['T', { token: 'T' }],
    [wrapContinuation('4qm%3D', 'A|B %'), { token: '4qm%3D', extra: 'A|B %' }],
    ['T|%E0%A4%A', { token: 'T' }],
  ])('%s', (input, expected) => {
    expect(unwrapContinuation(input)).toEqual(expected);
  });
});
