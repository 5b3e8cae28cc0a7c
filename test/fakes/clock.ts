import type { Clock } from '../../src/ports/clock.ts';

/** A clock moved by hand. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: number | string = '2026-01-15T12:00:00.000Z') {
    this.current = typeof start === 'number' ? start : Date.parse(start);
  }
  now(): number {
    return this.current;
  }
  /** Moves time forward by `ms`. */
  advance(ms: number): void {
    this.current += ms;
  }
  /** Jumps to an instant. */
  set(at: number | string): void {
    this.current = typeof at === 'number' ? at : Date.parse(at);
  }
}
