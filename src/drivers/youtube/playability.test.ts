import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ApiError, type ErrorCode } from '../../errors.ts';
import { ParseError } from './json.ts';
import {
  BOT_CHECK_RETRY_AFTER,
  classifyPlayability,
  playerResponseOf,
  WrongVideoError,
} from './playability.ts';

const cases = JSON.parse(
  readFileSync(new URL('./fixtures/playability.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;
const ID = 'FixtureVid1';

/** What classifyPlayability did with a case: `ok`, an error code, or the error class name. */
function outcome(body: unknown): string {
  try {
    classifyPlayability(body, ID);
    return 'ok';
  } catch (e) {
    if (e instanceof ApiError) return e.code;
    if (e instanceof WrongVideoError) return 'WrongVideoError';
    if (e instanceof ParseError) return 'ParseError';
    throw e;
  }
}

describe('classifyPlayability', () => {
  const rows: [string, ErrorCode | 'ok' | 'WrongVideoError' | 'ParseError'][] = [
    ['ok', 'ok'],
    ['botCheck', 'upstream_blocked'],
    ['botCheckStraightApostrophe', 'upstream_blocked'],
    ['ageGate', 'age_restricted'],
    ['ageConfirm', 'age_restricted'],
    ['ageCheckStatus', 'age_restricted'],
    ['private', 'private_video'],
    ['privateWeb', 'private_video'],
    ['members', 'members_only'],
    ['membersJoin', 'members_only'],
    ['musicPremium', 'members_only'],
    ['paidRental', 'members_only'],
    ['region', 'region_blocked'],
    ['regionInSubreason', 'region_blocked'],
    ['unavailable', 'video_unavailable'],
    ['terminated', 'video_unavailable'],
    ['unplayableGeneric', 'video_unavailable'],
    ['unknownStatus', 'video_unavailable'],
    ['emptyReel', 'video_unavailable'],
    ['reelEmptyPlayer', 'video_unavailable'],
    ['liveOffline', 'ok'],
    ['premiereUnplayable', 'ok'],
    ['wrongVideo', 'WrongVideoError'],
    ['detailsWithoutStatus', 'ParseError'],
  ];

  it('covers every fixture case', () => {
    expect(rows.map(([name]) => name).sort()).toEqual(Object.keys(cases).sort());
  });

  it.each(rows)('%s → %s', (name, expected) => {
    expect(outcome(cases[name])).toBe(expected);
  });

  it('marks the bot check retryable with a Retry-After', () => {
    expect(() => classifyPlayability(cases.botCheck, ID)).toThrow(
      expect.objectContaining({ status: 503, retryable: true, retryAfter: BOT_CHECK_RETRY_AFTER }),
    );
    expect(() => classifyPlayability(cases.botCheck, ID)).not.toThrow(/caption/i);
  });

  it("puts YouTube's reason in the message of generic and paid cases", () => {
    expect(() => classifyPlayability(cases.unknownStatus, ID)).toThrow(
      `Video ${ID} is unavailable: Custom Reason`,
    );
    expect(() => classifyPlayability(cases.unplayableGeneric, ID)).toThrow(/disabled by the video owner/);
    expect(() => classifyPlayability(cases.musicPremium, ID)).toThrow(
      /paid YouTube subscription.*Music Premium/,
    );
    expect(() => classifyPlayability(cases.members, ID)).toThrow(
      "Video FixtureVid1 is available to the channel's members only.",
    );
  });

  it('reports the wrong video with both ids', () => {
    expect(() => classifyPlayability(cases.wrongVideo, ID)).toThrow(
      expect.objectContaining({ requested: ID, received: 'OtherVideo1', path: 'videoDetails.videoId' }),
    );
    expect(() => classifyPlayability(cases.wrongVideo, ID)).toThrow(ParseError);
  });

  it('rejects bodies that are not objects', () => {
    for (const body of [null, 'text', [], 42]) expect(outcome(body)).toBe('ParseError');
  });

  it('unwraps the reel endpoint body', () => {
    expect(playerResponseOf({ playerResponse: { a: 1 } })).toEqual({ a: 1 });
    expect(playerResponseOf({ a: 1 })).toEqual({ a: 1 });
    expect(playerResponseOf(null)).toBeUndefined();
  });
});
