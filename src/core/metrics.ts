/**
 * Metrics in the Prometheus text exposition format (version 0.0.4), written by hand: the
 * well-kept client library (`prom-client`) is built on Node's `process`, `perf_hooks` and
 * `cluster` and does not run on Deno Deploy or bundle for a neutral platform, and the format is
 * small. Counters, gauges (set, or read when scraped) and histograms, each with fixed label names;
 * a series is created on first use. Recording is a map lookup and an addition: cheap enough for
 * every request.
 * @module
 */

/** Label values, in the order of the metric's label names. */
export type LabelValues = readonly string[];

/** A monotonically increasing count. */
export interface Counter {
  inc(labels?: LabelValues, by?: number): void;
}

/** A value that goes up and down. */
export interface Gauge {
  set(labels: LabelValues, value: number): void;
  add(labels: LabelValues, by: number): void;
}

/** A distribution of observed values in cumulative buckets. */
export interface Histogram {
  observe(labels: LabelValues, value: number): void;
}

type Kind = 'counter' | 'gauge' | 'histogram';

/** One series: its value (a histogram's count), and a histogram's per-bucket counts and sum. */
interface Series {
  labels: LabelValues;
  value: number;
  /** Observations per bucket, not cumulative (summed when rendered). */
  buckets?: number[];
  sum?: number;
}

/** Label values, one level per label, down to the series: found without building a key string. */
type Index = Map<string, Index | Series>;

interface Family {
  name: string;
  help: string;
  kind: Kind;
  labelNames: readonly string[];
  /** The series in creation order (the order they are rendered in). */
  series: Series[];
  index: Index;
  buckets?: readonly number[];
  /** Gauges read at scrape time. */
  collect?: () => Iterable<[LabelValues, number]>;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

const escapeHelp = (s: string): string => s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (s: string): string =>
  s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');

/** A number as the text format writes it. */
function num(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

/** `{a="x",b="y"}`, or nothing without labels. */
function labelText(names: readonly string[], values: LabelValues, extra?: [string, string]): string {
  const parts = names.map((n, i) => `${n}="${escapeLabel(values[i] ?? '')}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabel(extra[1])}"`);
  return parts.length > 0 ? `{${parts.join(',')}}` : '';
}

/** Latency buckets in seconds, from 1 ms to 30 s. */
export const LATENCY_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
];

/** A set of metric families and their text rendering. */
export class MetricsRegistry {
  private readonly families = new Map<string, Family>();

  private family(name: string, help: string, kind: Kind, labelNames: readonly string[]): Family {
    if (!NAME.test(name)) throw new Error(`Invalid metric name ${name}`);
    for (const l of labelNames) {
      if (!LABEL.test(l) || l.startsWith('__') || l === 'le') throw new Error(`Invalid label name ${l}`);
    }
    if (this.families.has(name)) throw new Error(`Metric ${name} is registered twice`);
    const family: Family = { name, help, kind, labelNames, series: [], index: new Map() };
    this.families.set(name, family);
    return family;
  }

  /** A series of `family` for `labels`, created at zero. */
  private static series(family: Family, labels: LabelValues): Series {
    if (labels.length !== family.labelNames.length) {
      throw new Error(`${family.name} takes ${family.labelNames.length} label values, not ${labels.length}`);
    }
    let node = family.index;
    const last = labels.length - 1;
    for (let i = 0; i < last; i++) {
      let next = node.get(labels[i]!) as Index | undefined;
      if (!next) {
        next = new Map();
        node.set(labels[i]!, next);
      }
      node = next;
    }
    const leaf = last < 0 ? '' : labels[last]!;
    let s = node.get(leaf) as Series | undefined;
    if (!s) {
      s = { labels: [...labels], value: 0 };
      if (family.buckets) {
        s.buckets = family.buckets.map(() => 0);
        s.sum = 0;
      }
      node.set(leaf, s);
      family.series.push(s);
    }
    return s;
  }

  /** A counter (`name` should end in `_total`). */
  counter(name: string, help: string, labelNames: readonly string[] = []): Counter {
    const family = this.family(name, help, 'counter', labelNames);
    return {
      inc: (labels = [], by = 1) => {
        if (by < 0) throw new Error(`Counter ${name} cannot decrease`);
        MetricsRegistry.series(family, labels).value += by;
      },
    };
  }

  /** A gauge, set by the code (or, with `collect`, read when scraped). */
  gauge(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    collect?: () => Iterable<[LabelValues, number]>,
  ): Gauge {
    const family = this.family(name, help, 'gauge', labelNames);
    if (collect) family.collect = collect;
    return {
      set: (labels, value) => {
        MetricsRegistry.series(family, labels).value = value;
      },
      add: (labels, by) => {
        MetricsRegistry.series(family, labels).value += by;
      },
    };
  }

  /** A histogram over `buckets` (upper bounds, ascending; `+Inf` is implied). */
  histogram(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    buckets: readonly number[] = LATENCY_BUCKETS,
  ): Histogram {
    const family = this.family(name, help, 'histogram', labelNames);
    family.buckets = [...buckets].sort((a, b) => a - b);
    const bounds = family.buckets;
    return {
      observe: (labels, value) => {
        const s = MetricsRegistry.series(family, labels);
        s.value += 1;
        s.sum = (s.sum ?? 0) + value;
        // Only the first bucket that holds the value counts it; render() makes the counts cumulative.
        let i = 0;
        while (i < bounds.length && value > bounds[i]!) i++;
        if (i < bounds.length) s.buckets![i]! += 1;
      },
    };
  }

  /** Every family in the text exposition format. */
  render(): string {
    const out: string[] = [];
    for (const f of this.families.values()) {
      out.push(`# HELP ${f.name} ${escapeHelp(f.help)}`, `# TYPE ${f.name} ${f.kind}`);
      if (f.collect) {
        // A scrape-time gauge shows only what exists now.
        f.series = [];
        f.index = new Map();
        for (const [labels, value] of f.collect()) MetricsRegistry.series(f, labels).value = value;
      }
      for (const s of f.series) {
        if (f.kind !== 'histogram') {
          out.push(`${f.name}${labelText(f.labelNames, s.labels)} ${num(s.value)}`);
          continue;
        }
        let cumulative = 0;
        f.buckets!.forEach((bound, i) => {
          cumulative += s.buckets![i]!;
          out.push(`${f.name}_bucket${labelText(f.labelNames, s.labels, ['le', num(bound)])} ${cumulative}`);
        });
        out.push(`${f.name}_bucket${labelText(f.labelNames, s.labels, ['le', '+Inf'])} ${s.value}`);
        out.push(`${f.name}_sum${labelText(f.labelNames, s.labels)} ${num(s.sum ?? 0)}`);
        out.push(`${f.name}_count${labelText(f.labelNames, s.labels)} ${s.value}`);
      }
    }
    return `${out.join('\n')}\n`;
  }
}
