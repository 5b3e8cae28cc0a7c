/**
 * A programmable Upstream for app tests: data by id, failures on demand, and call counts.
 */
import { ApiError } from '../../src/errors.ts';
import type {
  CaptionTrack,
  ChannelProfile,
  ChannelTabPage,
  PlayerData,
  PlaylistCard,
  PlaylistPage,
  SearchPage,
  TimedText,
  Upstream,
  VideoCard,
  VideoExtras,
} from '../../src/ports/upstream.ts';

/** A json3 document with one event per line and (for ASR) one seg per word. */
export function json3(lines: [number, number, string][], asr: boolean): TimedText {
  return {
    format: 'json3',
    document: {
      events: lines.map(([start, duration, text]) => ({
        tStartMs: start,
        dDurationMs: duration,
        segs: asr
          ? text
              .split(' ')
              .map((word, i) => (i === 0 ? { utf8: word } : { utf8: ` ${word}`, tOffsetMs: i * 200 }))
          : [{ utf8: text }],
      })),
    },
  };
}

export const TRACK_EN_MANUAL: CaptionTrack = {
  languageCode: 'en',
  name: 'English',
  kind: 'manual',
  isTranslatable: true,
  isDefault: true,
  ref: 'en-manual',
};
export const TRACK_EN_ASR: CaptionTrack = {
  languageCode: 'en',
  name: 'English (auto-generated)',
  kind: 'asr',
  isTranslatable: true,
  isDefault: false,
  ref: 'en-asr',
};
export const TRACK_DE: CaptionTrack = {
  languageCode: 'de',
  name: 'Deutsch',
  kind: 'manual',
  isTranslatable: true,
  isDefault: false,
  ref: 'de-manual',
};

export const VIDEO = 'dQw4w9WgXcQ';

/** The fake. */
export class FakeUpstream implements Upstream {
  calls: Record<string, number> = {};
  /** Makes the next calls of a method throw. */
  failures: Record<string, ApiError | Error> = {};
  /** Delays every call (ms) so tests can abort or time out. */
  delayMs = 0;
  players = new Map<string, PlayerData>();
  texts = new Map<string, TimedText>();

  constructor() {
    this.players.set(VIDEO, {
      videoId: VIDEO,
      title: 'Never Gonna Give You Up',
      author: 'Rick Astley',
      channelId: 'UCuAXFkgsw1L7xaCfnd5JJOw',
      description: 'The official video.',
      lengthSeconds: 213,
      viewCount: 1_000_000,
      keywords: ['rick'],
      thumbnails: [{ url: 'https://i.ytimg.com/vi/x/default.jpg', width: 120, height: 90 }],
      live: 'none',
      tracks: [TRACK_EN_MANUAL, TRACK_EN_ASR, TRACK_DE],
    });
    this.texts.set(
      'en-manual',
      json3(
        [
          [0, 2000, 'Hello world.'],
          [2000, 2500, 'Second line here.'],
        ],
        false,
      ),
    );
    this.texts.set(
      'en-asr',
      json3(
        [
          [0, 1800, 'hello world'],
          [2000, 2400, 'second line here'],
        ],
        true,
      ),
    );
    this.texts.set('de-manual', json3([[0, 2000, 'Hallo Welt.']], false));
  }

  private async step(name: string, signal?: AbortSignal): Promise<void> {
    this.calls[name] = (this.calls[name] ?? 0) + 1;
    if (this.delayMs > 0) {
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, this.delayMs);
        signal?.addEventListener('abort', () => {
          clearTimeout(t);
          reject(signal.reason);
        });
      });
    }
    const failure = this.failures[name];
    if (failure) throw failure;
  }

  async player(videoId: string, o?: { signal?: AbortSignal }): Promise<PlayerData> {
    await this.step('player', o?.signal);
    const p = this.players.get(videoId);
    if (!p) throw new ApiError('video_unavailable', 'This video is unavailable.');
    return structuredClone(p);
  }
  async captions(track: CaptionTrack, o?: { signal?: AbortSignal }): Promise<TimedText> {
    await this.step('captions', o?.signal);
    const t = this.texts.get(track.ref);
    if (!t) throw new ApiError('upstream_error', 'no text');
    return structuredClone(t);
  }
  async videoExtras(_id: string, o?: { signal?: AbortSignal }): Promise<VideoExtras> {
    await this.step('videoExtras', o?.signal);
    return { publishedAt: 1_256_000_000, likeCount: 42, chapters: [{ title: 'Intro', startSeconds: 0 }] };
  }
  async resolveChannel(): Promise<string> {
    await this.step('resolveChannel');
    return 'UCuAXFkgsw1L7xaCfnd5JJOw';
  }
  async channel(id: string): Promise<ChannelProfile> {
    await this.step('channel');
    return {
      channelId: id,
      title: 'Rick Astley',
      description: '',
      verified: true,
      avatars: [],
      banners: [],
      links: [],
      tabs: ['videos'],
    };
  }
  async channelVideos(
    id: string,
    _tab: string,
    page: { continuation?: string },
  ): Promise<ChannelTabPage<VideoCard>> {
    await this.step('channelVideos');
    const second = page.continuation === 'p2';
    return {
      channelId: id,
      channelTitle: 'Rick Astley',
      items: [{ videoId: second ? 'bbbbbbbbbbb' : 'aaaaaaaaaaa', title: second ? 'B' : 'A', thumbnails: [] }],
      ...(second ? {} : { continuation: 'p2' }),
    };
  }
  async channelPlaylists(id: string): Promise<ChannelTabPage<PlaylistCard>> {
    await this.step('channelPlaylists');
    return { channelId: id, channelTitle: 'Rick Astley', items: [] };
  }
  async latest(): Promise<VideoCard[]> {
    await this.step('latest');
    return [];
  }
  async playlist(id: string, page: { continuation?: string }): Promise<PlaylistPage> {
    await this.step('playlist');
    if (page.continuation) return { playlistId: id, videos: [] };
    return { playlistId: id, title: 'P', videos: [], continuation: 'x' };
  }
  async search(): Promise<SearchPage> {
    await this.step('search');
    return { items: [] };
  }
  async suggestions(q: string): Promise<string[]> {
    await this.step('suggestions');
    return [q, `${q} world`];
  }
}
