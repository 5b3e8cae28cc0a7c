/**
 * A deterministic, realistic long ASR transcript for the render benchmark: a 3-hour talk of
 * about 30,000 words in about 4,000 json3-style caption events (7–8 words each), with
 * YouTube's ASR shape: segments overlap (a line stays until the next-next line appears), words
 * carry their own timings, some punctuation, `[Music]` breaks, chapters and json3 events.
 */

import { speechTimesMs } from '../src/core/speech-times.ts';
import type { Segment, TranscriptDoc, Word } from '../src/core/transcript.ts';
import type { Json3Event, Json3Seg } from '../src/ports/upstream.ts';
import { intBetween, mulberry32 } from './prng.ts';

const COMMON = (
  'the be to of and a in that have it for not on with he as you do at this but his by from they we ' +
  'say her she or an will my one all would there their what so up out if about who get which go me ' +
  'when make can like time no just him know take people into year your good some could them see other ' +
  'than then now look only come its over think also back after use two how our work first well way even ' +
  'new want because any these give day most us is are was were been has had did said'
).split(' ');

const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';

/** A pseudo-word with an English-like length (1–13 letters, mean about 5). */
function makeWord(random: () => number): string {
  if (random() < 0.5) return COMMON[Math.floor(random() * COMMON.length)]!;
  const length = Math.min(13, 2 + Math.floor(-Math.log(1 - random()) * 3.5));
  let word = '';
  for (let i = 0; i < length; i++) word += LETTERS[Math.floor(random() ** 1.6 * LETTERS.length)]!;
  return word;
}

/** Parameters of {@link makeAsrTranscript}. */
export interface FixtureOptions {
  seed?: number;
  durationSeconds?: number;
  words?: number;
  segments?: number;
}

/** Words per hour of speech in the fixture (the 3-hour default has 30,000). */
const WORDS_PER_HOUR = 10_000;
/** Segments (caption lines) per hour (the 3-hour default has 4,000). */
const SEGMENTS_PER_HOUR = 4000 / 3;

/**
 * The fixture scaled to `hours` of speech at the default's density (10,000 words and about
 * 1,333 segments per hour), for the linear-growth check (1 h against 10 h).
 */
export function makeAsrTranscriptOfHours(hours: number, seed?: number): TranscriptDoc {
  return makeAsrTranscript({
    ...(seed === undefined ? {} : { seed }),
    durationSeconds: hours * 3600,
    words: Math.round(WORDS_PER_HOUR * hours),
    segments: Math.round(SEGMENTS_PER_HOUR * hours),
  });
}

/** A 3-hour ASR TranscriptDoc (by default ~30,000 words in ~4,000 segments), always the same. */
export function makeAsrTranscript(options: FixtureOptions = {}): TranscriptDoc {
  const random = mulberry32(options.seed ?? 20260611);
  const durationMs = (options.durationSeconds ?? 3 * 3600) * 1000;
  const segmentCount = options.segments ?? 4000;
  const wordTotal = options.words ?? 30_000;
  const stepMs = durationMs / segmentCount;
  const starts: number[] = [];
  for (let i = 0; i < segmentCount; i++) starts.push(Math.round(i * stepMs + random() * stepMs * 0.3));
  starts.push(durationMs);

  const segments: Segment[] = [];
  const events: Json3Event[] = [
    { tStartMs: 0, dDurationMs: durationMs, id: 1, wpWinPosId: 1, wsWinStyleId: 1 },
  ];
  let sentenceLeft = intBetween(random, 6, 25);
  let wordsLeft = wordTotal;
  for (let i = 0; i < segmentCount; i++) {
    const startMs = starts[i]!;
    const nextMs = starts[i + 1]!;
    const endMs = starts[Math.min(i + 2, segmentCount)]!; // overlaps the next segment
    const count =
      random() < 0.01
        ? 0
        : Math.max(1, Math.min(wordsLeft, Math.round(wordsLeft / (segmentCount - i) + random() * 2 - 1)));
    wordsLeft -= count;
    if (count === 0) {
      segments.push({ text: '[Music]', start: startMs / 1000, end: endMs / 1000, words: [] });
      events.push({
        tStartMs: startMs,
        dDurationMs: endMs - startMs,
        wWinId: 1,
        segs: [{ utf8: '[Music]' }],
      });
      continue;
    }
    const words: Word[] = [];
    const segs: Json3Seg[] = [];
    const slot = (nextMs - startMs) / count;
    for (let w = 0; w < count; w++) {
      let word = makeWord(random);
      if (--sentenceLeft === 0) {
        word += random() < 0.85 ? '.' : '?';
        sentenceLeft = intBetween(random, 6, 25);
      } else if (random() < 0.04) {
        word += ',';
      }
      const offset = Math.round(w * slot);
      const wordStart = startMs + offset;
      const wordEnd = w + 1 < count ? startMs + Math.round((w + 1) * slot) : nextMs;
      words.push({ word, start: wordStart / 1000, end: wordEnd / 1000 });
      segs.push(
        w === 0 ? { utf8: word, acAsrConf: 0 } : { utf8: ` ${word}`, tOffsetMs: offset, acAsrConf: 0 },
      );
    }
    segments.push({
      text: words.map((w) => w.word).join(' '),
      start: startMs / 1000,
      end: endMs / 1000,
      words,
    });
    events.push({ tStartMs: startMs, dDurationMs: endMs - startMs, wWinId: 1, segs });
  }

  const chapterCount = 14;
  const chapters = Array.from({ length: chapterCount }, (_, i) => ({
    title: `Part ${i + 1}: ${makeWord(random)} and ${makeWord(random)}`,
    startSeconds: i === 0 ? 0 : Math.round((i * durationMs) / chapterCount / 1000 + random() * 60),
  }));

  return {
    videoId: 'bEnChMaRk01',
    language: 'en',
    trackKind: 'asr',
    durationSeconds: durationMs / 1000,
    title: 'A three-hour benchmark talk',
    author: 'Bench Channel',
    chapters,
    segments,
    hasWordLevel: true,
    events,
  };
}

/**
 * `doc` as the parser makes it: with the speech times it stores beside the words (see
 * `speech-times.ts`; the generated documents leave them out so that tests deriving documents
 * from them, with other segments, never carry stale ones).
 */
export function withSpeechTimes(doc: TranscriptDoc): TranscriptDoc {
  return { ...doc, speechMs: speechTimesMs(doc.segments, doc.hasWordLevel) };
}
