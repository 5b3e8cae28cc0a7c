import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import {
  chargeFor,
  DEFAULT_BILLING,
  DEFAULT_PACKS,
  DEFAULT_PRICES,
  isOperation,
  OPERATIONS,
  type Operation,
  resolveBilling,
  resolvePack,
  resolvePacks,
  resolvePricing,
} from './pricing.ts';

describe('DEFAULT_PRICES', () => {
  it.each<[Operation, number]>([
    ['transcript', 1],
    ['transcript_languages', 0],
    ['basic_info', 0],
    ['video_info', 1],
    ['video_fast', 1],
    ['video_full', 2],
    ['playlist_page', 1],
    ['comments_page', 1],
    ['channel', 1],
    ['channel_latest', 1],
    ['channel_videos_page', 1],
    ['channel_shorts_page', 1],
    ['channel_streams_page', 1],
    ['channel_playlists_page', 1],
    ['search_page', 1],
    ['suggestions', 0],
    ['account', 0],
    ['batch_status', 0],
    ['batch_transcript', 1],
    ['batch_basic_info', 0],
    ['batch_video_info_fast', 1],
    ['batch_video_info_full', 2],
  ])('%s costs %i', (op, credits) => {
    expect(DEFAULT_PRICES[op]).toBe(credits);
  });

  it('lists every operation once and is frozen', () => {
    expect(OPERATIONS).toHaveLength(22);
    expect(new Set(OPERATIONS).size).toBe(OPERATIONS.length);
    expect(Object.isFrozen(DEFAULT_PRICES)).toBe(true);
    expect(isOperation('transcript')).toBe(true);
    expect(isOperation('toString')).toBe(false);
  });
});

describe('resolvePricing', () => {
  it('returns the defaults without overrides', () => {
    expect(resolvePricing()).toEqual(DEFAULT_PRICES);
  });

  it('applies overrides and leaves the defaults alone', () => {
    const pricing = resolvePricing({ transcript: 3, suggestions: 1 });
    expect(pricing.transcript).toBe(3);
    expect(pricing.suggestions).toBe(1);
    expect(pricing.video_full).toBe(2);
    expect(DEFAULT_PRICES.transcript).toBe(1);
    expect(Object.isFrozen(pricing)).toBe(true);
  });

  it.each<[string, unknown, RegExp]>([
    ['transcripts', 1, /Unknown priced operation "transcripts"; known operations: transcript,/],
    ['__proto__', 1, /Unknown priced operation/],
    ['transcript', -1, /price of "transcript" must be a non-negative whole number/],
    ['transcript', 1.5, /non-negative whole number/],
    ['transcript', Number.NaN, /non-negative whole number/],
    ['transcript', Number.MAX_SAFE_INTEGER + 1, /non-negative whole number/],
    ['transcript', '1', /got "1"/],
  ])('rejects %s = %s', (name, value, message) => {
    const overrides = JSON.parse(`{${JSON.stringify(name)}: 0}`) as Record<string, unknown>;
    overrides[name] = value;
    expect(() => resolvePricing(overrides as Partial<Record<Operation, number>>)).toThrow(message);
  });

  it('accepts any non-negative safe integer for any operation', () => {
    fc.assert(
      fc.property(fc.constantFrom(...OPERATIONS), fc.nat(), (op, price) => {
        expect(resolvePricing({ [op]: price })[op]).toBe(price);
      }),
    );
  });
});

describe('billing', () => {
  it('charges cache hits by default', () => {
    expect(DEFAULT_BILLING.chargeCacheHits).toBe(true);
    expect(chargeFor(DEFAULT_PRICES, 'video_full', true, DEFAULT_BILLING)).toBe(2);
  });

  it.each([
    [true, true, 1],
    [true, false, 1],
    [false, true, 0],
    [false, false, 1],
  ])('chargeCacheHits=%s, cacheHit=%s → %i', (chargeCacheHits, cacheHit, credits) => {
    expect(chargeFor(DEFAULT_PRICES, 'transcript', cacheHit, resolveBilling({ chargeCacheHits }))).toBe(
      credits,
    );
  });

  it('rejects a non-boolean setting', () => {
    expect(() => resolveBilling({ chargeCacheHits: 'no' as unknown as boolean })).toThrow(/true or false/);
  });
});

describe('credit packs', () => {
  it.each([
    ['small', 2000],
    ['medium', 10000],
    ['large', 50000],
    [' Large ', 50000],
  ])('%s grants %i credits', (name, credits) => {
    expect(resolvePack(DEFAULT_PACKS, name)).toBe(credits);
  });

  it('rejects an unknown pack with invalid_parameter naming the known ones', () => {
    for (const name of ['huge', 'toString', '__proto__', '']) {
      try {
        resolvePack(DEFAULT_PACKS, name);
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(ApiError);
        expect((error as ApiError).code).toBe('invalid_parameter');
        expect((error as ApiError).message).toContain('small, medium, large');
      }
    }
  });

  it('adds and changes packs', () => {
    const packs = resolvePacks({ xl: 250_000, small: 1500 });
    expect(resolvePack(packs, 'xl')).toBe(250_000);
    expect(resolvePack(packs, 'small')).toBe(1500);
    expect(resolvePack(packs, 'medium')).toBe(10000);
  });

  it.each<[string, unknown, RegExp]>([
    ['Big Pack', 10, /Invalid credit pack name/],
    ['', 10, /Invalid credit pack name/],
    ['tiny', 0, /must be a positive whole number/],
    ['tiny', 2.5, /must be a positive whole number/],
  ])('rejects pack %j = %j', (name, credits, message) => {
    expect(() => resolvePacks({ [name]: credits as number })).toThrow(message);
  });
});
