import { describe, expect, it } from 'vitest';
import { ParseError } from './json.ts';
import { parseSuggestions } from './parse-suggestions.ts';

const data = [
  'cat',
  [
    ['cat', 0, [512, 433]],
    ['cat videos', 0, [512]],
    ['cat \u00e9t\u00e9', 0, [512, 433, 131]],
  ],
  { k: 1, q: 'x' },
];

describe('parseSuggestions', () => {
  it.each([
    ['JSON (xhr=t)', JSON.stringify(data)],
    ['JSONP', `window.google.ac.h(${JSON.stringify(data)})`],
    ['JSONP with semicolon and whitespace', `\n window.google.ac.h(${JSON.stringify(data)});\n`],
    ['parsed JSON', data],
  ])('reads %s', (_name, body) => {
    expect(parseSuggestions(body)).toEqual(['cat', 'cat videos', 'cat été']);
  });

  it('accepts plain string entries and drops duplicates and non-strings', () => {
    expect(parseSuggestions(['q', ['a', ['a', 0], [7], 'b']])).toEqual(['a', 'b']);
    expect(parseSuggestions('["q",[]]')).toEqual([]);
  });

  it.each([
    ['HTML', '<html>blocked</html>'],
    ['an object', '{"error":1}'],
    ['no list', '["q"]'],
  ])('rejects %s', (_name, body) => {
    expect(() => parseSuggestions(body)).toThrow(ParseError);
  });
});
