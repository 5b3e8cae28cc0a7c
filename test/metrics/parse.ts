/**
 * A reader of the Prometheus text format for tests: every sample line as its metric name, labels
 * and value (comments skipped, label values unescaped), and a lookup by name and some labels.
 * Strict: a line it cannot read throws, so a malformed scrape fails the test that reads it.
 * @module
 */

/** One sample line. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(?:,|$)/y;

/** The value of a sample line (`+Inf`, `-Inf` and `NaN` included). */
function sampleValue(text: string): number {
  if (text === '+Inf') return Number.POSITIVE_INFINITY;
  if (text === '-Inf') return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  if (Number.isNaN(value) && text !== 'NaN') throw new Error(`not a sample value: ${text}`);
  return value;
}

/** The labels inside `{…}`, unescaped. */
function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  while (LABEL.lastIndex < text.length) {
    const m = LABEL.exec(text);
    if (!m) throw new Error(`unreadable labels: {${text}}`);
    labels[m[1]!] = m[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
  }
  return labels;
}

/** Every sample of a scrape. */
export function parseMetrics(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) throw new Error(`unreadable sample line: ${line}`);
    samples.push({ name: m[1]!, labels: labelsOf(m[2] ?? ''), value: sampleValue(m[3]!) });
  }
  return samples;
}

/**
 * The sum of the samples named `name` whose labels include `labels` (other labels may be
 * anything), or undefined when none matches.
 */
export function sample(
  samples: readonly Sample[],
  name: string,
  labels: Record<string, string>,
): number | undefined {
  const matching = samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return matching.length === 0 ? undefined : matching.reduce((sum, s) => sum + s.value, 0);
}
