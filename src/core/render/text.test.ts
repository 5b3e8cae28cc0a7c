import { describe, expect, it } from 'vitest';
import type { Segment } from '../transcript.ts';
import { oneLine } from './inline.ts';
import { renderText } from './text.ts';

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
