import { describe, expect, it } from 'vitest';
import type { Segment } from '../transcript.ts';
import { oneLine } from './inline.ts';
import { renderText, writeText } from './text.ts';

const seg = (text: string): Segment => ({ text, start: 0, end: 1 });

describe('renderText', () => {
  it.each<[string, string[], string]>([
    ['no segments', [], ''],
    ['one line per segment, trailing newline', ['Hello', 'world'], 'Hello\nworld\n'],
    [
      'line breaks inside a segment become one space',
      ['one\ntwo', 'a \r\n b\rc', 'x\n\n\ny'],
      'one two\na b c\nx y\n',
    ],
    ['texts are trimmed, empty segments keep their line', [' padded ', '', 'end'], 'padded\n\nend\n'],
    ['non-ASCII kept as is', ['日本語。', 'مرحبا 👩‍👩‍👧'], '日本語。\nمرحبا 👩‍👩‍👧\n'],
  ])('%s', (_name, texts, expected) => {
    expect(renderText(texts.map(seg))).toBe(expected);
  });
});

describe('oneLine', () => {
  it.each([
    ['plain', 'plain'],
    ['  trimmed\t', 'trimmed'],
    ['a\nb', 'a b'],
    ['a \t\r\n\t b', 'a b'],
    ['\nlead and trail\n', 'lead and trail'],
  ])('%j → %j', (input, expected) => {
    expect(oneLine(input)).toBe(expected);
  });
});

describe('writeText', () => {
  const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

  it.each<[string, string[]]>([
    ['no segments', []],
    ['plain lines', ['Hello', 'world']],
    ['line breaks, blanks and empty segments', [' one\r\ntwo ', '', '\n', 'x \t\n\n y']],
    ['non-ASCII', ['日本語。', 'naïve 😀', 'مرحبا 👩‍👩‍👧']],
    [
      'lone surrogates (U+FFFD, never paired across lines)',
      ['end\ud83d', '\ude00start', '\udc00', 'a\ud800b'],
    ],
  ])('%s: the bytes are renderText encoded', (_name, texts) => {
    const segments = texts.map(seg);
    expect(writeText(segments).doneBytes()).toEqual(encode(renderText(segments)));
  });

  it('stays the string encoded across many chunks (lone surrogates at every line end)', () => {
    const segments = Array.from({ length: 3000 }, (_, i) =>
      seg(`line ${i} é 😀 ${i % 2 ? '\ud83d' : '\udc00'}`),
    );
    expect(writeText(segments).doneBytes()).toEqual(encode(renderText(segments)));
  });

  it('grows past its first guess for long lines', () => {
    const segments = [seg('x'.repeat(5000)), seg('é'.repeat(3000))];
    expect(writeText(segments).doneBytes()).toEqual(encode(renderText(segments)));
  });
});
