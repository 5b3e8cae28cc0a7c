/**
 * Access to the real YouTube responses in `../shared/youtube-recordings/` (never copied into the
 * project). The folder comes from `TUBESCRIBE_RECORDINGS`, which `.ci/run` sets; without it the
 * suites that need it report themselves skipped, loudly.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe } from 'vitest';

/** The recordings folder, or undefined when not configured or absent. */
export const recordingsDir: string | undefined = (() => {
  const dir = process.env.TUBESCRIBE_RECORDINGS;
  return dir && existsSync(dir) ? dir : undefined;
})();

/** One recorded HTTP exchange (newpipe format), decoded. */
export interface Recording {
  file: string;
  request: { method: string; url: string; headers: Record<string, string[]>; body: string | undefined };
  response: { status: number; headers: Record<string, string[]>; body: string };
}

interface RawRecording {
  request: {
    httpMethod: string;
    url: string;
    headers: Record<string, string[]>;
    dataToSend?: number[] | null;
  };
  response: { responseCode: number; responseHeaders: Record<string, string[]>; responseBody: string };
}

/** Loads `newpipe/<relative>` and decodes its request body. */
export function loadRecording(relative: string): Recording {
  const file = join(requireDir(), 'newpipe', relative);
  const raw = JSON.parse(readFileSync(file, 'utf8')) as RawRecording;
  const bytes = raw.request.dataToSend;
  return {
    file: relative,
    request: {
      method: raw.request.httpMethod,
      url: raw.request.url,
      headers: raw.request.headers,
      body: bytes ? Buffer.from(bytes.map((b) => b & 255)).toString('utf8') : undefined,
    },
    response: {
      status: raw.response.responseCode,
      headers: raw.response.responseHeaders,
      body: raw.response.responseBody,
    },
  };
}

/** The parsed JSON response body of `newpipe/<relative>`. */
export function recordedJson(relative: string): unknown {
  return JSON.parse(loadRecording(relative).response.body);
}

/** A raw file under the recordings folder (e.g. `youtube-transcript-api/…`, `invidious-mocks/…`). */
export function recordedFile(relative: string): string {
  return readFileSync(join(requireDir(), relative), 'utf8');
}

/** Every row of `newpipe/INDEX.tsv`. */
export function recordingIndex(): { path: string; method: string; status: number; url: string }[] {
  const lines = readFileSync(join(requireDir(), 'newpipe', 'INDEX.tsv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  return lines.map((line) => {
    const [path = '', method = '', status = '0', , url = ''] = line.split('\t');
    return { path, method, status: Number(status), url };
  });
}

function requireDir(): string {
  if (!recordingsDir) throw new Error('TUBESCRIBE_RECORDINGS is not set or does not exist');
  return recordingsDir;
}

/**
 * `describe` for suites that replay the recordings: skipped, with a loud warning, when the
 * folder is missing.
 */
export function describeRecordings(name: string, body: () => void): void {
  if (recordingsDir) {
    describe(name, body);
  } else {
    process.stderr.write(
      `\n!!! SKIPPED "${name}": set TUBESCRIBE_RECORDINGS to ../shared/youtube-recordings to replay real YouTube responses !!!\n\n`,
    );
    describe.skip(`${name} (SKIPPED: TUBESCRIBE_RECORDINGS not set)`, body);
  }
}
