import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeEntities } from './entities.ts';

describe('decodeEntities', () => {
  it.each([
    ['no references', 'plain text', 'plain text'],
    ['XML five', '&amp;&lt;&gt;&quot;&apos;', '&<>"\''],
    ['nbsp', 'a&nbsp;b', 'a\u00a0b'],
    ['Latin-1 start', '&iexcl;&cent;&copy;&laquo;&reg;&deg;', '¡¢©«®°'],
    ['Latin-1 letters', '&Agrave;&times;&szlig;&agrave;&eacute;&divide;&yuml;', 'À×ßàé÷ÿ'],
    ['typography', '&hellip;&mdash;&ndash;&lsquo;&rsquo;&ldquo;&rdquo;&bull;&trade;&euro;', '…—–‘’“”•™€'],
    ['decimal', 'it&#39;s', "it's"],
    ['decimal with zeros', '&#0039;', "'"],
    ['hex', '&#x27;&#X41;&#x00e9;', "'Aé"],
    ['astral decimal', '&#128512;', '😀'],
    ['astral hex', '&#x1F600;&#x1f4a9;', '😀💩'],
    ['windows-1252 range', '&#146;&#150;&#128;', '’–€'],
    ['C1 without a mapping kept', '&#129;', '\u0081'],
    ['NUL', '&#0;', '\uFFFD'],
    ['surrogate', '&#xD800;', '\uFFFD'],
    ['beyond Unicode', '&#x110000;&#99999999;', '\uFFFD\uFFFD'],
    ['one level only', '&amp;#39; &amp;amp;', '&#39; &amp;'],
    ['unknown name kept', '&bogus; &constructor; &toString;', '&bogus; &constructor; &toString;'],
    ['names are case-sensitive', '&AMP; &Amp;', '&AMP; &Amp;'],
    ['semicolon required', '&amp &#39 &#x41', '&amp &#39 &#x41'],
    ['empty and stray', '& &; &#; &#x; &&amp;', '& &; &#; &#x; &&'],
  ])('%s', (_name, input, expected) => {
    expect(decodeEntities(input)).toBe(expected);
  });

  it('decodes double escaping in two passes', () => {
    expect(decodeEntities(decodeEntities('it&amp;#39;s &amp;lt;i&amp;gt;'))).toBe("it's <i>");
  });

  it('leaves text without & untouched and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = decodeEntities(s);
        if (!s.includes('&')) expect(out).toBe(s);
        expect(out.length).toBeLessThanOrEqual(s.length);
      }),
    );
  });

  it('inverts escaping of &, <, >, " and \'', () => {
    const escapeHtml = (s: string): string =>
      s
        .replace(/&/g, '&amp;')
        .replace(/</g, '&lt;')
        .replace(/>/g, '&gt;')
        .replace(/"/g, '&quot;')
        .replace(/'/g, '&#39;');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        expect(decodeEntities(escapeHtml(s))).toBe(s);
      }),
    );
  });
});
