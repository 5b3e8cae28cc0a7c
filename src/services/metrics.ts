/**
 * What tubescribe measures for operators (`GET /metrics`): one instrument per question an
 * operator asks — how many requests and how fast, how many credits, how well the cache works,
 * how YouTube answers each client, how much YouTube work is in flight, how batch tasks end, whether
 * storage fails, how sign-ups go. Every metric is per process: Prometheus sums the instances.
 * @module
 */
import { type Counter, type Histogram, type LabelValues, MetricsRegistry } from '../core/metrics.ts';
import type { UpstreamOutcome } from '../ports/upstream.ts';

/** The cache tiers: L1 in process memory, L2 the KeyValue (shared on Redis). */
export type CacheTier = 'memory' | 'persistent';

/** A cache lookup's result: fresh (`hit`), found past its freshness (`stale`), or absent (`miss`). */
export type CacheResult = 'hit' | 'stale' | 'miss';

/** The states of a client's circuit breaker. */
const CIRCUIT_STATES = ['closed', 'open', 'half_open'] as const;

/** HTTP methods kept as label values; any other method is counted as `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The instruments, and the registry that renders them. */
export interface Metrics {
  readonly registry: MetricsRegistry;
  /**
   * One finished HTTP request: its route pattern (never the raw path: a label value per URL would
   * grow without bound), method, status and seconds taken.
   */
  request(route: string, method: string, status: number, seconds: number): void;
  /** Credits committed for an operation. */
  credits(operation: string, amount: number): void;
  /** A cache lookup's result at a tier. */
  cache(tier: CacheTier, result: CacheResult): void;
  /** One YouTube request of a client to an endpoint, and how it ended. */
  upstream(client: string, endpoint: string, outcome: UpstreamOutcome): void;
  /** Reads the YouTube requests in flight (the driver's gate) when scraped. */
  watchUpstreamInFlight(read: () => number): void;
  /** A batch task that reached a final state (`succeeded`, `failed`, `cancelled`). */
  batchTask(state: string): void;
  /** A ledger or storage operation that failed. */
  storageError(component: 'ledger' | 'storage'): void;
  /** A sign-up or verify answer by outcome (`code_sent`, `account_created`, an error code…). */
  signup(step: 'signup' | 'verify', outcome: string): void;
  /** Reads the YouTube clients' circuit states when scraped. */
  watchCircuits(read: () => Iterable<{ name: string; state: string }>): void;
}

/** A fresh set of tubescribe's instruments. */
export function createMetrics(): Metrics {
  const registry = new MetricsRegistry();
  const requests = registry.counter(
    'tubescribe_http_requests_total',
    'HTTP requests by route, method and status.',
    ['route', 'method', 'status'],
  );
  const credits = registry.counter('tubescribe_credits_charged_total', 'Credits charged, by operation.', [
    'operation',
  ]);
  const cache = registry.counter(
    'tubescribe_cache_lookups_total',
    'Cache lookups by tier (memory, persistent) and result (hit; stale: found past its freshness; miss).',
    ['tier', 'result'],
  );
  const upstream = registry.counter(
    'tubescribe_youtube_requests_total',
    'YouTube requests by client, endpoint and outcome (empty: a caption URL answered nothing or stalled, the PO-token gate; po_token: every caption track of a player answer needs a PO token). Retries inside one request are not counted apart.',
    ['client', 'endpoint', 'outcome'],
  );
  let inFlight: () => number = () => 0;
  registry.gauge(
    'tubescribe_youtube_requests_in_flight',
    'YouTube requests in flight (after coalescing).',
    [],
    (): Iterable<[LabelValues, number]> => [[[], inFlight()]],
  );
  let circuits: () => Iterable<{ name: string; state: string }> = () => [];
  registry.gauge(
    'tubescribe_youtube_client_circuit_state',
    'The circuit state of each YouTube player client: 1 for its current state (closed: asked; open: skipped for a while; half_open: one probe let through), 0 for the others.',
    ['client', 'state'],
    function* (): Iterable<[LabelValues, number]> {
      for (const c of circuits()) {
        for (const state of CIRCUIT_STATES) yield [[c.name, state], c.state === state ? 1 : 0];
      }
    },
  );
  const batch: Counter = registry.counter('tubescribe_batch_tasks_total', 'Batch tasks by final state.', [
    'state',
  ]);
  const storage = registry.counter('tubescribe_storage_errors_total', 'Ledger and storage failures.', [
    'component',
  ]);
  const signups = registry.counter(
    'tubescribe_signups_total',
    'Agent sign-up and verify answers by outcome.',
    ['step', 'outcome'],
  );
  // Last: its many bucket lines would push every other family far down the page.
  const latency: Histogram = registry.histogram(
    'tubescribe_http_request_duration_seconds',
    'HTTP request latency by route.',
    ['route'],
  );
  return {
    registry,
    request(route, method, status, seconds) {
      requests.inc([route, METHODS.has(method) ? method : 'other', String(status)]);
      latency.observe([route], seconds);
    },
    credits: (operation, amount) => credits.inc([operation], amount),
    cache: (tier, result) => cache.inc([tier, result]),
    upstream: (client, endpoint, outcome) => upstream.inc([client, endpoint, outcome]),
    watchUpstreamInFlight(read) {
      inFlight = read;
    },
    batchTask: (state) => batch.inc([state]),
    storageError: (component) => storage.inc([component]),
    signup: (step, outcome) => signups.inc([step, outcome]),
    watchCircuits(read) {
      circuits = read;
    },
  };
}
