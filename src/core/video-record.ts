/**
 * The API's video records (snake_case) from the Upstream's {@link PlayerData} and
 * {@link VideoExtras}: basic-info, the alternative's fast and full records (decisions.md, Videos;
 * api-spec.md, Video records), with the heatmap's peaks and "most replayed" span.
 * @module
 */
import type { HeatDecoration, HeatMarker, PlayerData, Thumbnail, VideoExtras } from '../ports/upstream.ts';
import { humanTime } from './render/time.ts';
import { type AvailableLanguage, availableLanguages } from './tracks.ts';

/** The channel of a video record; `subscribers` and `avatar_url` only in full records. */
export interface ChannelRecord {
  id: string;
  title: string;
  url: string;
  subscribers?: string;
  avatar_url?: string;
}

/** `GET /v1/videos/{id}/basic-info`: what the player answer alone tells. */
export interface BasicInfoRecord {
  video_id: string;
  title: string;
  author: string;
  channel_id: string;
  channel: ChannelRecord;
  length_seconds: number;
  duration_seconds: number;
  view_count: number;
  /** Omitted when the video has none. */
  keywords?: string[];
  thumbnails: Thumbnail[];
  available_languages: AvailableLanguage[];
}

/** The alternative's fast record (`?mode=fast`): basic-info plus the description. */
export interface FastVideoRecord extends BasicInfoRecord {
  description: string;
  mode: 'fast';
}

/** A chapter of a full record. */
export interface ChapterRecord {
  title: string;
  start_time_seconds: number;
  /** `m:ss` below an hour, `h:mm:ss` from one hour on. */
  time_description: string;
  thumbnails?: Thumbnail[];
}

/** A highlighted span of the heatmap. */
export interface HeatSpanRecord {
  start_seconds: number;
  end_seconds: number;
  intensity: number;
  label: string;
}

/** The heatmap of a full record. */
export interface HeatmapRecord {
  markers: { start_seconds: number; duration_seconds: number; intensity: number }[];
  peaks: HeatSpanRecord[];
  most_replayed: HeatSpanRecord;
}

/** The alternative's full record (`?mode=full`, `/video-info`). */
export interface FullVideoRecord extends Omit<FastVideoRecord, 'mode'> {
  /** Unix seconds. */
  published?: number;
  like_count?: number;
  chapters?: ChapterRecord[];
  heatmap?: HeatmapRecord;
  mode: 'full';
}

/** How {@link heatmapPeaks} picks peaks. */
export interface PeakOptions {
  /** At most this many peaks, the most intense ones (default 3, as YouTube marks). */
  maxPeaks?: number;
  /** Minimum prominence, as a share of the highest marker after the first (default 0.2). */
  minProminence?: number;
}

const r3 = (seconds: number): number => Math.round(seconds * 1000) / 1000;
const PEAK_LABEL = 'Peak';
const MOST_REPLAYED = 'Most replayed';

/** Basic-info: the fast record's fields that need only the player answer, without description. */
export function basicInfoRecord(player: PlayerData): BasicInfoRecord {
  return {
    video_id: player.videoId,
    title: player.title,
    author: player.author,
    channel_id: player.channelId,
    channel: {
      id: player.channelId,
      title: player.author,
      url: `https://www.youtube.com/channel/${player.channelId}`,
    },
    length_seconds: player.lengthSeconds,
    duration_seconds: player.lengthSeconds,
    view_count: player.viewCount,
    ...(player.keywords.length > 0 ? { keywords: [...player.keywords] } : {}),
    thumbnails: player.thumbnails.map((t) => ({ ...t })),
    available_languages: availableLanguages(player.tracks),
  };
}

/** The fast record (`mode: 'fast'`): basic-info plus the description. */
export function fastVideoRecord(player: PlayerData): FastVideoRecord {
  return { ...basicInfoRecord(player), description: player.description, mode: 'fast' };
}

/** The full record (`mode: 'full'`); chapters, heatmap, likes and date are omitted when unknown. */
export function fullVideoRecord(
  player: PlayerData,
  extras: VideoExtras,
  options?: PeakOptions,
): FullVideoRecord {
  const base = basicInfoRecord(player);
  const channel: ChannelRecord = { ...base.channel };
  if (extras.channelSubscribersText !== undefined) channel.subscribers = extras.channelSubscribersText;
  if (extras.channelAvatarUrl !== undefined) channel.avatar_url = extras.channelAvatarUrl;
  const full: FullVideoRecord = {
    ...base,
    channel,
    description: extras.description?.trim() ? extras.description : player.description,
    mode: 'full',
  };
  if (extras.publishedAt !== undefined) full.published = extras.publishedAt;
  if (extras.likeCount !== undefined) full.like_count = extras.likeCount;
  if (extras.chapters.length > 0) {
    full.chapters = extras.chapters.map((c) => ({
      title: c.title,
      start_time_seconds: c.startSeconds,
      time_description: humanTime(c.startSeconds),
      ...(c.thumbnails && c.thumbnails.length > 0 ? { thumbnails: c.thumbnails.map((t) => ({ ...t })) } : {}),
    }));
  }
  const heatmap =
    extras.heatmap && heatmapRecord(extras.heatmap.markers, extras.heatmap.decorations, options);
  if (heatmap) full.heatmap = heatmap;
  return full;
}

/** The heatmap record, or undefined when there are no markers. */
export function heatmapRecord(
  markers: readonly HeatMarker[],
  decorations: readonly HeatDecoration[],
  options?: PeakOptions,
): HeatmapRecord | undefined {
  if (markers.length === 0) return undefined;
  const peaks = heatmapPeaks(markers, decorations, options);
  return {
    markers: markers.map((m) => ({
      start_seconds: m.startSeconds,
      duration_seconds: m.durationSeconds,
      intensity: m.intensity,
    })),
    peaks,
    most_replayed: mostReplayed(markers, decorations, peaks),
  };
}

/** The highest marker intensity overlapping `[start, end)`, or undefined. */
function maxWithin(markers: readonly HeatMarker[], start: number, end: number): number | undefined {
  let best: number | undefined;
  for (const m of markers) {
    if (m.startSeconds < end && m.startSeconds + m.durationSeconds > start) {
      best = best === undefined || m.intensity > best ? m.intensity : best;
    }
  }
  return best;
}

/**
 * "Most replayed": of YouTube's decorations, the one over the most intense marker (intensity =
 * that marker's); without decorations the most intense peak; without peaks the most intense
 * marker. Labelled with YouTube's label, else "Most replayed".
 */
function mostReplayed(
  markers: readonly HeatMarker[],
  decorations: readonly HeatDecoration[],
  peaks: readonly HeatSpanRecord[],
): HeatSpanRecord {
  let best: HeatSpanRecord | undefined;
  for (const d of decorations) {
    const intensity = maxWithin(markers, d.startSeconds, d.endSeconds);
    if (intensity === undefined || (best && intensity <= best.intensity)) continue;
    best = {
      start_seconds: d.startSeconds,
      end_seconds: d.endSeconds,
      intensity,
      label: d.label || MOST_REPLAYED,
    };
  }
  if (best) return best;
  const top = [...peaks].sort((a, b) => b.intensity - a.intensity)[0];
  if (top) return { ...top, label: MOST_REPLAYED };
  const m = markers.reduce((a, b) => (b.intensity > a.intensity ? b : a));
  return {
    start_seconds: m.startSeconds,
    end_seconds: r3(m.startSeconds + m.durationSeconds),
    intensity: m.intensity,
    label: MOST_REPLAYED,
  };
}

/**
 * Peaks of the heatmap, in time order. Rule: the first marker (the video start, inflated by
 * every view) is ignored; a peak is a local maximum (plateaus count once) whose topographic
 * prominence (height above the higher of the two lowest points before reaching a higher marker
 * on either side) is at least `minProminence` × the highest marker; its span is the run of
 * markers around it above half its prominence; spans that touch are merged (the higher peak
 * kept); the `maxPeaks` most intense remain. A peak overlapping a YouTube decoration takes its
 * label ("Most replayed"), else "Peak".
 */
export function heatmapPeaks(
  markers: readonly HeatMarker[],
  decorations: readonly HeatDecoration[],
  options: PeakOptions = {},
): HeatSpanRecord[] {
  const { maxPeaks = 3, minProminence = 0.2 } = options;
  const ms = markers.slice(1);
  const h = ms.map((m) => m.intensity);
  const ref = Math.max(0, ...h);
  if (ref <= 0) return [];
  const spans: { from: number; to: number; top: number }[] = [];
  for (let i = 0; i < h.length; i++) {
    let j = i;
    while (j + 1 < h.length && h[j + 1] === h[i]) j++;
    const left = i === 0 ? -1 : h[i - 1]!;
    const right = j + 1 >= h.length ? -1 : h[j + 1]!;
    const top = h[i]!;
    if (left < top && right < top) {
      let lo = top;
      for (let a = i - 1; a >= 0 && h[a]! <= top; a--) lo = Math.min(lo, h[a]!);
      let hi = top;
      for (let b = j + 1; b < h.length && h[b]! <= top; b++) hi = Math.min(hi, h[b]!);
      const prominence = top - Math.max(lo, hi);
      if (prominence > 0 && prominence >= minProminence * ref) {
        const level = top - prominence / 2;
        let from = i;
        while (from > 0 && h[from - 1]! > level) from--;
        let to = j;
        while (to + 1 < h.length && h[to + 1]! > level) to++;
        spans.push({ from, to, top });
      }
    }
    i = j;
  }
  const merged: typeof spans = [];
  for (const s of spans.sort((a, b) => a.from - b.from)) {
    const last = merged[merged.length - 1];
    if (last && s.from <= last.to + 1) {
      last.to = Math.max(last.to, s.to);
      last.top = Math.max(last.top, s.top);
    } else merged.push({ ...s });
  }
  return merged
    .sort((a, b) => b.top - a.top)
    .slice(0, maxPeaks)
    .sort((a, b) => a.from - b.from)
    .map((s) => {
      const start = ms[s.from]!.startSeconds;
      const end = r3(ms[s.to]!.startSeconds + ms[s.to]!.durationSeconds);
      const deco = decorations.find((d) => d.startSeconds < end && d.endSeconds > start);
      return { start_seconds: start, end_seconds: end, intensity: s.top, label: deco?.label || PEAK_LABEL };
    });
}
