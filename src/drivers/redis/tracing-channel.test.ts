import * as diagnostics from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { fillTracingChannelGap } from './tracing-channel.ts';

/** A channel that counts its subscribers, as Bun's do. */
class FakeChannel {
  private subscribers = 0;
  get hasSubscribers(): boolean {
    return this.subscribers > 0;
  }
  subscribe(): void {
    this.subscribers++;
  }
  unsubscribe(): void {
    this.subscribers--;
  }
}

/** A tracing channel without `hasSubscribers`, as Bun 1.4's is. */
class FakeTracingChannel {
  start = new FakeChannel();
  end = new FakeChannel();
  asyncStart = new FakeChannel();
  asyncEnd = new FakeChannel();
  error = new FakeChannel();
}

const fakeRuntime = () => {
  class Tracing extends FakeTracingChannel {}
  return { Tracing, channels: { tracingChannel: () => new Tracing() } };
};

describe('fillTracingChannelGap', () => {
  it('gives a runtime without the flag a false one while nobody listens, and true while anyone does', () => {
    const { Tracing, channels } = fakeRuntime();
    const channel: FakeTracingChannel & { hasSubscribers?: boolean } = new Tracing();
    expect(channel.hasSubscribers).toBeUndefined(); // ioredis traces every command then

    fillTracingChannelGap(channels);
    expect(channel.hasSubscribers).toBe(false);
    for (const part of ['start', 'end', 'asyncStart', 'asyncEnd', 'error'] as const) {
      channel[part].subscribe();
      expect(channel.hasSubscribers).toBe(true);
      channel[part].unsubscribe();
      expect(channel.hasSubscribers).toBe(false);
    }
  });

  it('may be called again, and leaves a runtime that has the flag (Node) as it was', () => {
    const { Tracing, channels } = fakeRuntime();
    fillTracingChannelGap(channels);
    const getter = () => Object.getOwnPropertyDescriptor(Tracing.prototype, 'hasSubscribers')?.get;
    const defined = getter();
    fillTracingChannelGap(channels);
    expect(getter()).toBe(defined);

    const node = Object.getPrototypeOf(diagnostics.tracingChannel('tubescribe:test'));
    const before = Object.getOwnPropertyDescriptor(node, 'hasSubscribers')?.get;
    expect(before).toBeTypeOf('function');
    fillTracingChannelGap();
    expect(Object.getOwnPropertyDescriptor(node, 'hasSubscribers')?.get).toBe(before);
    expect(diagnostics.tracingChannel('tubescribe:test').hasSubscribers).toBe(false);
  });

  it('does nothing where there are no tracing channels', () => {
    expect(() => fillTracingChannelGap({})).not.toThrow();
  });
});
