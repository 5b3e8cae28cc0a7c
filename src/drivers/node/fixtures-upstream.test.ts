import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../errors.ts';
import type {
  CaptionTrack,
  ChannelProfile,
  PlayerData,
  SearchItem,
  TimedText,
  Upstream,
  VideoCard,
} from '../../ports/upstream.ts';
import { createFixturesUpstream } from './fixtures-upstream.ts';

const CHANNEL = 'UCaaaaaaaaaaaaaaaaaaaaaa';
const OTHER_CHANNEL = 'UCbbbbbbbbbbbbbbbbbbbbbb';
const track: CaptionTrack = {
  languageCode: 'en',
  name: 'English',
  kind: 'manual',
  isTranslatable: true,
  isDefault: true,
  ref: 'vid.en/1',
};
const player: PlayerData = {
  videoId: 'aaaaaaaaaaa',
  title: 'A video',
  author: 'Someone',
  channelId: CHANNEL,
  description: '',
  lengthSeconds: 10,
  viewCount: 1,
  keywords: [],
  thumbnails: [],
  live: 'none',
  tracks: [track, { ...track, ref: 'missing' }],
};
const timedText: TimedText = {
  format: 'json3',
  document: { events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'Hi.' }] }] },
};
const translatedText: TimedText = {
  format: 'json3',
  document: { events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'Salut.' }] }] },
};
const profile = (channelId: string, title: string): ChannelProfile => ({
  channelId,
  title,
  description: '',
  verified: false,
  avatars: [],
  banners: [],
  links: [],
  tabs: ['videos'],
});
const card = (videoId: string): VideoCard => ({ videoId, title: videoId, thumbnails: [] });
const result = (id: string): SearchItem => ({ id, type: 'video', title: id });

/** The fixture folder: path → JSON value (a string is written as is). */
const FILES: Record<string, unknown> = {
  'videos/aaaaaaaaaaa.json': {
    player,
    extras: { chapters: [{ title: 'Intro', startSeconds: 0 }], likeCount: 5 },
  },
  'videos/bbbbbbbbbbb.json': { player: { ...player, videoId: 'bbbbbbbbbbb', tracks: [] } },
  'videos/ppppppppppp.json': { error: { code: 'private_video', message: 'Video ppppppppppp is private.' } },
  'videos/rrrrrrrrrrr.json': {
    error: { code: 'upstream_blocked', message: 'Blocked.', details: { why: 'bot check' }, retryAfter: 60 },
  },
  'videos/xxxxxxxxxxx.json': { error: { code: 'no_such_code', message: '?' } },
  'videos/jjjjjjjjjjj.json': '{ not json',
  'videos/eeeeeeeeeee.json': {},
  [`captions/${encodeURIComponent('vid.en/1')}.json`]: timedText,
  [`captions/${encodeURIComponent('vid.en/1')}.fr.json`]: translatedText,
  'channels/index.json': {
    '@someone': CHANNEL,
    'custom/someonelegacy': CHANNEL,
    'user/someoneuser': CHANNEL,
    '@ghost': 'UCgggggggggggggggggggggg',
  },
  [`channels/${CHANNEL}.json`]: {
    profile: profile(CHANNEL, 'Someone'),
    tabs: {
      videos: {
        newest: [{ items: [card('n1'), card('n2')] }, { items: [card('n3')] }],
        popular: [{ items: [card('p1')] }],
      },
    },
    playlists: [
      { items: [{ playlistId: 'PL1', title: 'One', thumbnails: [] }] },
      { items: [{ playlistId: 'PL2', title: 'Two', thumbnails: [] }] },
    ],
    latest: [card('n1')],
  },
  [`channels/${OTHER_CHANNEL}.json`]: {
    profile: profile(OTHER_CHANNEL, 'Other'),
    tabs: { videos: { newest: [{ items: [card('o1')] }, { items: [card('o2')] }] } },
  },
  'playlists/PLtwo.json': {
    pages: [
      {
        playlistId: 'PLtwo',
        title: 'Two pages',
        videoCount: 3,
        videos: [{ videoId: 'v1', title: 'V1', index: 1, thumbnails: [] }],
      },
      { playlistId: 'PLtwo', videos: [{ videoId: 'v2', title: 'V2', index: 2, thumbnails: [] }] },
    ],
  },
  'playlists/PLother.json': { pages: [{ videos: [] }, { videos: [] }] },
  'playlists/PLempty.json': { pages: [] },
  'search/cats.json': {
    video: { pages: [{ items: [result('v1')], estimatedResults: 99 }, { items: [result('v2')] }] },
    channel: { pages: [{ items: [{ ...result('UC1'), type: 'channel' }] }] },
    all: { pages: [{ items: [result('a1')] }] },
  },
  'search/dogs.json': { default: { pages: [{ items: [result('d1')] }] } },
  'search/flat.json': { pages: [{ items: [result('f1')] }, { items: [result('f2')] }] },
  [`search/${encodeURIComponent('a b/c')}.json`]: { pages: [{ items: [result('e1')] }] },
  'suggestions/hello.json': ['hello', 'hello kitty'],
};

let dir = '';
let up: Upstream;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tubescribe-fixtures-'));
  for (const [path, value] of Object.entries(FILES)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), typeof value === 'string' ? value : JSON.stringify(value));
  }
  up = createFixturesUpstream(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** The ApiError a call rejects with. */
async function failure(call: Promise<unknown>): Promise<ApiError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`);
  return error;
}

describe('videos and captions', () => {
  it('player, extras and the caption file a track names', async () => {
    expect(await up.player('aaaaaaaaaaa')).toEqual(player);
    expect(await up.videoExtras('aaaaaaaaaaa')).toEqual({
      chapters: [{ title: 'Intro', startSeconds: 0 }],
      likeCount: 5,
    });
    expect(await up.videoExtras('bbbbbbbbbbb')).toEqual({ chapters: [] });
    expect(await up.captions(track)).toEqual(timedText);
  });

  it('translations: captions/<ref>.<lang>.json, else translation_unavailable', async () => {
    expect(await up.captions(track, { translateTo: 'fr' })).toEqual(translatedText);
    const code = async (p: Promise<unknown>) => ((await p.catch((e: unknown) => e)) as ApiError).code;
    expect(await code(up.captions(track, { translateTo: 'ja' }))).toBe('translation_unavailable');
    expect(await code(up.captions({ ...track, isTranslatable: false }, { translateTo: 'fr' }))).toBe(
      'translation_unavailable',
    );
  });

  it('hands out copies', async () => {
    const first = await up.player('aaaaaaaaaaa');
    first.title = 'changed';
    first.tracks.length = 0;
    expect(await up.player('aaaaaaaaaaa')).toEqual(player);
  });

  it.each([
    ['no file', () => up.player('zzzzzzzzzzz'), 'video_unavailable'],
    ['no file (extras)', () => up.videoExtras('zzzzzzzzzzz'), 'video_unavailable'],
    ['neither player nor error', () => up.player('eeeeeeeeeee'), 'video_unavailable'],
    ['{ error } file', () => up.player('ppppppppppp'), 'private_video'],
    ['{ error } file (extras)', () => up.videoExtras('ppppppppppp'), 'private_video'],
    ['unknown error code', () => up.player('xxxxxxxxxxx'), 'upstream_error'],
    ['invalid JSON', () => up.player('jjjjjjjjjjj'), 'upstream_error'],
    ['missing caption file', () => up.captions({ ...track, ref: 'missing' }), 'upstream_error'],
  ])('%s → %s', async (_name, call, code) => {
    expect((await failure(call())).code).toBe(code);
  });

  it('replays the message, details and Retry-After of an { error } file', async () => {
    const e = await failure(up.player('rrrrrrrrrrr'));
    expect(e).toMatchObject({ code: 'upstream_blocked', message: 'Blocked.', status: 503, retryAfter: 60 });
    expect(e.details).toEqual({ why: 'bot check' });
    expect((await failure(up.player('ppppppppppp'))).message).toBe('Video ppppppppppp is private.');
  });
});

describe('channels', () => {
  it.each([
    [{ kind: 'id', id: CHANNEL }, CHANNEL],
    [{ kind: 'handle', handle: '@Someone' }, CHANNEL],
    [{ kind: 'custom', name: 'SomeoneLegacy' }, CHANNEL],
    [{ kind: 'user', name: 'someoneUser' }, CHANNEL],
  ] as const)('resolves %j', async (locator, id) => {
    expect(await up.resolveChannel(locator)).toBe(id);
  });

  it.each([
    { kind: 'handle', handle: '@nobody' },
    { kind: 'user', name: 'someonelegacy' },
    { kind: 'custom', name: 'constructor' },
  ] as const)('unknown name %j → channel_not_found', async (locator) => {
    expect((await failure(up.resolveChannel(locator))).code).toBe('channel_not_found');
  });

  it('without an index every name is channel_not_found', async () => {
    const bare = createFixturesUpstream(join(dir, 'videos'));
    expect((await failure(bare.resolveChannel({ kind: 'handle', handle: '@someone' }))).code).toBe(
      'channel_not_found',
    );
  });

  it('profile, latest; unknown or malformed ids → channel_not_found', async () => {
    expect((await up.channel(CHANNEL)).title).toBe('Someone');
    expect(await up.latest(CHANNEL)).toEqual([card('n1')]);
    expect(await up.latest(OTHER_CHANNEL)).toEqual([]);
    for (const call of [
      () => up.channel('UCgggggggggggggggggggggg'),
      () => up.channel('../channels/index'),
      () => up.latest('UCgggggggggggggggggggggg'),
      () => up.channelVideos('UCgggggggggggggggggggggg', 'videos', {}),
      () => up.channelPlaylists('UCgggggggggggggggggggggg', {}),
    ]) {
      expect((await failure(call())).code).toBe('channel_not_found');
    }
  });

  it('pages through a tab with synthesised continuations', async () => {
    const first = await up.channelVideos(CHANNEL, 'videos', {});
    expect(first).toMatchObject({ channelId: CHANNEL, channelTitle: 'Someone' });
    expect(first.items.map((v) => v.videoId)).toEqual(['n1', 'n2']);
    expect(first.continuation).toMatch(/^fx:/);
    const second = await up.channelVideos(CHANNEL, 'videos', {
      sort: 'newest',
      continuation: first.continuation ?? '',
    });
    expect(second.items.map((v) => v.videoId)).toEqual(['n3']);
    expect(second.continuation).toBeUndefined();
  });

  it('sorts: a recorded sort, else newest; a tab without pages is one empty page', async () => {
    const popular = await up.channelVideos(CHANNEL, 'videos', { sort: 'popular' });
    expect([popular.items.map((v) => v.videoId), popular.continuation]).toEqual([['p1'], undefined]);
    const oldest = await up.channelVideos(CHANNEL, 'videos', { sort: 'oldest' });
    expect(oldest.items.map((v) => v.videoId)).toEqual(['n1', 'n2']);
    const next = await up.channelVideos(CHANNEL, 'videos', {
      sort: 'oldest',
      continuation: oldest.continuation ?? '',
    });
    expect(next.items.map((v) => v.videoId)).toEqual(['n3']);
    expect(await up.channelVideos(CHANNEL, 'streams', {})).toEqual({
      channelId: CHANNEL,
      channelTitle: 'Someone',
      items: [],
    });
  });

  it('playlists tab: two pages; a channel without playlists has one empty page', async () => {
    const first = await up.channelPlaylists(CHANNEL, {});
    expect(first.items.map((p) => p.playlistId)).toEqual(['PL1']);
    const second = await up.channelPlaylists(CHANNEL, { continuation: first.continuation ?? '' });
    expect([second.items.map((p) => p.playlistId), second.continuation]).toEqual([['PL2'], undefined]);
    expect((await up.channelPlaylists(OTHER_CHANNEL, {})).items).toEqual([]);
  });

  it('a continuation of another list is invalid_cursor', async () => {
    const mine = (await up.channelVideos(CHANNEL, 'videos', {})).continuation ?? '';
    const other = (await up.channelVideos(OTHER_CHANNEL, 'videos', {})).continuation ?? '';
    const playlists = (await up.channelPlaylists(CHANNEL, {})).continuation ?? '';
    for (const call of [
      () => up.channelVideos(CHANNEL, 'videos', { continuation: other }),
      () => up.channelVideos(OTHER_CHANNEL, 'videos', { continuation: mine }),
      () => up.channelVideos(CHANNEL, 'videos', { sort: 'popular', continuation: mine }),
      () => up.channelVideos(CHANNEL, 'shorts', { continuation: mine }),
      () => up.channelVideos(CHANNEL, 'videos', { continuation: playlists }),
      () => up.channelPlaylists(CHANNEL, { continuation: mine }),
      () => up.channelVideos(CHANNEL, 'videos', { continuation: mine.replace(/1$/, '7') }),
      () => up.channelVideos(CHANNEL, 'videos', { continuation: mine.replace(/1$/, '0') }),
      () => up.channelVideos(CHANNEL, 'videos', { continuation: '4qmFsgKlARIYVUN…' }),
    ]) {
      expect((await failure(call())).code).toBe('invalid_cursor');
    }
  });
});

describe('playlists', () => {
  it('two pages: the header on the first, the playlist id on both', async () => {
    const first = await up.playlist('PLtwo', {});
    expect(first).toMatchObject({ playlistId: 'PLtwo', title: 'Two pages', videoCount: 3 });
    expect(first.videos.map((v) => v.videoId)).toEqual(['v1']);
    const second = await up.playlist('PLtwo', { continuation: first.continuation ?? '' });
    expect(second).toEqual({
      playlistId: 'PLtwo',
      videos: [{ videoId: 'v2', title: 'V2', index: 2, thumbnails: [] }],
    });
  });

  it.each([
    ['unknown', () => up.playlist('PLnone', {}), 'playlist_not_found'],
    ['no pages', () => up.playlist('PLempty', {}), 'playlist_not_found'],
    ['foreign continuation', () => up.playlist('PLother', { continuation: 'fx:PLtwo:1' }), 'invalid_cursor'],
    ['past the end', () => up.playlist('PLtwo', { continuation: 'fx:PLtwo:2' }), 'invalid_cursor'],
  ])('%s → %s', async (_name, call, code) => {
    expect((await failure(call())).code).toBe(code);
  });
});

describe('search and suggestions', () => {
  it('the set of the type; pages chained; the query trimmed and lower-cased', async () => {
    const first = await up.search('  Cats ', { type: 'video' }, {});
    expect(first).toEqual({ items: [result('v1')], estimatedResults: 99, continuation: first.continuation });
    const second = await up.search('cats', { type: 'video' }, { continuation: first.continuation ?? '' });
    expect(second).toEqual({ items: [result('v2')] });
    expect((await up.search('cats', { type: 'channel' }, {})).items.map((i) => i.type)).toEqual(['channel']);
  });

  it.each([
    ['no type → "all"', 'cats', {}, ['a1']],
    ['a type without a set, no default → nothing', 'cats', { type: 'playlist' }, []],
    ['default set', 'dogs', { type: 'movie' }, ['d1']],
    ['flat pages for any filters', 'flat', { type: 'shorts', sortBy: 'view_count' }, ['f1']],
    ['an encoded file name', 'A B/C', { type: 'video' }, ['e1']],
    ['unknown query', 'birds', { type: 'video' }, []],
  ] as const)('%s', async (_name, query, filters, ids) => {
    expect((await up.search(query, filters, {})).items.map((i) => i.id)).toEqual(ids);
  });

  it('a continuation of another query or type is invalid_cursor', async () => {
    const cats = (await up.search('cats', { type: 'video' }, {})).continuation ?? '';
    const flat = (await up.search('flat', {}, {})).continuation ?? '';
    for (const call of [
      () => up.search('flat', {}, { continuation: cats }),
      () => up.search('cats', { type: 'channel' }, { continuation: cats }),
      () => up.search('cats', {}, { continuation: flat }),
      () => up.search('flat', {}, { continuation: 'EpADEgR0ZXN0…' }),
    ]) {
      expect((await failure(call())).code).toBe('invalid_cursor');
    }
  });

  it('suggestions: the list, or none', async () => {
    expect(await up.suggestions(' Hello')).toEqual(['hello', 'hello kitty']);
    expect(await up.suggestions('zzz')).toEqual([]);
  });
});

describe('abort signal', () => {
  const calls: [string, (signal: AbortSignal) => Promise<unknown>][] = [
    ['player', (signal) => up.player('aaaaaaaaaaa', { signal })],
    ['captions', (signal) => up.captions(track, { signal })],
    ['videoExtras', (signal) => up.videoExtras('aaaaaaaaaaa', { signal })],
    ['resolveChannel', (signal) => up.resolveChannel({ kind: 'handle', handle: '@someone' }, { signal })],
    ['channel', (signal) => up.channel(CHANNEL, { signal })],
    ['channelVideos', (signal) => up.channelVideos(CHANNEL, 'videos', {}, { signal })],
    ['channelPlaylists', (signal) => up.channelPlaylists(CHANNEL, {}, { signal })],
    ['latest', (signal) => up.latest(CHANNEL, { signal })],
    ['playlist', (signal) => up.playlist('PLtwo', {}, { signal })],
    ['search', (signal) => up.search('cats', {}, {}, { signal })],
    ['suggestions', (signal) => up.suggestions('hello', { signal })],
  ];

  it.each(calls)('%s rejects once the signal has aborted', async (_name, call) => {
    const controller = new AbortController();
    controller.abort(new Error('client went away'));
    await expect(call(controller.signal)).rejects.toThrow('client went away');
  });

  it.each(calls)('%s rejects when the signal aborts while it reads', async (_name, call) => {
    const controller = new AbortController();
    const pending = call(controller.signal);
    controller.abort(new Error('timed out'));
    await expect(pending).rejects.toThrow('timed out');
  });
});
