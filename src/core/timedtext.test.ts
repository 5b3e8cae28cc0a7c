import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Json3Document, Json3Event, TrackKind } from '../ports/upstream.ts';
import {
  type Clean,
  dedupe,
  type Line,
  normaliseText,
  parseJson3,
  parseTimedText,
  parseTimedTextXml,
} from './timedtext.ts';
import type { ParsedTimedText } from './transcript.ts';

// An ASR json3 document shaped as youtube-protocol.md §2.4 describes: a window definition, word
// events with tOffsetMs (first seg without), aAppend line breaks, lines overlapping in time.
const ASR: Json3Document = {
  events: [
    { tStartMs: 0, dDurationMs: 12000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
    {
      tStartMs: 160,
      dDurationMs: 4000,
      wWinId: 1,
      segs: [
        { utf8: 'rust', acAsrConf: 0 },
        { utf8: ' is', tOffsetMs: 520, acAsrConf: 0 },
        { utf8: ' a', tOffsetMs: 880, acAsrConf: 0 },
        { utf8: ' language', tOffsetMs: 1200, acAsrConf: 0 },
      ],
    },
    { tStartMs: 2669, dDurationMs: 1491, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
    {
      tStartMs: 2679,
      dDurationMs: 4001,
      wWinId: 1,
      segs: [
        { utf8: 'that', acAsrConf: 0 },
        { utf8: ' empowers', tOffsetMs: 400, acAsrConf: 0 },
        { utf8: ' everyone', tOffsetMs: 1000, acAsrConf: 0 },
      ],
    },
    { tStartMs: 4150, dDurationMs: 2530, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] },
    { tStartMs: 4160, dDurationMs: 3000, wWinId: 1, segs: [{ utf8: '[Music]' }] },
  ],
};

const MANUAL: Json3Document = {
  events: [
    { tStartMs: 0, dDurationMs: 5000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
    { tStartMs: 1000, dDurationMs: 2500, wWinId: 1, segs: [{ utf8: '  Hello,   world!\nSecond  line ' }] },
    { tStartMs: 3500, dDurationMs: 1500, segs: [{ utf8: '- Who?' }, { utf8: '\n' }, { utf8: '- Me.' }] },
    { tStartMs: 5000, dDurationMs: 1000, segs: [{ utf8: ' \n ' }] },
    { tStartMs: 6000, segs: [{ utf8: 'no duration' }] },
  ],
};

describe('parseJson3 (ASR)', () => {
  const parsed = parseJson3(ASR, 'asr');

  it('makes one segment per caption line, skipping windows and line breaks', () => {
    expect(parsed.hasWordLevel).toBe(true);
    expect(parsed.segments.map(({ text, start, end }) => [text, start, end])).toEqual([
      ['rust is a language', 0.16, 4.16],
      ['that empowers everyone', 2.679, 6.68],
      ['[Music]', 4.16, 7.16],
    ]);
  });

  it('times words from tOffsetMs; the last word ends at the next line', () => {
    expect(parsed.segments.map((s) => s.words)).toEqual([
      [
        { word: 'rust', start: 0.16, end: 0.68 },
        { word: 'is', start: 0.68, end: 1.04 },
        { word: 'a', start: 1.04, end: 1.36 },
        { word: 'language', start: 1.36, end: 2.679 },
      ],
      [
        { word: 'that', start: 2.679, end: 3.079 },
        { word: 'empowers', start: 3.079, end: 3.679 },
        { word: 'everyone', start: 3.679, end: 4.16 },
      ],
      [{ word: '[Music]', start: 4.16, end: 7.16 }],
    ]);
  });

  it('keeps normalised events: no windows, no aAppend, no styling', () => {
    expect(parsed.events).toEqual([
      {
        tStartMs: 160,
        dDurationMs: 4000,
        segs: [
          { utf8: 'rust' },
          { utf8: ' is', tOffsetMs: 520 },
          { utf8: ' a', tOffsetMs: 880 },
          { utf8: ' language', tOffsetMs: 1200 },
        ],
      },
      {
        tStartMs: 2679,
        dDurationMs: 4001,
        segs: [
          { utf8: 'that' },
          { utf8: ' empowers', tOffsetMs: 400 },
          { utf8: ' everyone', tOffsetMs: 1000 },
        ],
      },
      { tStartMs: 4160, dDurationMs: 3000, segs: [{ utf8: '[Music]' }] },
    ]);
  });

  it('does not emit words twice when an event repeats them (same text, same time)', () => {
    const repeated: Json3Document = {
      events: [
        ...ASR.events.slice(0, 2),
        // repeats " language" (160 + 1200 = 1300 + 60) and then goes on
        {
          tStartMs: 1300,
          dDurationMs: 3000,
          segs: [
            { utf8: 'language', tOffsetMs: 60 },
            { utf8: ' that', tOffsetMs: 1379 },
          ],
        },
        // an exact copy of the line before
        {
          tStartMs: 1300,
          dDurationMs: 3000,
          segs: [
            { utf8: 'language', tOffsetMs: 60 },
            { utf8: ' that', tOffsetMs: 1379 },
          ],
        },
      ],
    };
    const r = parseJson3(repeated, 'asr');
    expect(r.segments.map((s) => s.text)).toEqual(['rust is a language', 'that']);
    expect(r.segments.flatMap((s) => s.words?.map((w) => w.word))).toEqual([
      'rust',
      'is',
      'a',
      'language',
      'that',
    ]);
    expect(r.segments[1]).toMatchObject({
      start: 1.3,
      end: 4.3,
      words: [{ word: 'that', start: 2.679, end: 4.3 }],
    });
    expect(r.events[1]?.segs).toEqual([{ utf8: ' that', tOffsetMs: 1379 }]);
    // "language" now ends where the next emitted word starts
    expect(r.segments[0]?.words?.[3]).toEqual({ word: 'language', start: 1.36, end: 2.679 });
  });

  it('keeps a word said twice at different times', () => {
    const doc: Json3Document = {
      events: [
        { tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'no' }, { utf8: ' no', tOffsetMs: 300 }] },
        { tStartMs: 1000, dDurationMs: 1000, segs: [{ utf8: 'no' }] },
      ],
    };
    expect(parseJson3(doc, 'asr').segments.map((s) => s.text)).toEqual(['no no', 'no']);
  });

  it('has no words for ASR lines without word timings (srv1-like, translated)', () => {
    const doc: Json3Document = {
      events: [{ tStartMs: 0, dDurationMs: 1000, segs: [{ utf8: 'whole line here' }] }],
    };
    const r = parseJson3(doc, 'asr');
    expect(r.hasWordLevel).toBe(false);
    expect(r.segments).toEqual([{ text: 'whole line here', start: 0, end: 1 }]);
  });

  it('never gives words to a manual track, even with offsets', () => {
    const r = parseJson3(ASR, 'manual');
    expect(r.hasWordLevel).toBe(false);
    expect(r.segments.every((s) => !('words' in s))).toBe(true);
    expect(r.segments.map((s) => s.text)).toEqual([
      'rust is a language',
      'that empowers everyone',
      '[Music]',
    ]);
  });
});

describe('parseJson3 (manual)', () => {
  const parsed = parseJson3(MANUAL, 'manual');

  it('keeps line breaks, collapses spaces, drops empty events', () => {
    expect(parsed.segments).toEqual([
      { text: 'Hello, world!\nSecond line', start: 1, end: 3.5 },
      { text: '- Who?\n- Me.', start: 3.5, end: 5 },
      { text: 'no duration', start: 6, end: 6 },
    ]);
    expect(parsed.hasWordLevel).toBe(false);
    expect(parsed.events.map((e) => e.segs?.length)).toEqual([1, 3, 1]);
    expect(parsed.events[2]).toEqual({ tStartMs: 6000, dDurationMs: 0, segs: [{ utf8: 'no duration' }] });
  });

  it('drops an event repeating an earlier one (same start and text)', () => {
    const first = MANUAL.events[1] as Json3Event;
    const r = parseJson3({ events: [first, { ...first }, { ...first, tStartMs: 9000 }] }, 'manual');
    expect(r.segments.map((s) => s.start)).toEqual([1, 9]);
  });

  it('sorts events by start and rounds to the millisecond', () => {
    const r = parseJson3(
      {
        events: [
          { tStartMs: 2000.4, dDurationMs: 10.6, segs: [{ utf8: 'b' }] },
          { tStartMs: 1234.5678, dDurationMs: 1, segs: [{ utf8: 'a' }] },
        ],
      },
      'manual',
    );
    expect(r.segments).toEqual([
      { text: 'a', start: 1.235, end: 1.236 },
      { text: 'b', start: 2, end: 2.011 },
    ]);
  });
});

describe('parseJson3 robustness', () => {
  it.each<[string, unknown]>([
    ['no events', {}],
    ['events not an array', { events: 'x' }],
    ['null document', null],
    ['null events', { events: [null, 1, 'x', [], { segs: null }, { segs: [null, 3, { utf8: 5 }] }] }],
  ])('%s → no segments', (_name, doc) => {
    for (const kind of ['manual', 'asr'] as const) {
      expect(parseJson3(doc as Json3Document, kind)).toEqual({
        segments: [],
        hasWordLevel: false,
        events: [],
      });
    }
  });

  it('clamps bad numbers', () => {
    const doc = {
      events: [
        { tStartMs: -5, dDurationMs: Number.NaN, segs: [{ utf8: 'a' }, { utf8: ' b', tOffsetMs: -3 }] },
        { tStartMs: Number.POSITIVE_INFINITY, dDurationMs: 1e300, segs: [{ utf8: 'c', tOffsetMs: 1e300 }] },
      ],
    } as Json3Document;
    const r = parseJson3(doc, 'asr');
    expect(r.segments.map(({ text, start, end }) => [text, start, end])).toEqual([
      ['a b', 0, 0],
      ['c', 0, 1e9],
    ]);
    expect(r.segments[1]?.words).toEqual([{ word: 'c', start: 1e9, end: 1e9 }]);
  });
});

describe('normaliseText', () => {
  it.each([
    ['  a   b  ', 'a b'],
    ['a\r\nb\rc', 'a\nb\nc'],
    ['a\n\n  \nb', 'a\nb'],
    ['\t a\u00a0\u00a0b ', 'a b'],
    [' \n ', ''],
  ])('%j → %j', (raw, expected) => {
    expect(normaliseText(raw)).toBe(expected);
  });
});

describe('parseTimedText', () => {
  it('dispatches json3', () => {
    expect(parseTimedText({ format: 'json3', document: ASR }, 'asr')).toEqual(parseJson3(ASR, 'asr'));
  });

  it.each(['srv1', 'srv3'] as const)('dispatches %s', (format) => {
    const xml = '<transcript><text start="1" dur="2">hi</text></transcript>';
    expect(parseTimedText({ format, xml }, 'manual')).toEqual(parseTimedTextXml(xml, 'manual'));
    expect(parseTimedText({ format, xml }, 'manual').segments).toEqual([{ text: 'hi', start: 1, end: 3 }]);
  });
});

/** Checks the laws every parse result obeys. */
function checkLaws(r: ParsedTimedText, kind: TrackKind): void {
  let previous = Number.NEGATIVE_INFINITY;
  expect(r.events.length).toBe(r.segments.length);
  if (kind === 'manual') expect(r.hasWordLevel).toBe(false);
  for (const s of r.segments) {
    expect(Number.isFinite(s.start) && Number.isFinite(s.end)).toBe(true);
    expect(s.end).toBeGreaterThanOrEqual(s.start);
    expect(s.text).not.toBe('');
    expect(s.text).toBe(normaliseText(s.text));
    expect(s.words !== undefined).toBe(r.hasWordLevel);
    if (s.words === undefined) continue;
    expect(
      s.words
        .map((w) => w.word)
        .join('')
        .replace(/\s+/g, ''),
    ).toBe(s.text.replace(/\s+/g, ''));
    for (const w of s.words) {
      expect(w.word).toBe(w.word.trim());
      expect(w.start).toBeGreaterThanOrEqual(previous);
      expect(w.end).toBeGreaterThanOrEqual(w.start);
      expect(w.start).toBeGreaterThanOrEqual(s.start);
      expect(w.end).toBeLessThanOrEqual(s.end);
      previous = w.start;
    }
  }
}

const wordArb = fc.stringMatching(/^[a-z'[\]é]{1,8}$/);
/** Realistic ASR documents: increasing lines of offset words, windows, aAppend breaks, repeats. */
const asrDocArb = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 3000 }),
      words: fc.array(fc.tuple(wordArb, fc.integer({ min: 0, max: 900 })), { minLength: 1, maxLength: 6 }),
      extra: fc.integer({ min: -500, max: 4000 }),
      repeat: fc.boolean(),
      lineBreak: fc.boolean(),
    }),
    { maxLength: 12 },
  )
  .map((lines) => {
    const events: Json3Event[] = [{ tStartMs: 0, dDurationMs: 60000, id: 1, wpWinPosId: 1, wsWinStyleId: 1 }];
    let t = 0;
    for (const line of lines) {
      t += line.gap;
      let offset = 0;
      const segs = line.words.map(([word, step], k) => {
        offset += k === 0 ? 0 : step;
        return k === 0 ? { utf8: word, acAsrConf: 0 } : { utf8: ` ${word}`, tOffsetMs: offset, acAsrConf: 0 };
      });
      const event: Json3Event = {
        tStartMs: t,
        dDurationMs: Math.max(0, offset + line.extra),
        wWinId: 1,
        segs,
      };
      events.push(event);
      if (line.repeat) events.push({ ...event, segs: segs.map((s) => ({ ...s })) });
      if (line.lineBreak)
        events.push({ tStartMs: t + 10, dDurationMs: 5, wWinId: 1, aAppend: 1, segs: [{ utf8: '\n' }] });
    }
    return { events } satisfies Json3Document;
  });

describe('parseJson3 properties', () => {
  it('ASR docs: ordered words within their segments, text equals words', () => {
    fc.assert(
      fc.property(asrDocArb, (doc) => {
        const r = parseJson3(doc, 'asr');
        checkLaws(r, 'asr');
        const input = doc.events.filter((e) => e.segs !== undefined && e.aAppend === undefined);
        if (input.length > 0) expect(r.hasWordLevel).toBe(input.some((e) => (e.segs?.length ?? 0) > 1));
        // a repeated event never adds segments
        const distinct = new Set(input.map((e) => JSON.stringify([e.tStartMs, e.segs])));
        expect(r.segments.length).toBeLessThanOrEqual(distinct.size);
      }),
    );
  });

  it('ASR docs without repeats keep every word', () => {
    fc.assert(
      fc.property(asrDocArb, (doc) => {
        const seen = new Set<string>();
        const unique: Json3Event[] = [];
        for (const e of doc.events) {
          const key = JSON.stringify([e.tStartMs, e.segs]);
          if (!seen.has(key)) unique.push(e);
          seen.add(key);
        }
        const lines = unique.filter((e) => !e.aAppend);
        const words = lines.flatMap((e) => (e.segs ?? []).map((s) => s.utf8.trim()));
        const r = parseJson3({ events: unique }, 'asr');
        // The same word at the same millisecond reads as a repeat and is dropped, so the check
        // only holds where every word has its own (time, text); line breaks are not words.
        const timed = new Set(
          lines.flatMap((e) =>
            (e.segs ?? []).map((s) => `${e.tStartMs + (s.tOffsetMs ?? 0)} ${s.utf8.trim()}`),
          ),
        );
        if (timed.size === words.length) {
          expect(
            r.segments
              .flatMap((s) => s.words ?? [{ word: s.text }])
              .map((w) => w.word)
              .join(' '),
          ).toBe(words.filter((w) => w !== '').join(' '));
        }
      }),
    );
  });

  const numArb = fc.oneof(fc.integer({ min: -10, max: 100000 }), fc.double());
  const segArb = fc.record(
    {
      utf8: fc.oneof(fc.string(), fc.constantFrom('\n', ' ', '', ' word')),
      tOffsetMs: numArb,
      acAsrConf: fc.nat(255),
    },
    { requiredKeys: ['utf8'] },
  );
  const eventArb = fc.record(
    {
      tStartMs: numArb,
      dDurationMs: numArb,
      aAppend: fc.constant(1),
      id: fc.nat(),
      segs: fc.array(segArb, { maxLength: 6 }),
    },
    { requiredKeys: ['tStartMs'] },
  );

  it.each(['asr', 'manual'] as const)('never throws on arbitrary event arrays (%s)', (kind) => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 20 }), (events) => {
        checkLaws(parseJson3({ events }, kind), kind);
      }),
    );
  });

  it('never throws on anything', () => {
    fc.assert(
      fc.property(fc.anything(), fc.constantFrom<TrackKind>('asr', 'manual'), (doc, kind) => {
        checkLaws(parseJson3({ events: doc } as unknown as Json3Document, kind), kind);
        checkLaws(parseJson3(doc as Json3Document, kind), kind);
      }),
    );
  });
});

describe('dedupe (the words of overlapping ASR lines)', () => {
  /** The rule as stated, over the whole track: a word is dropped when that text was emitted at that ms before. */
  function everyWordRemembered(events: readonly Clean[]): Line[] {
    const seen = new Set<string>();
    const out: Line[] = [];
    for (const event of events) {
      const segs: Clean['segs'] = [];
      const words: Line['words'] = [];
      for (const seg of event.segs) {
        const word = seg.utf8.replace(/\s+/g, ' ').trim();
        if (word !== '') {
          const at = Math.min(1e12, event.start + (seg.tOffsetMs ?? 0));
          if (seen.has(`${at}|${word}`)) continue;
          seen.add(`${at}|${word}`);
          words.push({ word, at });
        }
        segs.push(seg);
      }
      const text = normaliseText(segs.map((s) => s.utf8).join(''));
      if (text !== '') out.push({ event, segs, words, text });
    }
    return out;
  }

  // Lines sorted by start (as `clean` leaves them), overlapping, from a small vocabulary at few
  // offsets, so that repeats of a word at the same ms are frequent, near and far apart.
  const seg = fc.record(
    {
      utf8: fc.constantFrom('a', ' a', 'b', ' b ', '  ', '\n', 'c d'),
      tOffsetMs: fc.option(fc.integer({ min: 0, max: 3 }), { nil: undefined }),
    },
    { requiredKeys: ['utf8'] },
  );
  const events = fc
    .array(
      fc.record({
        start: fc.integer({ min: 0, max: 8 }),
        dur: fc.integer({ min: 0, max: 5 }),
        segs: fc.array(seg, { maxLength: 5 }),
      }),
      { maxLength: 30 },
    )
    .map((list) =>
      list
        .map(
          (e): Clean => ({
            ...e,
            segs: e.segs.map((s) =>
              s.tOffsetMs === undefined ? { utf8: s.utf8 } : { utf8: s.utf8, tOffsetMs: s.tOffsetMs },
            ),
          }),
        )
        .sort((x, y) => x.start - y.start),
    );

  it('keeps exactly what remembering every word of the track keeps', () => {
    fc.assert(
      fc.property(events, (list) => {
        expect(dedupe(list)).toEqual(everyWordRemembered(list));
      }),
      { numRuns: 500 },
    );
  });
});
