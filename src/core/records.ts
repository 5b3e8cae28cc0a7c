/**
 * The API records of channels, playlists, search and suggestions (snake_case, the contract's
 * field names), built from the Upstream port's normalised data. Pure.
 * @module
 */
import type {
  ChannelProfile,
  PlaylistCard,
  PlaylistPage,
  PlaylistVideo,
  SearchItem,
  Thumbnail,
  VideoCard,
} from '../ports/upstream.ts';

/** The channel profile record. */
export interface ChannelProfileRecord {
  channel_id: string;
  title: string;
  handle: string | null;
  description: string;
  subscriber_count: number | null;
  subscriber_count_text: string | null;
  video_count: number | null;
  verified: boolean;
  custom_url: string | null;
  country: string | null;
  url: string;
  thumbnails: Thumbnail[];
  banners: Thumbnail[];
  links: string[];
  available_tabs: string[];
}

/** A video card in a channel listing. */
export interface VideoCardRecord {
  video_id: string;
  title: string;
  length_text: string | null;
  length_seconds: number | null;
  view_count: number | null;
  view_count_text: string | null;
  published_text: string | null;
  published: number | null;
  is_live: boolean;
  is_upcoming: boolean;
  url: string;
  thumbnails: Thumbnail[];
}

/** A playlist card in a channel listing. */
export interface PlaylistCardRecord {
  playlist_id: string;
  title: string;
  video_count: number | null;
  video_count_text: string | null;
  url: string;
  thumbnails: Thumbnail[];
}

/** A video of a playlist. */
export interface PlaylistVideoRecord {
  video_id: string;
  title: string;
  index: number;
  length_seconds: number | null;
  length_text: string | null;
  author: string | null;
  channel_id: string | null;
  thumbnails: Thumbnail[];
}

/** One search result. */
export interface SearchResultRecord {
  id: string;
  type: SearchItem['type'];
  title: string;
  channel_title: string | null;
  channel_id: string | null;
  duration_seconds: number | null;
  view_count: number | null;
  upload_date: string | null;
  thumbnail_url: string | null;
  url: string;
}

const watchUrl = (id: string): string => `https://www.youtube.com/watch?v=${id}`;

/** The channel URL of an id. */
function channelUrl(channelId: string): string {
  return `https://www.youtube.com/channel/${channelId}`;
}

/** The profile record of a channel. */
export function channelProfileRecord(p: ChannelProfile): ChannelProfileRecord {
  return {
    channel_id: p.channelId,
    title: p.title,
    handle: p.handle ?? null,
    description: p.description,
    subscriber_count: p.subscriberCount ?? null,
    subscriber_count_text: p.subscriberCountText ?? null,
    video_count: p.videoCount ?? null,
    verified: p.verified,
    custom_url: p.customUrl ?? null,
    country: p.country ?? null,
    url: channelUrl(p.channelId),
    thumbnails: p.avatars,
    banners: p.banners,
    links: p.links,
    available_tabs: p.tabs,
  };
}

/** A video card record. */
export function videoCardRecord(v: VideoCard): VideoCardRecord {
  return {
    video_id: v.videoId,
    title: v.title,
    length_text: v.lengthText ?? null,
    length_seconds: v.lengthSeconds ?? null,
    view_count: v.viewCount ?? null,
    view_count_text: v.viewCountText ?? null,
    published_text: v.publishedText ?? null,
    published: v.publishedAt ?? null,
    is_live: v.live === 'live',
    is_upcoming: v.live === 'upcoming',
    url: watchUrl(v.videoId),
    thumbnails: v.thumbnails,
  };
}

/** A playlist card record. */
export function playlistCardRecord(p: PlaylistCard): PlaylistCardRecord {
  return {
    playlist_id: p.playlistId,
    title: p.title,
    video_count: p.videoCount ?? null,
    video_count_text: p.videoCountText ?? null,
    url: `https://www.youtube.com/playlist?list=${p.playlistId}`,
    thumbnails: p.thumbnails,
  };
}

/** A playlist video record. */
export function playlistVideoRecord(v: PlaylistVideo): PlaylistVideoRecord {
  return {
    video_id: v.videoId,
    title: v.title,
    index: v.index,
    length_seconds: v.lengthSeconds ?? null,
    length_text: v.lengthText ?? null,
    author: v.author ?? null,
    channel_id: v.channelId ?? null,
    thumbnails: v.thumbnails,
  };
}

/** The playlist details of a first page (everything but the videos and paging). */
export function playlistDetailsRecord(p: PlaylistPage): Record<string, unknown> {
  return {
    playlist_id: p.playlistId,
    title: p.title ?? null,
    description: p.description ?? null,
    video_count: p.videoCount ?? null,
    view_count_text: p.viewCountText ?? null,
    author: p.author ?? null,
    thumbnails: p.thumbnails ?? [],
  };
}

/** A search result record. */
export function searchResultRecord(item: SearchItem): SearchResultRecord {
  const url =
    item.type === 'channel'
      ? channelUrl(item.id)
      : item.type === 'playlist'
        ? `https://www.youtube.com/playlist?list=${item.id}`
        : item.type === 'shorts'
          ? `https://www.youtube.com/shorts/${item.id}`
          : watchUrl(item.id);
  return {
    id: item.id,
    type: item.type,
    title: item.title,
    channel_title: item.channelTitle ?? null,
    channel_id: item.channelId ?? null,
    duration_seconds: item.durationSeconds ?? null,
    view_count: item.viewCount ?? null,
    upload_date: item.publishedText ?? null,
    thumbnail_url: item.thumbnailUrl ?? null,
    url,
  };
}

const UNIT_SECONDS: Record<string, number> = {
  second: 1,
  minute: 60,
  hour: 3600,
  day: 86_400,
  week: 604_800,
  month: 2_592_000,
  year: 31_536_000,
};

/**
 * Approximate age in seconds of YouTube's relative dates ("3 years ago", "Streamed 2 weeks ago",
 * "1 day ago"); undefined when the text is not of that form. Used to order search results by
 * upload date, which YouTube no longer does server-side.
 */
export function relativeAgeSeconds(text: string | undefined): number | undefined {
  if (!text) return undefined;
  const m = /(\d+)\s+(second|minute|hour|day|week|month|year)s?\s+ago/i.exec(text);
  if (!m) return undefined;
  return Number(m[1]) * (UNIT_SECONDS[m[2]!.toLowerCase()] ?? 0);
}
