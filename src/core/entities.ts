/**
 * HTML character references, as they appear in YouTube's timedtext XML.
 *
 * One pass of {@link decodeEntities} undoes one level of escaping; the timedtext parser runs it
 * twice because YouTube escapes caption text twice (see `timedtext-xml.ts`).
 * @module
 */

/** HTML 4 Latin-1 entity names for U+00A0…U+00FF, in code-point order. */
const LATIN1 =
  'nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr deg plusmn sup2 ' +
  'sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest Agrave Aacute Acirc ' +
  'Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml ETH Ntilde Ograve ' +
  'Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig agrave aacute ' +
  'acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml eth ntilde ' +
  'ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml';

/** Other named references common in captions: XML's five, typography, currency, spaces. */
const OTHERS: ReadonlyArray<readonly [string, number]> = [
  ['amp', 0x26],
  ['lt', 0x3c],
  ['gt', 0x3e],
  ['quot', 0x22],
  ['apos', 0x27],
  ['OElig', 0x152],
  ['oelig', 0x153],
  ['Scaron', 0x160],
  ['scaron', 0x161],
  ['Yuml', 0x178],
  ['fnof', 0x192],
  ['circ', 0x2c6],
  ['tilde', 0x2dc],
  ['ensp', 0x2002],
  ['emsp', 0x2003],
  ['thinsp', 0x2009],
  ['zwnj', 0x200c],
  ['zwj', 0x200d],
  ['lrm', 0x200e],
  ['rlm', 0x200f],
  ['ndash', 0x2013],
  ['mdash', 0x2014],
  ['lsquo', 0x2018],
  ['rsquo', 0x2019],
  ['sbquo', 0x201a],
  ['ldquo', 0x201c],
  ['rdquo', 0x201d],
  ['bdquo', 0x201e],
  ['dagger', 0x2020],
  ['Dagger', 0x2021],
  ['bull', 0x2022],
  ['hellip', 0x2026],
  ['permil', 0x2030],
  ['prime', 0x2032],
  ['Prime', 0x2033],
  ['lsaquo', 0x2039],
  ['rsaquo', 0x203a],
  ['euro', 0x20ac],
  ['trade', 0x2122],
  ['larr', 0x2190],
  ['rarr', 0x2192],
  ['hearts', 0x2665],
  ['mu', 0x3bc],
  ['pi', 0x3c0],
];

/** Name → text of every known named reference (a Map, so `&constructor;` stays literal). */
const NAMED: ReadonlyMap<string, string> = new Map<string, string>([
  ...LATIN1.split(' ').map((name, i): [string, string] => [name, String.fromCharCode(0xa0 + i)]),
  ...OTHERS.map(([name, cp]): [string, string] => [name, String.fromCodePoint(cp)]),
]);

/** What browsers make of `&#128;`…`&#159;` (windows-1252); 0 = keep the code point. */
const C1 = [
  0x20ac, 0, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0, 0x17d, 0,
  0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0, 0x17e,
  0x178,
];

const REFERENCE = /&(?:#([0-9]{1,10})|#[xX]([0-9a-fA-F]{1,8})|([A-Za-z][A-Za-z0-9]{1,31}));/g;

/** The text of a numeric reference, as HTML decodes it (invalid code points become U+FFFD). */
function fromCodePoint(cp: number): string {
  if (cp >= 0x80 && cp <= 0x9f) return String.fromCodePoint(C1[cp - 0x80] || cp);
  if (cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return '\uFFFD';
  return String.fromCodePoint(cp);
}

/**
 * Decodes one level of HTML character references: the named ones above (case-sensitive, `;`
 * required), decimal `&#39;` and hex `&#x1F600;` (astral code points included; 0, surrogates
 * and values above U+10FFFF become U+FFFD; 128–159 as windows-1252, as browsers do). Unknown or
 * malformed references are left as they are. Never throws.
 */
export function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(
    REFERENCE,
    (whole: string, dec: string | undefined, hex: string | undefined, name: string | undefined) => {
      if (dec !== undefined) return fromCodePoint(Number.parseInt(dec, 10));
      if (hex !== undefined) return fromCodePoint(Number.parseInt(hex, 16));
      return NAMED.get(name ?? '') ?? whole;
    },
  );
}
