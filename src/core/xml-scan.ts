/**
 * A small, tolerant XML tokenizer for timedtext documents (no DOM exists in every runtime and the
 * core takes no dependency). It never throws and runs in linear time on any input: a `<` that
 * does not start a tag is text, an unterminated tag ends where the next `<` begins, comments,
 * processing instructions and doctypes are skipped.
 * @module
 */

/** One token of an XML document. Names are lower-cased; text is raw (entities not decoded). */
export type XmlToken =
  | { type: 'open'; name: string; attrs: Readonly<Record<string, string>>; selfClosing: boolean }
  | { type: 'close'; name: string }
  | { type: 'text'; raw: string };

const NAME = /^[A-Za-z_:][\w:.-]*/;
const ATTR = /([^\s=/>"']+)\s*(?:=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+)))?/g;

/** Attributes of a tag body (`name="v" other='w' bare`), names lower-cased, values raw. */
function attributes(body: string): Record<string, string> {
  const attrs: Record<string, string> = Object.create(null);
  for (const m of body.matchAll(ATTR)) {
    const name = (m[1] ?? '').toLowerCase();
    attrs[name] = m[2] ?? m[3] ?? m[4] ?? '';
  }
  return attrs;
}

/**
 * Index of the `>` that ends the tag starting at `from`, ignoring `>` inside quotes; or the index
 * of the next `<` (the tag is unterminated and ends there), or the end of the input.
 */
function tagEnd(xml: string, from: number): { end: number; closed: boolean } {
  let quote = '';
  for (let i = from; i < xml.length; i++) {
    const c = xml[i];
    if (c === '<') return { end: i, closed: false };
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return { end: i, closed: true };
  }
  return { end: xml.length, closed: false };
}

/** Escapes CDATA content so that one entity-decoding pass gives it back. */
const escapeCdata = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** Splits an XML document into tokens; see the module comment for how malformed input is read. */
export function scanXml(xml: string): XmlToken[] {
  const tokens: XmlToken[] = [];
  const text = (raw: string): void => {
    if (raw !== '') tokens.push({ type: 'text', raw });
  };
  let i = 0;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    if (lt === -1) {
      text(xml.slice(i));
      break;
    }
    text(xml.slice(i, lt));
    if (xml.startsWith('<!--', lt)) {
      const end = xml.indexOf('-->', lt + 4);
      i = end === -1 ? xml.length : end + 3;
      continue;
    }
    if (xml.startsWith('<![CDATA[', lt)) {
      const end = xml.indexOf(']]>', lt + 9);
      text(escapeCdata(xml.slice(lt + 9, end === -1 ? xml.length : end)));
      i = end === -1 ? xml.length : end + 3;
      continue;
    }
    const closing = xml[lt + 1] === '/';
    const nameStart = closing ? lt + 2 : lt + 1;
    const name = NAME.exec(xml.slice(nameStart, nameStart + 64))?.[0];
    const special = xml[lt + 1] === '?' || xml[lt + 1] === '!';
    if (name === undefined && !special) {
      text('&lt;'); // a stray `<` is text
      i = lt + 1;
      continue;
    }
    const { end, closed } = tagEnd(xml, nameStart + (name?.length ?? 1));
    i = closed ? end + 1 : end;
    if (special || name === undefined) continue;
    const lower = name.toLowerCase();
    if (closing) {
      tokens.push({ type: 'close', name: lower });
      continue;
    }
    const body = xml.slice(nameStart + name.length, end);
    const selfClosing = body.trimEnd().endsWith('/');
    tokens.push({ type: 'open', name: lower, attrs: attributes(body), selfClosing });
  }
  return tokens;
}
