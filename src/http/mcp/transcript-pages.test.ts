/** Paging laws of `get_transcript`: pages fit, never split a unit needlessly, and join to the whole. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PagePosition, pageOf, timestamp } from './transcript-pages.ts';

/** Every page of `units` from the start. */
function pages(units: string[] | unknown[], items: boolean, maxChars: number) {
  const out = [];
  let from: PagePosition | undefined = { unit: 0, offset: 0 };
  while (from) {
    const page = pageOf(units, items, from, maxChars);
    out.push(page);
    from = page.next;
  }
  return out;
}

describe('timestamp', () => {
  it.each([
    [0, '[00:00]'],
    [2.9, '[00:02]'],
    [61, '[01:01]'],
    [3600, '[1:00:00]'],
    [3725, '[1:02:05]'],
  ])('%s s → %s', (seconds, expected) => {
    expect(timestamp(seconds)).toBe(expected);
  });
});

describe('pageOf', () => {
  it('text pages hold at most max_chars, end at unit boundaries when units fit, and join to the whole', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 80 }), { maxLength: 60 }),
        fc.integer({ min: 20, max: 400 }),
        (raw, max) => {
          const units = raw.map((s) => `${s}\n`);
          const all = pages(units, false, max);
          expect(all.map((p) => p.content).join('')).toBe(units.join(''));
          for (const page of all) expect(page.content!.length).toBeLessThanOrEqual(max);
          for (const page of all.slice(0, -1)) {
            if (page.next!.offset === 0) expect(page.content!.endsWith('\n')).toBe(true);
          }
        },
      ),
    );
  });

  it('item pages never split an item and concatenate to the whole list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ text: fc.string({ maxLength: 40 }), start: fc.nat() }), { maxLength: 50 }),
        fc.integer({ min: 10, max: 500 }),
        (items, max) => {
          const all = pages(items, true, max);
          expect(all.flatMap((p) => p.segments)).toEqual(items);
          for (const page of all) {
            if (page.segments!.length > 1)
              expect(JSON.stringify(page.segments).length).toBeLessThanOrEqual(max);
          }
        },
      ),
    );
  });

  it('a unit longer than a page is cut into page-sized pieces, never inside a surrogate pair', () => {
    const units = [`${'😀'.repeat(30)}\n`];
    const all = pages(units, false, 7);
    expect(all.map((p) => p.content).join('')).toBe(units[0]);
    for (const page of all) expect(page.content!.length).toBeLessThanOrEqual(7);
  });
});
