import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors.ts';
import { decodeBase64Url, encodeBase64Url } from './base64url.ts';
import {
  CURSOR_CLOCK_SKEW_MS,
  CURSOR_VERSION,
  type CursorBinding,
  decodeCursor,
  encodeCursor,
  MAX_CURSOR_LENGTH,
} from './cursor.ts';

const SECRET = new TextEncoder().encode('test-secret-0123456789abcdef-xyz');
const OTHER_SECRET = new TextEncoder().encode('test-secret-0123456789abcdef-xyZ');
const NOW = 1_767_225_600_000; // 2026-01-01T00:00:00Z
const TOKEN =
  '4qmFsgKbARIYVUN1QVhGa2dzdzFMN3hhQ2ZuZDVKSk93GjJFZ1oyYVdSbGIzTVlBeUFBTUFFNEFlb0RGVU5uYjBsMWFYTkVTVVJSVFROQlp6QjJVWEE9';
const BINDING: CursorBinding = {
  route: 'channels.videos',
  filters: { id: 'UCuAXFkgsw1L7xaCfnd5JJOw', sort: 'newest' },
};

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('invalid_cursor');
    expect((error as ApiError).status).toBe(400);
    return error as ApiError;
  }
  throw new Error('expected invalid_cursor, the cursor was accepted');
}

const issue = (binding: CursorBinding = BINDING, token = TOKEN, now = NOW): Promise<string> =>
  encodeCursor(SECRET, { ...binding, token }, now);

describe('encodeCursor / decodeCursor', () => {
  it('round-trips the token', async () => {
    const cursor = await issue();
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await decodeCursor(SECRET, cursor, BINDING, NOW)).toBe(TOKEN);
  });

  it('is compact: header + token + 16-byte tag, base64url', async () => {
    const cursor = await issue(BINDING, 'abc');
    expect(cursor).toHaveLength(Math.ceil(((7 + 3 + 16) * 4) / 3));
    expect(decodeBase64Url(cursor)?.[0]).toBe(CURSOR_VERSION);
  });

  it.each([
    ['empty token', ''],
    ['Unicode token', 'żółw 🐢 トークン'],
    ['token with a BOM', '\ufeffabc'],
    ['token with NUL', 'a\u0000b'],
  ])('round-trips %s', async (_name, token) => {
    expect(await decodeCursor(SECRET, await issue(BINDING, token), BINDING, NOW)).toBe(token);
  });

  it('is deterministic for the same inputs', async () => {
    expect(await issue()).toBe(await issue());
  });

  it('ignores undefined filters and filter order', async () => {
    const cursor = await issue({ route: 'search', filters: { q: 'cats', type: 'video', sort: undefined } });
    const token = await decodeCursor(
      SECRET,
      cursor,
      { route: 'search', filters: { type: 'video', q: 'cats' } },
      NOW,
    );
    expect(token).toBe(TOKEN);
  });
});

describe('decodeCursor refuses', () => {
  it.each<[string, CursorBinding]>([
    ['another route', { route: 'channels.streams', filters: BINDING.filters }],
    ['another filter value', { route: BINDING.route, filters: { ...BINDING.filters, sort: 'popular' } }],
    ['a missing filter', { route: BINDING.route, filters: { id: BINDING.filters.id } }],
    ['an extra filter', { route: BINDING.route, filters: { ...BINDING.filters, gl: 'US' } }],
    [
      'an empty-string filter instead of an absent one',
      { route: BINDING.route, filters: { ...BINDING.filters, gl: '' } },
    ],
    ['a filter moved into the route', { route: `${BINDING.route}sort`, filters: { id: BINDING.filters.id } }],
  ])('a cursor presented with %s', async (_name, expected) => {
    const error = await rejection(decodeCursor(SECRET, await issue(), expected, NOW));
    expect(error.message).toMatch(/does not belong/);
  });

  it('a cursor signed with another secret', async () => {
    await rejection(decodeCursor(OTHER_SECRET, await issue(), BINDING, NOW));
  });

  it.each([
    ['empty', ''],
    ['garbage', 'not a cursor'],
    ['padding', 'AAAA=='],
    ['base64 alphabet', 'ab+/'],
    ['too short', encodeBase64Url(new Uint8Array(22))],
    ['only a header', encodeBase64Url(new Uint8Array([1, 0, 0, 0, 0, 0, 0]))],
    ['too long', 'A'.repeat(MAX_CURSOR_LENGTH + 1)],
    ['huge', 'A'.repeat(1_000_000)],
    ['JSON', '{"token":"x"}'],
    ['non-ASCII', 'ÄÖÜ'],
  ])('%s', async (_name, cursor) => {
    await rejection(decodeCursor(SECRET, cursor, BINDING, NOW));
  });

  it('another version, with its own message', async () => {
    const bytes = decodeBase64Url(await issue())!;
    bytes[0] = 2;
    const error = await rejection(decodeCursor(SECRET, encodeBase64Url(bytes), BINDING, NOW));
    expect(error.message).toMatch(/version/);
  });

  it('a truncated cursor', async () => {
    const cursor = await issue();
    for (const cut of [1, 2, 3, 4, 10, 22, cursor.length - 1]) {
      await rejection(decodeCursor(SECRET, cursor.slice(0, -cut), BINDING, NOW));
    }
  });

  it('a cursor with bytes appended', async () => {
    await rejection(decodeCursor(SECRET, `${await issue()}AAAA`, BINDING, NOW));
  });
});

describe('cursor age (maxAgeMs)', () => {
  const HOUR = 3_600_000;

  it.each([
    ['just issued', 0, true],
    ['exactly maxAge old', HOUR, true],
    ['older than maxAge', HOUR + 1, false],
    ['a day old', 24 * HOUR, false],
    ['issued slightly in the future (skew)', -CURSOR_CLOCK_SKEW_MS, true],
    ['issued beyond the skew in the future', -CURSOR_CLOCK_SKEW_MS - 1, false],
  ])('%s', async (_name, age, ok) => {
    const decoding = decodeCursor(SECRET, await issue(), BINDING, NOW + age, HOUR);
    if (ok) expect(await decoding).toBe(TOKEN);
    else await rejection(decoding);
  });

  it('expired cursors say so', async () => {
    const error = await rejection(decodeCursor(SECRET, await issue(), BINDING, NOW + 2 * HOUR, HOUR));
    expect(error.message).toMatch(/expired/);
  });

  it('is not checked without maxAgeMs', async () => {
    expect(await decodeCursor(SECRET, await issue(), BINDING, NOW + 365 * 24 * HOUR)).toBe(TOKEN);
  });

  it('round-trips issue times from 0 to 2^48 - 1', async () => {
    for (const now of [0, 1, 2 ** 32 - 1, 2 ** 32, NOW, 2 ** 48 - 1]) {
      const cursor = await issue(BINDING, TOKEN, now);
      expect(await decodeCursor(SECRET, cursor, BINDING, now, 0)).toBe(TOKEN);
      await rejection(decodeCursor(SECRET, cursor, BINDING, now + 1, 0));
    }
  });
});

describe('misuse by the server (not the client)', () => {
  it('an empty secret is a RangeError', async () => {
    await expect(encodeCursor(new Uint8Array(), { ...BINDING, token: 'x' }, NOW)).rejects.toThrow(RangeError);
    await expect(decodeCursor(new Uint8Array(), 'AAAA', BINDING, NOW)).rejects.toThrow(RangeError);
  });

  it.each([-1, 1.5, Number.NaN, 2 ** 48])('now = %d is a RangeError', async (now) => {
    await expect(encodeCursor(SECRET, { ...BINDING, token: 'x' }, now)).rejects.toThrow(RangeError);
  });

  it('a token that cannot be wrapped is an upstream_error', async () => {
    await expect(
      encodeCursor(SECRET, { ...BINDING, token: 'x'.repeat(MAX_CURSOR_LENGTH) }, NOW),
    ).rejects.toMatchObject({
      code: 'upstream_error',
    });
    await expect(encodeCursor(SECRET, { ...BINDING, token: 'a\ud800b' }, NOW)).rejects.toMatchObject({
      code: 'upstream_error',
    });
  });

  it('the longest wrappable token still decodes', async () => {
    const token = 'x'.repeat(Math.floor((MAX_CURSOR_LENGTH * 3) / 4) - 23);
    const cursor = await issue(BINDING, token);
    expect(cursor.length).toBeLessThanOrEqual(MAX_CURSOR_LENGTH);
    expect(await decodeCursor(SECRET, cursor, BINDING, NOW)).toBe(token);
  });
});

const filtersArb = fc.dictionary(
  fc.string({ maxLength: 12 }),
  fc.option(fc.string({ unit: 'binary', maxLength: 20 }), { nil: undefined }),
  { maxKeys: 6 },
);
const tokenArb = fc.string({ unit: 'binary', maxLength: 300 });
const base64UrlChar = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_');

describe('properties', () => {
  it('round-trips arbitrary tokens, routes and filters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 30 }), filtersArb, tokenArb, async (route, filters, token) => {
        const cursor = await encodeCursor(SECRET, { route, filters, token }, NOW);
        expect(await decodeCursor(SECRET, cursor, { route, filters }, NOW, 1000)).toBe(token);
      }),
    );
  });

  it('filters are order-independent', async () => {
    await fc.assert(
      fc.asyncProperty(filtersArb, tokenArb, async (filters, token) => {
        const reversed = Object.fromEntries(Object.entries(filters).reverse());
        const cursor = await encodeCursor(SECRET, { route: 'r', filters, token }, NOW);
        expect(await encodeCursor(SECRET, { route: 'r', filters: reversed, token }, NOW)).toBe(cursor);
        expect(await decodeCursor(SECRET, cursor, { route: 'r', filters: reversed }, NOW)).toBe(token);
      }),
    );
  });

  it('any single-character change is invalid_cursor', async () => {
    await fc.assert(
      fc.asyncProperty(
        tokenArb,
        fc.nat(),
        fc.oneof(base64UrlChar, fc.constantFrom('=', '+', '/', ' ', '%', 'é')),
        async (token, n, ch) => {
          const cursor = await encodeCursor(SECRET, { ...BINDING, token }, NOW);
          const at = n % cursor.length;
          fc.pre(cursor[at] !== ch);
          await rejection(
            decodeCursor(SECRET, cursor.slice(0, at) + ch + cursor.slice(at + 1), BINDING, NOW),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('any single-bit flip of the decoded bytes is invalid_cursor', async () => {
    await fc.assert(
      fc.asyncProperty(tokenArb, fc.nat(), fc.integer({ min: 0, max: 7 }), async (token, n, bit) => {
        const bytes = decodeBase64Url(await encodeCursor(SECRET, { ...BINDING, token }, NOW))!;
        const at = n % bytes.length;
        bytes[at] = bytes[at]! ^ (1 << bit);
        await rejection(decodeCursor(SECRET, encodeBase64Url(bytes), BINDING, NOW));
      }),
      { numRuns: 300 },
    );
  });

  it('arbitrary input is invalid_cursor, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          fc.string({ unit: base64UrlChar, maxLength: 200 }),
          fc.uint8Array({ maxLength: 200 }).map(encodeBase64Url),
          fc
            .uint8Array({ minLength: 23, maxLength: 200 })
            .map((b) => encodeBase64Url(Uint8Array.of(1, ...b))),
        ),
        async (cursor) => {
          await rejection(decodeCursor(SECRET, cursor, BINDING, NOW, 1000));
        },
      ),
      { numRuns: 500 },
    );
  });
});
