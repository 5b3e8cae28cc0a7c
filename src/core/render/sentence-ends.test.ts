import { describe, expect, it } from 'vitest';
import { endsSentence, sentenceEnds } from './sentence-ends.ts';

describe('sentenceEnds', () => {
  it.each<[string, number[]]>([
    ['Hello world. How are you? Fine!', [12, 25, 31]],
    ['no punctuation at all', []],
    ['ends here.', [10]],
    ['Pi is 3.14 and e is 2.718.', [26]],
    ['Visit youtube.com today', []],
    ['Mr. Smith met Dr. Jones. Then', [24]],
    ['Fruit, e.g. apples, i.e. food. Done', [30]],
    ['Tom vs. Jerry', []],
    ['It costs $3. Okay', [12]],
    ['We had apples, pears etc. Then we left', [25]],
    ['Wait... what?! Really', [7, 14]],
    ['He said "stop." Then left', [15]],
    ['(Really?) Yes', [9]],
    ['What?no', []],
    ['And so… it ends', [7]],
    ['今日は晴れです。明日は雨です！本当？', [8, 15, 18]],
    ['全角のピリオド．次', [8]],
    ['「そうですか。」はい', [8]],
    ['end of text ?', [13]],
  ])('%j → %j', (text, ends) => {
    expect(sentenceEnds(text)).toEqual(ends);
  });

  it('is stateless between calls (global regex reset)', () => {
    expect(sentenceEnds('a. b. c.')).toEqual([2, 5, 8]);
    expect(sentenceEnds('x.')).toEqual([2]);
  });
});

describe('endsSentence', () => {
  it.each<[string, boolean]>([
    ['That is all.', true],
    ['That is all', false],
    ['Ask Mr.', false],
    ['今日は晴れです。', true],
    [`${'long '.repeat(50)}text ends here!`, true],
    [`${'long '.repeat(50)}ends with 3.14`, false],
  ])('%j → %j', (text, expected) => {
    expect(endsSentence(text)).toBe(expected);
  });
});
