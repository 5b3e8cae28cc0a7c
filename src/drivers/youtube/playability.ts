/**
 * Classification of a player response's `playabilityStatus` (youtube-protocol.md §3, §9) into
 * the API's errors. Statuses seen: `OK`, `LOGIN_REQUIRED` (bot check, age gate, private),
 * `UNPLAYABLE` (members, Premium, geo), `ERROR` (unavailable), `LIVE_STREAM_OFFLINE` (scheduled
 * live: not an error, the metadata is there), and `{}` (ANDROID reel endpoint, invalid id).
 * @module
 */
import { ApiError } from '../../errors.ts';
import { arr, at, bool, obj, ParseError, str, text } from './json.ts';

/** Seconds a client should wait after YouTube's bot check before retrying. */
export const BOT_CHECK_RETRY_AFTER = 60;

/**
 * The player answered for another video than the one requested (ANDROID sometimes returns a
 * "watch on the latest version" video). The client tries its next player client; if it escapes,
 * it is a {@link ParseError} and so becomes `502 upstream_error`.
 */
export class WrongVideoError extends ParseError {
  readonly requested: string;
  readonly received: string;
  constructor(requested: string, received: string) {
    super('videoDetails.videoId', `player answered for video ${received} instead of ${requested}`);
    this.name = 'WrongVideoError';
    this.requested = requested;
    this.received = received;
  }
}

/** The player response inside `body`: the body itself, or the reel endpoint's `playerResponse`. */
export function playerResponseOf(body: unknown): Record<string, unknown> | undefined {
  const o = obj(body);
  if (!o) return undefined;
  return obj(o.playerResponse) ?? o;
}

/** YouTube's own words about why a video does not play (reason first, then the details). */
function textsOf(status: Record<string, unknown>): { reason: string; details: string[] } {
  const screen = obj(at(status, 'errorScreen', 'playerErrorMessageRenderer'));
  const dialog = obj(at(status, 'errorScreen', 'confirmDialogRenderer'));
  const reason = str(status.reason) ?? text(screen?.reason) ?? str(status.reasonTitle) ?? '';
  const details = [
    text(screen?.subreason),
    ...arr(status.messages).map(str),
    ...arr(dialog?.dialogMessages).map(text),
  ].filter((t): t is string => t !== undefined && t.trim() !== '' && t !== reason);
  return { reason, details };
}

/** At most 200 characters of YouTube's reason, for a message. */
function quote(reason: string): string {
  const flat = reason.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 199)}…` : flat;
}

const BOT = /\bnot a bot\b|unusual traffic|automated queries/i;
const AGE = /\binappropriate\b|\bage[- ]?(?:restrict|gate|verif)|\bconfirm your age\b|\bage\b/i;
const PRIVATE = /\bprivate\b/i;
const PAID = /\bpremium\b|\bpayment\b|\bpurchas|\brent(?:al|ed)?\b|\bpaid\b/i;
const MEMBERS = /\bmembers?\b|\bmembership\b|\bjoin this channel\b/i;
const REGION = /\bcountry\b|\bcountries\b|\bregion\b|\byour location\b/i;

/**
 * Throws the API error for a non-playable player response, or returns when the video's metadata
 * can be read (`OK`, and `LIVE_STREAM_OFFLINE`/upcoming streams: the transcript service later
 * answers `live_stream_not_ready` for those). Accepts the reel endpoint's `{playerResponse}` body.
 *
 * - the answer names another video → {@link WrongVideoError} (try the next player client);
 * - bot check ("Sign in to confirm you’re not a bot") → `upstream_blocked`, retry after 60 s;
 * - age gate → `age_restricted`; private → `private_video`;
 * - YouTube Premium / Music Premium / paid or rented content → `members_only` (403: the video
 *   needs a paid subscription; the message says which), channel memberships → `members_only`;
 * - "…not made this video available in your country" → `region_blocked`;
 * - `{}`, `ERROR`, removed, terminated and every other non-OK status → `video_unavailable` with
 *   YouTube's reason in the message (never "no captions": the caller decides on captions later).
 * Throws {@link ParseError} when `player` is not an object or has details but no status.
 */
export function classifyPlayability(player: unknown, requestedId: string): void {
  const response = playerResponseOf(player);
  if (!response) throw new ParseError('playabilityStatus', 'player response is not a JSON object');
  const received = str(at(response, 'videoDetails', 'videoId'));
  if (received !== undefined && received !== requestedId) throw new WrongVideoError(requestedId, received);
  const status = obj(response.playabilityStatus);
  if (!status) {
    if (response.videoDetails === undefined) {
      throw new ApiError('video_unavailable', `Video ${requestedId} does not exist or is unavailable.`);
    }
    throw new ParseError('playabilityStatus');
  }
  const code = str(status.status) ?? '';
  if (code === 'OK') return;
  const { reason, details } = textsOf(status);
  const cause = { playabilityStatus: code, reason, details };
  const all = [reason, ...details].join('\n');
  if (BOT.test(all)) {
    throw new ApiError(
      'upstream_blocked',
      'YouTube asked to confirm that tubescribe is not a bot; retry later.',
      {
        retryAfter: BOT_CHECK_RETRY_AFTER,
        cause,
      },
    );
  }
  if (code === 'LIVE_STREAM_OFFLINE') return;
  const id = requestedId;
  if (code === 'AGE_CHECK_REQUIRED' || code === 'AGE_VERIFICATION_REQUIRED' || AGE.test(all)) {
    throw new ApiError('age_restricted', `Video ${id} is age-restricted.`, { cause });
  }
  if (PRIVATE.test(all)) throw new ApiError('private_video', `Video ${id} is private.`, { cause });
  if (PAID.test(all)) {
    const why = reason === '' ? '' : ` (YouTube: "${quote(reason)}")`;
    throw new ApiError('members_only', `Video ${id} needs a paid YouTube subscription or purchase${why}.`, {
      cause,
    });
  }
  if (MEMBERS.test(all)) {
    throw new ApiError('members_only', `Video ${id} is available to the channel's members only.`, { cause });
  }
  if (REGION.test(all)) {
    throw new ApiError('region_blocked', `Video ${id} is not available in the country tubescribe runs in.`, {
      cause,
    });
  }
  if (isUpcoming(response, status)) return;
  const why = reason === '' ? '.' : `: ${quote(reason)}`;
  throw new ApiError('video_unavailable', `Video ${id} is unavailable${why}`, { cause });
}

/** A scheduled stream or premiere that YouTube reports with a non-OK status. */
function isUpcoming(response: Record<string, unknown>, status: Record<string, unknown>): boolean {
  return (
    bool(at(response, 'videoDetails', 'isUpcoming')) === true ||
    obj(at(status, 'liveStreamability', 'liveStreamabilityRenderer', 'offlineSlate')) !== undefined
  );
}
