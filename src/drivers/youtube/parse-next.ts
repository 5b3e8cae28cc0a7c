/**
 * The WEB `/next` response (or the watch page's `ytInitialData`) → the watch-page extras:
 * chapters, heatmap, likes, channel subscribers and avatar, full description, date text
 * (youtube-protocol.md §3). Everything is optional: a missing part is left out, never an error.
 * @module
 */
import type { Chapter, HeatDecoration, HeatMarker, VideoExtras } from '../../ports/upstream.ts';
import { arr, at, findFirst, num, obj, ParseError, str, text } from './json.ts';
import { thumbnailsOf } from './parse-player.ts';

/** What `/next` tells about a video: {@link VideoExtras} without the publish date, plus hints. */
export type NextData = Omit<VideoExtras, 'publishedAt'> & {
  /** The video the response is about (`currentVideoEndpoint`), to check against the request. */
  videoId?: string;
  /** Exact view count from "22,111,847 views" (absent for live streams, which count viewers). */
  viewCount?: number;
  /** True when `likeCount` comes from a rounded label ("348K"), not the exact accessibility text. */
  likeCountApproximate?: boolean;
  /** The date line as shown, locale dependent ("19 Jun 2018", "Started streaming on 4 Jun 2026"). */
  dateText?: string;
  /** 00:00 UTC of the day in an English `dateText`, unix seconds: a fallback publish date. */
  dateTextSeconds?: number;
};

/** A count in a like button text: exact ("along with 348,977 other people", "7 likes"), or rounded ("348K", "6.8M"). */
export function parseLikeText(label: string): { count: number; exact: boolean } | undefined {
  const m = /(\d(?:[\d.,'\u00a0\u202f]*\d)?)\s*([kmb])?(?!\p{L})/iu.exec(label);
  if (!m) return undefined;
  const digits = m[1]!;
  const suffix = m[2]?.toLowerCase();
  if (suffix === undefined) return { count: Number(digits.replace(/\D/g, '')), exact: true };
  const value = Number(digits.replace(/[\s'\u00a0\u202f]/g, '').replace(',', '.'));
  if (!Number.isFinite(value)) return undefined;
  const scale = suffix === 'k' ? 1e3 : suffix === 'm' ? 1e6 : 1e9;
  return { count: Math.round(value * scale), exact: false };
}

/** The like count from the like button: exact label first, else the rounded one. */
function likesOf(primary: unknown): { count: number; exact: boolean } | undefined {
  const actions = at(primary, 'videoActions');
  const model = obj(at(findFirst(actions, 'likeButtonViewModel'), 'likeButtonViewModel'));
  const button = obj(
    at(
      model,
      'toggleButtonViewModel',
      'toggleButtonViewModel',
      'defaultButtonViewModel',
      'buttonViewModel',
    ) ?? at(findFirst(model, 'defaultButtonViewModel'), 'buttonViewModel'),
  );
  const legacy = obj(at(findFirst(actions, 'likeButton'), 'toggleButtonRenderer'));
  const labels = [
    str(button?.accessibilityText),
    str(at(legacy, 'accessibilityData', 'accessibilityData', 'label')),
    str(at(legacy, 'defaultText', 'accessibility', 'accessibilityData', 'label')),
    str(button?.title),
    text(legacy?.defaultText),
  ];
  let rounded: { count: number; exact: boolean } | undefined;
  for (const label of labels) {
    const parsed = label === undefined ? undefined : parseLikeText(label);
    if (parsed?.exact) return parsed;
    rounded ??= parsed;
  }
  return rounded;
}

/** Seconds from "1:02:03" / "12:05". */
function clockSeconds(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+(?::\d{1,2}){1,2}$/.test(value.trim())) return undefined;
  return value
    .trim()
    .split(':')
    .reduce((total, part) => total * 60 + Number(part), 0);
}

/** A chapter from a `chapterRenderer` or a `macroMarkersListItemRenderer`. */
function chapterOf(r: Record<string, unknown>): Chapter | undefined {
  const title = text(r.title);
  const ms = num(r.timeRangeStartMillis);
  const start =
    ms === undefined
      ? (num(at(r, 'onTap', 'watchEndpoint', 'startTimeSeconds')) ?? clockSeconds(text(r.timeDescription)))
      : ms / 1000;
  if (title === undefined || start === undefined) return undefined;
  const thumbnails = thumbnailsOf(r.thumbnail);
  return {
    title,
    startSeconds: Math.round(start * 1000) / 1000,
    ...(thumbnails.length > 0 ? { thumbnails } : {}),
  };
}

/** Chapters of `items` holding `key` renderers. */
function chaptersFrom(items: unknown[], key: string): Chapter[] {
  return items.flatMap((item) => {
    const r = obj(at(item, key));
    const c = r && chapterOf(r);
    return c ? [c] : [];
  });
}

const PLAYER_BAR = ['playerOverlays', 'playerOverlayRenderer', 'decoratedPlayerBarRenderer'];
const CHAPTER_KINDS = ['DESCRIPTION_CHAPTERS', 'AUTO_CHAPTERS'] as const;
const PANELS = [
  'engagement-panel-macro-markers-description-chapters',
  'engagement-panel-macro-markers-auto-chapters',
];

/** Chapters: the player bar's markers map (description chapters before auto chapters), the legacy chaptered bar, then the chapter panels. */
function chaptersOf(next: unknown): Chapter[] {
  const bar = at(next, ...PLAYER_BAR, 'decoratedPlayerBarRenderer', 'playerBar');
  const map = arr(at(bar, 'multiMarkersPlayerBarRenderer', 'markersMap'));
  for (const kind of CHAPTER_KINDS) {
    const entry = map.find((m) => at(m, 'key') === kind);
    const chapters = chaptersFrom(arr(at(entry, 'value', 'chapters')), 'chapterRenderer');
    if (chapters.length > 0) return chapters;
  }
  const legacy = chaptersFrom(arr(at(bar, 'chapteredPlayerBarRenderer', 'chapters')), 'chapterRenderer');
  if (legacy.length > 0) return legacy;
  const panels = arr(at(next, 'engagementPanels')).map((p) =>
    obj(at(p, 'engagementPanelSectionListRenderer')),
  );
  for (const id of PANELS) {
    const panel = panels.find((p) => p?.panelIdentifier === id || p?.targetId === id);
    const items = arr(at(panel, 'content', 'macroMarkersListRenderer', 'contents'));
    const chapters = chaptersFrom(items, 'macroMarkersListItemRenderer');
    if (chapters.length > 0) return chapters;
  }
  return [];
}

/** A marker from the entity (`startMillis`…) or the legacy `heatMarkerRenderer` shape. */
function markerOf(m: unknown): HeatMarker | undefined {
  const start = num(at(m, 'startMillis')) ?? num(at(m, 'timeRangeStartMillis'));
  const duration = num(at(m, 'durationMillis')) ?? num(at(m, 'markerDurationMillis'));
  const intensity =
    num(at(m, 'intensityScoreNormalized')) ?? num(at(m, 'heatMarkerIntensityScoreNormalized'));
  if (start === undefined || duration === undefined || intensity === undefined) return undefined;
  return { startSeconds: start / 1000, durationSeconds: duration / 1000, intensity };
}

/** A decoration (`timedMarkerDecorations[]` / legacy `timedMarkerDecorationRenderer`). */
function decorationOf(d: unknown): HeatDecoration | undefined {
  const start = num(at(d, 'visibleTimeRangeStartMillis'));
  const end = num(at(d, 'visibleTimeRangeEndMillis'));
  if (start === undefined || end === undefined) return undefined;
  return { startSeconds: start / 1000, endSeconds: end / 1000, label: text(at(d, 'label')) ?? '' };
}

const defined = <T>(v: T | undefined): v is T => v !== undefined;

/** The heatmap: the `macroMarkersListEntity` of type `MARKER_TYPE_HEATMAP`, else the legacy `heatmapRenderer`. */
function heatmapOf(next: unknown): NextData['heatmap'] {
  for (const mutation of arr(at(next, 'frameworkUpdates', 'entityBatchUpdate', 'mutations'))) {
    const list = obj(at(mutation, 'payload', 'macroMarkersListEntity', 'markersList'));
    if (list?.markerType !== 'MARKER_TYPE_HEATMAP') continue;
    const markers = arr(list.markers).map(markerOf).filter(defined);
    const decorations = arr(at(list, 'markersDecoration', 'timedMarkerDecorations')).map(decorationOf);
    if (markers.length > 0) return { markers, decorations: decorations.filter(defined) };
  }
  const legacy = findFirst(at(next, 'playerOverlays'), 'heatmapRenderer');
  const markers = arr(legacy?.heatMarkers)
    .map((m) => markerOf(at(m, 'heatMarkerRenderer')))
    .filter(defined);
  if (markers.length === 0) return undefined;
  const decorations = arr(legacy?.heatMarkersDecorations).map((d) =>
    decorationOf(at(d, 'timedMarkerDecorationRenderer')),
  );
  return { markers, decorations: decorations.filter(defined) };
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** 00:00 UTC (unix seconds) of an English date line: "19 Jun 2018", "Premiered Aug 4, 2022". */
export function parseDateText(value: string): number | undefined {
  const dmy = /\b(\d{1,2}) ([A-Za-z]{3})[a-z]*\.? (\d{4})\b/.exec(value);
  const mdy = /\b([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4})\b/.exec(value);
  const [day, month, year] = dmy ? [dmy[1], dmy[2], dmy[3]] : mdy ? [mdy[2], mdy[1], mdy[3]] : [];
  const index = MONTHS.indexOf(month?.toLowerCase() ?? '');
  if (index < 0) return undefined;
  return Date.UTC(Number(year), index, Number(day)) / 1000;
}

/** The largest thumbnail's URL. */
function largest(value: unknown): string | undefined {
  return thumbnailsOf(value).reduce<{ url: string; width: number } | undefined>(
    (best, t) => (best === undefined || t.width > best.width ? t : best),
    undefined,
  )?.url;
}

/** Parses a `/next` response. Throws {@link ParseError} when it has no watch-page contents at all. */
export function parseNext(next: unknown): NextData {
  const contents = arr(at(next, 'contents', 'twoColumnWatchNextResults', 'results', 'results', 'contents'));
  if (!obj(at(next, 'contents'))) throw new ParseError('contents', 'next response has no contents');
  const primary = contents.map((c) => obj(at(c, 'videoPrimaryInfoRenderer'))).find(defined);
  const secondary = contents.map((c) => obj(at(c, 'videoSecondaryInfoRenderer'))).find(defined);
  const owner = obj(at(secondary, 'owner', 'videoOwnerRenderer'));
  const out: NextData = { chapters: chaptersOf(next) };
  const videoId = str(at(next, 'currentVideoEndpoint', 'watchEndpoint', 'videoId'));
  if (videoId !== undefined) out.videoId = videoId;
  const views = obj(at(primary, 'viewCount', 'videoViewCountRenderer'));
  const viewText = text(views?.viewCount);
  if (views?.isLive !== true && viewText !== undefined && /\d/.test(viewText)) {
    out.viewCount = Number(viewText.replace(/\D/g, ''));
  }
  const likes = likesOf(primary);
  if (likes) {
    out.likeCount = likes.count;
    if (!likes.exact) out.likeCountApproximate = true;
  }
  const description = str(at(secondary, 'attributedDescription', 'content')) ?? text(secondary?.description);
  if (description !== undefined) out.description = description;
  const subscribers = text(owner?.subscriberCountText);
  if (subscribers !== undefined) out.channelSubscribersText = subscribers;
  const avatar = largest(owner?.thumbnail);
  if (avatar !== undefined) out.channelAvatarUrl = avatar;
  const dateText = text(primary?.dateText);
  if (dateText !== undefined) {
    out.dateText = dateText;
    const seconds = parseDateText(dateText);
    if (seconds !== undefined) out.dateTextSeconds = seconds;
  }
  const heatmap = heatmapOf(next);
  if (heatmap) out.heatmap = heatmap;
  return out;
}
