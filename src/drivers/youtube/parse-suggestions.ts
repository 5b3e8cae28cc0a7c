/**
 * The search autocomplete answer (`suggestqueries-clients6.youtube.com/complete/search`) → the
 * suggested queries. With `xhr=t` the body is JSON; without it, JSONP `window.google.ac.h([...])`.
 * Shape: `["hello", [["hello", 0, [512]], ["hello kitty", 0, [512, 433]], …], {"k": 1, "q": "…"}]`.
 * @module
 */
import { arr, at, type Json, ParseError, str } from './json.ts';

/** Strips a JSONP wrapper (`window.google.ac.h(` … `)`), if any. */
function unwrapJsonp(body: string): string {
  const trimmed = body.trim();
  const match = /^[\w.$]+\(([\s\S]*)\)\s*;?$/.exec(trimmed);
  return match ? match[1]! : trimmed;
}

/**
 * The suggestions in YouTube's order, without duplicates. Accepts the raw body (JSON or JSONP)
 * or the already parsed JSON array.
 * @throws ParseError when the body is not a suggestion list.
 */
export function parseSuggestions(body: string | Json): string[] {
  let data: Json = body;
  if (typeof body === 'string') {
    try {
      data = JSON.parse(unwrapJsonp(body));
    } catch {
      throw new ParseError('suggestions', 'suggestion body is neither JSON nor JSONP');
    }
  }
  const list = at(data, 1);
  if (!Array.isArray(data) || !Array.isArray(list)) throw new ParseError('[1]');
  const out: string[] = [];
  for (const entry of arr(list)) {
    const suggestion = str(entry) ?? str(at(entry, 0));
    if (suggestion && !out.includes(suggestion)) out.push(suggestion);
  }
  return out;
}
