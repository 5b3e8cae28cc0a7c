import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TrackKind } from '../ports/upstream.ts';
import { parseTimedTextXml } from './timedtext.ts';
import { xmlToJson3 } from './timedtext-xml.ts';

// The recorded srv1 document of youtube-recordings/youtube-transcript-api/transcript.xml.static.
const RECORDED_SRV1 = `<?xml version="1.0" encoding="utf-8" ?>
<transcript>
    <text start="0" dur="1.54">Hey, this is just a test</text>
    <text start="1.54" dur="4.16">this is &lt;i>not&lt;/i> the original transcript</text>
    <text start="5" dur="0.5"></text>
    <text start="5.7" dur="3.239">just something shorter, I made up for testing</text>
</transcript>`;

// srv1 as YouTube serves it: caption text escaped twice, markup escaped, odd elements.
const SRV1 = `<?xml version="1.0" encoding="utf-8" ?><transcript>
<text start="0.16" dur="2.5">it&amp;#39;s &amp;quot;fine&amp;quot; &amp;amp; good</text>
<text start="2.66" dur="1.2">&lt;i&gt;whispers&lt;/i&gt; &lt;font color=&quot;#E5E5E5&quot;&gt;grey&lt;/font&gt;</text>
<text start="3.86">no dur&amp;nbsp;here &amp;#x1F600; &#233;t&#xE9;</text>
<text start="4" dur="1"> </text>
<text start="5" dur="1"/>
<text start="6.0004" dur="0.0015">line one&#10;line two</text>
<text start="bad" dur="x">bad times</text>
</transcript>`;

// srv3 as the protocol doc describes it: window definition, <s t> words, an a="1" line break.
const SRV3_ASR = `<?xml version="1.0" encoding="utf-8" ?><timedtext format="3">
<head><ws id="0"/><ws id="1" mh="2" ju="0" sd="3"/><wp id="0"/><wp id="1" ap="6" ah="20" av="100" rc="2" cc="40"/></head>
<body><w t="0" id="1" wp="1" ws="1"/><p t="160" d="4000" w="1"><s ac="0">rust</s><s t="680" ac="0"> a</s><s t="1000" ac="0"> language</s></p><p t="2669" d="1491" w="1" a="1">
</p><p t="2679" d="3000" w="1"><s ac="0">it&#39;s</s><s t="400" ac="0"> fast</s></p></body></timedtext>`;

const SRV3_MANUAL = `<timedtext format="3"><body>
<p t="1000" d="2000">Hello<br/>world &amp; you</p>
<p t="3000" d="1500"><s p="1">styled</s> text</p>
<p t="5000" d="500"></p>
</body></timedtext>`;

describe('parseTimedTextXml (srv1)', () => {
  it('reads the recorded document: strips <i>, skips the empty element, dur from the attribute', () => {
    expect(parseTimedTextXml(RECORDED_SRV1, 'manual')).toEqual({
      segments: [
        { text: 'Hey, this is just a test', start: 0, end: 1.54 },
        { text: 'this is not the original transcript', start: 1.54, end: 5.7 },
        { text: 'just something shorter, I made up for testing', start: 5.7, end: 8.939 },
      ],
      hasWordLevel: false,
      events: [
        { tStartMs: 0, dDurationMs: 1540, segs: [{ utf8: 'Hey, this is just a test' }] },
        { tStartMs: 1540, dDurationMs: 4160, segs: [{ utf8: 'this is not the original transcript' }] },
        {
          tStartMs: 5700,
          dDurationMs: 3239,
          segs: [{ utf8: 'just something shorter, I made up for testing' }],
        },
      ],
    });
  });

  it('decodes double escaping, strips escaped markup, defaults dur to 0', () => {
    const r = parseTimedTextXml(SRV1, 'manual');
    expect(r.segments).toEqual([
      { text: 'bad times', start: 0, end: 0 }, // unreadable times count as 0 (events are sorted)
      { text: 'it\'s "fine" & good', start: 0.16, end: 2.66 },
      { text: 'whispers grey', start: 2.66, end: 3.86 },
      { text: 'no dur here 😀 été', start: 3.86, end: 3.86 },
      { text: 'line one\nline two', start: 6, end: 6.002 },
    ]);
  });

  it('ASR srv1 has no word timings', () => {
    const r = parseTimedTextXml(RECORDED_SRV1, 'asr');
    expect(r.hasWordLevel).toBe(false);
    expect(r.segments.every((s) => s.words === undefined)).toBe(true);
  });
});

describe('parseTimedTextXml (srv3)', () => {
  it('reads <s t> words of ASR tracks and skips a="1" line breaks', () => {
    const r = parseTimedTextXml(SRV3_ASR, 'asr');
    expect(r.hasWordLevel).toBe(true);
    expect(r.segments).toEqual([
      {
        text: 'rust a language',
        start: 0.16,
        end: 4.16,
        words: [
          { word: 'rust', start: 0.16, end: 0.84 },
          { word: 'a', start: 0.84, end: 1.16 },
          { word: 'language', start: 1.16, end: 2.679 },
        ],
      },
      {
        text: "it's fast",
        start: 2.679,
        end: 5.679,
        words: [
          { word: "it's", start: 2.679, end: 3.079 },
          { word: 'fast', start: 3.079, end: 5.679 },
        ],
      },
    ]);
    expect(r.events[0]?.segs).toEqual([
      { utf8: 'rust' },
      { utf8: ' a', tOffsetMs: 680 },
      { utf8: ' language', tOffsetMs: 1000 },
    ]);
  });

  it('reads manual paragraphs with <br/> and styling spans', () => {
    expect(parseTimedTextXml(SRV3_MANUAL, 'manual').segments).toEqual([
      { text: 'Hello\nworld & you', start: 1, end: 3 },
      { text: 'styled text', start: 3, end: 4.5 },
    ]);
  });

  it('gives the same result as the equivalent json3', () => {
    const doc = xmlToJson3(SRV3_ASR);
    expect(doc.events.map((e) => [e.tStartMs, e.dDurationMs, e.aAppend])).toEqual([
      [160, 4000, undefined],
      [2669, 1491, 1],
      [2679, 3000, undefined],
    ]);
  });
});

describe('xmlToJson3 tolerance', () => {
  it.each<[string, string, string[]]>([
    ['empty string', '', []],
    ['not XML', 'hello <<< world >>>', []],
    ['unclosed cue', '<transcript><text start="1" dur="1">open', ['open']],
    ['cue closed by the next cue', '<text start="1">a<text start="2">b</text>', ['a', 'b']],
    ['srv2 ms times', '<timedtext><text t="1500" d="500">x</text></timedtext>', ['x']],
    ['stray < in text', '<text start="0">a &amp;lt; b &lt; c</text>', ['a < b < c']],
    ['CDATA', '<text start="0"><![CDATA[a & b]]></text>', ['a & b']],
    ['unknown entity kept', '<text start="0">&foo; x</text>', ['&foo; x']],
  ])('%s', (_name, xml, texts) => {
    expect(parseTimedTextXml(xml, 'manual').segments.map((s) => s.text)).toEqual(texts);
  });

  it('reads srv2 times as ms', () => {
    const xml = '<timedtext><text t="1500" d="500">x</text></timedtext>';
    expect(parseTimedTextXml(xml, 'manual').segments).toEqual([{ text: 'x', start: 1.5, end: 2 }]);
  });

  const pieces = fc.constantFrom(
    '<',
    '>',
    '/',
    '"',
    '&',
    ';',
    '#',
    ' ',
    '\n',
    'word',
    '&amp;',
    '&#39;',
    '&amp;#x1F600;',
    '&lt;i&gt;',
    '<text start="1.5" dur="2">',
    '<text start="x">',
    '</text>',
    '<p t="100" d="900">',
    '<p t="5" a="1">',
    '</p>',
    '<s t="40">',
    '<s>',
    '</s>',
    '<br/>',
    '<!--',
    '-->',
    '<![CDATA[',
    ']]>',
    '<transcript>',
    '<timedtext format="3"><body>',
  );
  const xmlArb = fc.oneof(
    fc.string(),
    fc.string({ unit: 'binary' }),
    fc.array(pieces, { maxLength: 40 }).map((p) => p.join('')),
  );

  it.each<TrackKind>(['manual', 'asr'])(
    'never throws on arbitrary strings and keeps the laws (%s)',
    (kind) => {
      fc.assert(
        fc.property(xmlArb, (xml) => {
          const r = parseTimedTextXml(xml, kind);
          expect(r.events.length).toBe(r.segments.length);
          let previous = 0;
          for (const s of r.segments) {
            expect(s.text.trim()).not.toBe('');
            expect(s.end).toBeGreaterThanOrEqual(s.start);
            for (const w of s.words ?? []) {
              expect(w.start).toBeGreaterThanOrEqual(Math.max(previous, s.start));
              expect(w.end).toBeGreaterThanOrEqual(w.start);
              expect(w.end).toBeLessThanOrEqual(s.end);
              previous = w.start;
            }
          }
        }),
        { numRuns: 300 },
      );
    },
  );

  it('never throws on a non-string', () => {
    expect(parseTimedTextXml(undefined as unknown as string, 'asr').segments).toEqual([]);
  });
});
