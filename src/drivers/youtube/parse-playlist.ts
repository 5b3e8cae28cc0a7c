/**
 * A playlist's `browse` (`VL<id>`) answer and its continuation pages → {@link PlaylistPage}.
 * Header from `pageHeaderRenderer` (2024+) or `playlistHeaderRenderer` (older), the sidebar's
 * stats and owner, `playlistMetadataRenderer` and `microformat`; items as `playlistVideoRenderer`
 * (until mid-2026) or `lockupViewModel` (from Sept 2026).
 * @module
 */
import { ApiError } from '../../errors.ts';
import type { PlaylistPage, PlaylistVideo, Thumbnail } from '../../ports/upstream.ts';
import {
  arr,
  at,
  findAll,
  findFirst,
  type Json,
  type JsonObject,
  num,
  obj,
  ParseError,
  str,
  text,
} from './json.ts';
import { assignDefined, errorAlert, parseCompactNumber, thumbnailsOf } from './parse-channel.ts';
import {
  continuationItems,
  flattenItems,
  lockupVideoCard,
  mapItems,
  parseDurationText,
  readLockup,
} from './parse-channel-tab.ts';
import { innertubeError, isNotFoundError } from './parse-resolve.ts';

/** The request a playlist page answers. */
export interface PlaylistContext {
  /** The playlist id without the `VL` prefix. */
  playlistId: string;
  /** 1-based position of this page's first item, for layouts whose items carry no index (default 1). */
  firstIndex?: number;
}

interface Header {
  title: string | undefined;
  description: string | undefined;
  videoCountText: string | undefined;
  viewCountText: string | undefined;
  author: string | undefined;
  thumbnails: Thumbnail[];
}

function readHeader(json: Json): Header {
  const vm = obj(at(json, 'header', 'pageHeaderRenderer', 'content', 'pageHeaderViewModel'));
  const legacy = obj(at(json, 'header', 'playlistHeaderRenderer'));
  const sidebarItems = arr(at(json, 'sidebar', 'playlistSidebarRenderer', 'items'));
  const primary = sidebarItems.map((i) => obj(at(i, 'playlistSidebarPrimaryInfoRenderer'))).find(Boolean);
  const owner = sidebarItems
    .map((i) => at(i, 'playlistSidebarSecondaryInfoRenderer', 'videoOwner'))
    .find(Boolean);
  const micro = obj(at(json, 'microformat', 'microformatDataRenderer'));
  const meta = obj(at(json, 'metadata', 'playlistMetadataRenderer'));

  const headerParts: string[] = [];
  for (const row of arr(at(vm, 'metadata', 'contentMetadataViewModel', 'metadataRows'))) {
    for (const part of arr(at(row, 'metadataParts'))) {
      const t = text(at(part, 'text')) ?? text(at(part, 'avatarStack', 'avatarStackViewModel', 'text'));
      if (t) headerParts.push(t);
    }
  }
  const stats = [
    ...arr(primary?.stats).flatMap((s) => text(s) ?? []),
    ...arr(legacy?.stats).flatMap((s) => text(s) ?? []),
    ...headerParts,
    text(legacy?.numVideosText) ?? '',
    text(legacy?.viewCountText) ?? '',
  ];
  const byline = headerParts.find((p) => /^by\s/i.test(p))?.replace(/^by\s+/i, '');

  return {
    title:
      str(meta?.title) ??
      text(primary?.title) ??
      text(at(vm, 'title', 'dynamicTextViewModel', 'text')) ??
      text(legacy?.title) ??
      str(micro?.title),
    description:
      text(primary?.description) ??
      str(meta?.description) ??
      text(legacy?.descriptionText) ??
      text(at(vm, 'description', 'descriptionPreviewViewModel', 'description')) ??
      str(micro?.description),
    videoCountText: stats.find((s) => /\d.*\bvideos?\b|^no videos/i.test(s)) ?? text(at(primary, 'stats', 0)),
    viewCountText: stats.find((s) => /\bviews?\b/i.test(s)),
    author: text(at(owner, 'videoOwnerRenderer', 'title')) ?? byline ?? text(legacy?.ownerText),
    thumbnails:
      [
        thumbnailsOf(at(primary, 'thumbnailRenderer', 'playlistVideoThumbnailRenderer', 'thumbnail')),
        thumbnailsOf(at(vm, 'heroImage', 'contentPreviewImageViewModel', 'image')),
        thumbnailsOf(at(legacy, 'playlistHeaderBanner', 'heroPlaylistThumbnailRenderer', 'thumbnail')),
        thumbnailsOf(at(micro, 'thumbnail')),
      ].find((list) => list.length > 0) ?? [],
  };
}

/**
 * The channel a byline links to. A collaboration byline ("A and B") opens a dialog listing the
 * channels instead: the first listed channel is taken.
 */
export function bylineChannelId(byline: Json): string | undefined {
  return findAll(byline, 'browseEndpoint')
    .map((e) => str(e.browseId))
    .find((id) => id?.startsWith('UC'));
}

function videoOf(item: JsonObject, fallbackIndex: number): PlaylistVideo | undefined {
  const r = obj(item.playlistVideoRenderer);
  if (r) {
    const videoId = str(r.videoId);
    if (!videoId) return undefined;
    const watchIndex = num(at(r, 'navigationEndpoint', 'watchEndpoint', 'index'));
    const video: PlaylistVideo = {
      videoId,
      title: text(r.title) ?? '',
      index: num(text(r.index)) ?? (watchIndex !== undefined ? watchIndex + 1 : fallbackIndex),
      thumbnails: thumbnailsOf(r.thumbnail),
    };
    const lengthSeconds = num(r.lengthSeconds);
    const lengthText = text(r.lengthText);
    const author = text(r.shortBylineText);
    const channelId = bylineChannelId(r.shortBylineText);
    if (lengthSeconds !== undefined) video.lengthSeconds = lengthSeconds;
    else if (lengthText && parseDurationText(lengthText) !== undefined)
      video.lengthSeconds = parseDurationText(lengthText)!;
    if (lengthText) video.lengthText = lengthText;
    if (author) video.author = author;
    if (channelId) video.channelId = channelId;
    return video;
  }
  const lockup = obj(item.lockupViewModel);
  const l = lockup ? readLockup(lockup) : undefined;
  if (!l || (l.contentType !== '' && l.contentType !== 'LOCKUP_CONTENT_TYPE_VIDEO')) return undefined;
  const card = lockupVideoCard(l);
  const video: PlaylistVideo = {
    videoId: card.videoId,
    title: card.title,
    index: fallbackIndex,
    thumbnails: card.thumbnails,
  };
  const channel = l.rows.flat().find((p) => p.browseId?.startsWith('UC'));
  if (card.lengthSeconds !== undefined) video.lengthSeconds = card.lengthSeconds;
  if (card.lengthText) video.lengthText = card.lengthText;
  if (channel) {
    video.author = channel.text;
    video.channelId = channel.browseId!;
  }
  return video;
}

/**
 * One page of a playlist: the header fields whenever the answer carries them (first page, and
 * the sidebar YouTube repeats on continuations), the videos, and the next continuation.
 * @throws ApiError `playlist_not_found` for a missing, private or unviewable playlist (alerts
 *   only) or a 400/404 error body.
 * @throws ParseError for an answer with neither header nor items.
 */
export function parsePlaylist(json: Json, context: PlaylistContext): PlaylistPage {
  const error = innertubeError(json);
  if (error) {
    if (isNotFoundError(error)) throw new ApiError('playlist_not_found', 'Playlist not found.');
    throw new ParseError('error', `browse answered ${error.code} ${error.status}`);
  }
  const hasBody = ['contents', 'header', 'sidebar', 'onResponseReceivedActions'].some(
    (k) => at(json, k) !== undefined,
  );
  const alert = errorAlert(json);
  if (alert !== undefined && !hasBody) {
    throw new ApiError('playlist_not_found', 'Playlist not found, private or unviewable.', {
      details: { reason: alert },
    });
  }
  if (!hasBody) throw new ParseError('contents');

  const header = readHeader(json);
  const page = assignDefined<PlaylistPage>(
    { playlistId: context.playlistId, videos: [] },
    {
      title: header.title,
      description: header.description,
      videoCount: header.videoCountText ? parseCompactNumber(header.videoCountText) : undefined,
      viewCountText: header.viewCountText,
      author: header.author,
      thumbnails: header.thumbnails.length > 0 ? header.thumbnails : undefined,
    },
  );

  const list = findFirst(at(json, 'contents'), 'playlistVideoListRenderer');
  const raw =
    continuationItems(json) ??
    (list ? arr(list.contents) : arr(findFirst(at(json, 'contents'), 'sectionListRenderer')?.contents));
  let next = context.firstIndex ?? 1;
  const mapped = mapItems(flattenItems(raw), (item) => {
    const video = videoOf(item, next);
    if (video) next = video.index + 1;
    return video;
  });
  page.videos = mapped.items;
  if (mapped.continuation) page.continuation = mapped.continuation;
  return page;
}
