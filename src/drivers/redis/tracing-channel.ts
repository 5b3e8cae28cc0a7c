/**
 * `TracingChannel.prototype.hasSubscribers` where the runtime lacks it (Bun 1.4), defined as Node
 * defines it: true while any of the channel's five channels has a subscriber.
 *
 * Why: ioredis (5.11) traces a command unless that flag is `false`. On Bun it is `undefined`, so
 * for every command, with nobody listening, ioredis built a trace context (its arguments copied
 * into strings, matched against a list of patterns) and wrapped the reply's promise in another.
 * On Node and Deno the flag exists and nothing changes.
 * @module
 */
import * as diagnostics from 'node:diagnostics_channel';

/** What this module reads of `node:diagnostics_channel`. */
interface TracingChannels {
  tracingChannel?: (name: string) => object;
}

/** The five channels of a tracing channel, each of which knows whether it has subscribers. */
const PARTS = ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const;

/**
 * Defines the getter on the runtime's TracingChannel prototype when it has none; does nothing
 * where it exists (Node, Deno) or where tracing channels do not. Safe to call more than once.
 */
export function fillTracingChannelGap(channels: TracingChannels = diagnostics as TracingChannels): void {
  if (typeof channels.tracingChannel !== 'function') return;
  const prototype: object | null = Object.getPrototypeOf(channels.tracingChannel('tubescribe:probe'));
  if (prototype === null || 'hasSubscribers' in prototype) return;
  Object.defineProperty(prototype, 'hasSubscribers', {
    configurable: true,
    // Read by ioredis before every command: a plain loop, no callback made per read.
    get(this: Record<(typeof PARTS)[number], { hasSubscribers?: boolean } | undefined>): boolean {
      for (const part of PARTS) if (this[part]?.hasSubscribers === true) return true;
      return false;
    },
  });
}
