/**
 * `transcriptBodies: 'blob'` (what the Bun adapter sets): rendered transcripts kept as Blobs
 * answer exactly what byte bodies answer, in every format, rendered and from the kept rendering,
 * and say their length.
 */
import { describe, expect, test } from 'vitest';
import { VIDEO } from '../fakes/upstream.ts';
import { fixture } from '../helpers/http.ts';

const FORMATS = ['segments', 'words', 'sentences', 'json3', 'markdown', 'text', 'srt', 'vtt'];
const HEADERS = ['content-type', 'x-track-type', 'x-language-code', 'x-credits-to-deduct'];

describe("transcriptBodies: 'blob'", () => {
  test('answers the same status, headers and bytes as byte bodies, first and from the kept rendering', async () => {
    const bytes = await fixture();
    const blobs = await fixture({ transcriptBodies: 'blob' });
    expect(blobs.ts.settings.transcriptBodies).toBe('blob');
    for (const format of FORMATS) {
      const path = `/v1/transcripts?video_id=${VIDEO}&format=${format}&word_level=true&track_policy=asr_first`;
      const expected = await bytes.get(path);
      const wanted = new Uint8Array(await expected.arrayBuffer());
      for (const round of ['rendered', 'kept']) {
        const res = await blobs.get(path);
        expect(res.status, `${format} ${round}`).toBe(200);
        for (const h of HEADERS)
          expect(res.headers.get(h), `${format} ${round} ${h}`).toBe(expected.headers.get(h));
        // The length the Bun adapter reads to choose how to send a late answer (late-answer.ts).
        expect(res.headers.get('content-length'), `${format} ${round}`).toBe(String(wanted.length));
        expect(new Uint8Array(await res.arrayBuffer()), `${format} ${round}`).toEqual(wanted);
        if (round === 'kept') expect(res.headers.get('x-cache')).toBe('HIT');
      }
    }
  });

  test('keeps one Blob per format and word level: the second answer reuses it', async () => {
    const f = await fixture({ transcriptBodies: 'blob' });
    const path = `/v1/transcripts?video_id=${VIDEO}&format=srt`;
    await f.get(path);
    const made: Blob[] = [];
    const original = globalThis.Blob;
    globalThis.Blob = class extends original {
      constructor(...args: ConstructorParameters<typeof Blob>) {
        super(...args);
        made.push(this);
      }
    };
    try {
      expect((await f.get(path)).status).toBe(200);
      expect(made).toHaveLength(0);
      expect((await f.get(`/v1/transcripts?video_id=${VIDEO}&format=vtt`)).status).toBe(200);
      expect(made).toHaveLength(1);
    } finally {
      globalThis.Blob = original;
    }
  });
});
