/**
 * Readiness (`GET /readyz`): whether this instance can serve keyed traffic now. It reads the
 * documents store (KeyValue: fs folder, Redis, memory) and the ledger (Redis, the embedded one,
 * Deno KV), and checks that start-up elected the shared secret. Each probe is bounded, so a
 * backend that hangs answers "not ready" instead of holding the load balancer's probe.
 *
 * Liveness (`GET /healthz`) checks none of this: a process whose storage is down is alive and
 * must not be restarted for it, only taken out of rotation.
 * @module
 */
import { ApiError } from '../errors.ts';
import type { KeyValue } from '../ports/kv.ts';
import type { Ledger } from '../ports/ledger.ts';
import type { Metrics } from './metrics.ts';

/** One check's outcome. */
export type CheckState = 'ok' | 'failed' | 'timeout';

/** The answer of a ready instance. */
export interface ReadyReport {
  status: 'ok';
  checks: { storage: 'ok'; ledger: 'ok'; secret: 'ok' };
}

/** Dependencies of {@link Readiness}. */
export interface ReadinessDeps {
  kv: KeyValue;
  ledger: Ledger;
  /** Whether the shared secret is elected (start-up finished). */
  secretReady: () => boolean;
  /** Upper bound of each probe. Default 2,000 ms. */
  timeoutMs?: number;
  /** Hears each probe that failed or timed out. */
  metrics?: Pick<Metrics, 'storageError'>;
}

/** The key read by the storage probe; it is never written. */
const PROBE_KEY = 'readyz:probe';
/** The account read by the ledger probe; it never exists. */
const PROBE_ACCOUNT = 'acct_readyz_probe';

/** Settles to the state of `work`, `timeout` once `ms` passed first. */
async function probe(work: () => Promise<unknown>, ms: number): Promise<CheckState> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<CheckState>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([
      work().then(
        (): CheckState => 'ok',
        (): CheckState => 'failed',
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The readiness service. */
export class Readiness {
  constructor(private readonly deps: ReadinessDeps) {}

  /**
   * Probes storage and ledger (in parallel) and the secret: the report when all answer, else
   * `503 storage_unavailable` (retryable) whose `details.checks` names each check's state.
   */
  async check(): Promise<ReadyReport> {
    const ms = this.deps.timeoutMs ?? 2_000;
    const [storage, ledger] = await Promise.all([
      probe(() => this.deps.kv.get(PROBE_KEY), ms),
      probe(() => this.deps.ledger.credits(PROBE_ACCOUNT), ms),
    ]);
    if (storage !== 'ok') this.deps.metrics?.storageError('storage');
    if (ledger !== 'ok') this.deps.metrics?.storageError('ledger');
    const secret: CheckState = this.deps.secretReady() ? 'ok' : 'failed';
    if (storage === 'ok' && ledger === 'ok' && secret === 'ok') {
      return { status: 'ok', checks: { storage, ledger, secret } };
    }
    throw new ApiError('storage_unavailable', 'Storage is unavailable; this instance is not ready.', {
      retryAfter: 1,
      details: { checks: { storage, ledger, secret } },
    });
  }
}
