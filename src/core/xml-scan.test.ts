import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanXml, type XmlToken } from './xml-scan.ts';

const open = (name: string, attrs: Record<string, string> = {}, selfClosing = false): XmlToken => ({
  type: 'open',
  name,
  attrs,
  selfClosing,
});
const close = (name: string): XmlToken => ({ type: 'close', name });
const text = (raw: string): XmlToken => ({ type: 'text', raw });

describe('scanXml', () => {
  it.each<[string, string, XmlToken[]]>([
    ['empty', '', []],
    ['text only', 'abc', [text('abc')]],
    [
      'element',
      '<text start="1" dur=\'2\'>hi</text>',
      [open('text', { start: '1', dur: '2' }), text('hi'), close('text')],
    ],
    ['self-closing', '<w t="0" id="1"/>', [open('w', { t: '0', id: '1' }, true)]],
    ['self-closing with space', '<br />', [open('br', {}, true)]],
    ['names lower-cased', '<P T="5">x</P>', [open('p', { t: '5' }), text('x'), close('p')]],
    ['unquoted and bare attributes', '<p t=5 hidden>', [open('p', { t: '5', hidden: '' })]],
    ['> inside a quoted value', '<font color="a>b">x', [open('font', { color: 'a>b' }), text('x')]],
    ['declaration and comment skipped', '<?xml version="1.0"?><!-- <p> --><a/>', [open('a', {}, true)]],
    ['doctype skipped', '<!DOCTYPE x>y', [text('y')]],
    ['CDATA is text', '<![CDATA[a<b&c]]>', [text('a&lt;b&amp;c')]],
    ['stray <', 'a < b', [text('a '), text('&lt;'), text(' b')]],
    ['< then digit', '<3', [text('&lt;'), text('3')]],
    ['stray </', '</ >', [text('&lt;'), text('/ >')]],
    [
      'unterminated tag ends at the next <',
      '<p t="1<s>x',
      [open('p', { t: '', 1: '' }), open('s'), text('x')],
    ],
    ['unterminated tag at the end', '<p t="1"', [open('p', { t: '1' })]],
    ['unterminated comment', 'a<!-- b', [text('a')]],
    ['unterminated CDATA', '<![CDATA[abc', [text('abc')]],
    [
      'prototype-like attribute names',
      '<p __proto__="1" constructor="2">',
      [
        open(
          'p',
          Object.fromEntries([
            ['__proto__', '1'],
            ['constructor', '2'],
          ]),
        ),
      ],
    ],
  ])('%s', (_name, xml, expected) => {
    expect(JSON.parse(JSON.stringify(scanXml(xml)))).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('never throws; text tokens are never empty', () => {
    const pieces = fc.constantFrom(
      '<',
      '>',
      '/',
      '"',
      "'",
      '=',
      '<p t="1">',
      '</p>',
      '<!--',
      '-->',
      '<![CDATA[',
      ']]>',
      'a',
      ' ',
      '&',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(pieces).map((p) => p.join('')),
        ),
        (xml) => {
          const tokens = scanXml(xml);
          for (const t of tokens) if (t.type === 'text') expect(t.raw).not.toBe('');
        },
      ),
    );
  });
});
