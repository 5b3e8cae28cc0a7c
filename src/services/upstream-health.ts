/**
 * The operator's view of the upstream: the YouTube player clients' health (`GET /admin/upstream`,
 * decisions.md Operator interface).
 * @module
 */
import type { ClientHealth, Upstream } from '../ports/upstream.ts';

/** `GET /admin/upstream`'s answer. */
export interface UpstreamHealthReport {
  clients: ClientHealth[];
}

/** Reads the upstream's client health; an upstream without `health` has no clients to show. */
export class UpstreamStatus {
  constructor(private readonly upstream: Upstream) {}

  /** `{ clients: [...] }`, or `{ clients: [] }` when the upstream does not report health. */
  upstreamHealth(): UpstreamHealthReport {
    return { clients: this.upstream.health?.() ?? [] };
  }
}
