import { describe, expect, it } from 'vitest';
import { at, findAll, findFirst, num, ParseError, required, text } from './json.ts';

describe('json traversal', () => {
  const doc = { a: { b: [{ c: 1 }, { c: 2, d: { runs: [{ text: 'x' }, { text: 'y' }] } }] } };

  it('follows keys and indexes, undefined when missing', () => {
    expect(at(doc, 'a', 'b', 1, 'c')).toBe(2);
    expect(at(doc, 'a', 'x', 0)).toBeUndefined();
    expect(at(null, 'a')).toBeUndefined();
  });

  it('reads every text shape', () => {
    expect(text({ simpleText: 's' })).toBe('s');
    expect(text({ runs: [{ text: 'a' }, { text: 'b' }] })).toBe('ab');
    expect(text({ content: 'c' })).toBe('c');
    expect(text('plain')).toBe('plain');
    expect(text({})).toBeUndefined();
    expect(text(7)).toBeUndefined();
  });

  it('parses numbers leniently', () => {
    expect(num('12')).toBe(12);
    expect(num(3.5)).toBe(3.5);
    expect(num('')).toBeUndefined();
    expect(num('x')).toBeUndefined();
    expect(num(Number.NaN)).toBeUndefined();
  });

  it('finds renderers anywhere, in document order', () => {
    const tree = { x: [{ r: { id: 1 } }, { y: { r: { id: 2 } } }], r: { id: 3 } };
    expect(findAll(tree, 'r').map((o) => o.id)).toEqual([1, 2, 3]);
    expect(findFirst(tree, 'r')).toEqual({ id: 1 });
    expect(findFirst(tree, 'none')).toBeUndefined();
  });

  it('required throws a ParseError naming the path', () => {
    expect(() => required(undefined, 'a.b')).toThrow(ParseError);
    try {
      required(null, 'x.y');
    } catch (e) {
      expect((e as ParseError).path).toBe('x.y');
    }
    expect(required(0, 'z')).toBe(0);
  });
});
