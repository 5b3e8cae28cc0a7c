/**
 * Opaque page cursors for every listing: our signed cursor (core/cursor) wrapping whatever the
 * upstream needs to continue, bound to the route and its filters.
 * @module
 */
import { decodeCursor, encodeCursor } from '../core/cursor.ts';
import type { Clock } from '../ports/clock.ts';
import type { SharedSecret } from './secret.ts';

/** Encodes and decodes cursors with the server secret. */
export class Pager {
  constructor(
    private readonly secret: SharedSecret,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
  ) {}

  /** The cursor that continues `route`+`filters` with the upstream state `token`. */
  encode(route: string, filters: Record<string, string | undefined>, token: string): Promise<string> {
    return encodeCursor(this.secret.bytes, { route, filters, token }, this.clock.now());
  }

  /** The upstream state in `cursor`; `invalid_cursor` when it is not ours, not for this route and filters, or too old. */
  decode(route: string, filters: Record<string, string | undefined>, cursor: string): Promise<string> {
    return decodeCursor(this.secret.bytes, cursor, { route, filters }, this.clock.now(), this.maxAgeMs);
  }
}
